import { hash, verify, type Algorithm } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** argon2id with OWASP's minimum (DESIGN.md section 5): m=19456 KiB, t=2, p=1. */
export const ARGON2_OPTIONS = {
  // Algorithm.Argon2id; the package ships it as an ambient const enum, which isolated modules cannot read.
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

// Each hash holds 19 MiB and ~6 ms of a core; cap how many run at once so a burst of sign-ins
// cannot exhaust memory or starve the event loop's thread pool.
const MAX_CONCURRENT_HASHES = 4;
const hashSlot = pLimit(MAX_CONCURRENT_HASHES);

export function hashPassword(password: string): Promise<string> {
  return hashSlot(() => hash(password, ARGON2_OPTIONS));
}

export function verifyPassword(stored: string, password: string): Promise<boolean> {
  return hashSlot(() => verify(stored, password).catch(() => false));
}

/** A real hash of a random string, verified against when the email is unknown so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}
