import { z } from 'zod';

/** The only file that reads process.env (DESIGN.md section 3). */
const durationMs = z.coerce.number().int().positive();

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_PATH: z.string().min(1).default('./data/sitecommand.db'),
  PHOTO_DIR: z.string().min(1).default('./data/photos'),
  PUBLIC_ORIGIN: z.url().default('http://localhost:3000'),
  SEED_DEMO: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Idle and absolute session lifetimes, per role group (field roles stay signed in for days offline). */
  SESSION_TTL_FIELD_IDLE_MS: durationMs.default(14 * 24 * 3600_000),
  SESSION_TTL_FIELD_ABSOLUTE_MS: durationMs.default(30 * 24 * 3600_000),
  SESSION_TTL_ADMIN_IDLE_MS: durationMs.default(2 * 3600_000),
  SESSION_TTL_ADMIN_ABSOLUTE_MS: durationMs.default(12 * 3600_000),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
});

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {}

/** Parses the given environment; a bad value throws one line naming the variable and the problem. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid configuration: ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  return result.data;
}

export function loadEnv(): Env {
  return parseEnv(process.env);
}
