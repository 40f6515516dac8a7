import { eq } from 'drizzle-orm';
import { hashPassword } from '../../auth/password.ts';
import type { BlobStore } from '../../storage/index.ts';
import { schema, writeTx, type Db } from '../index.ts';
import { DEMO_PASSWORD } from './demo-data/accounts.ts';
import { HARBOR } from './demo-data/harbor.ts';
import { SUMMIT } from './demo-data/summit.ts';
import { drawDemoPhotos } from './images.ts';
import { applyRbac } from './rbac.ts';
import { writeDemo } from './write.ts';

export { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount } from './demo-data/accounts.ts';
export { seedRbac } from './rbac.ts';

const TENANTS = [SUMMIT, HARBOR] as const;

/** Its presence means the demo data is already there (or was, and someone kept the admin). */
const SEED_MARKER_EMAIL = 'admin@summit.test';

function demoSeeded(db: Db): boolean {
  return (
    db
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.email, SEED_MARKER_EMAIL))
      .get() !== undefined
  );
}

/**
 * Seeds the demo companies, users and a realistic volume of data, once. The slow parts (argon2, drawing
 * and storing the photos) happen before the single synchronous write transaction.
 */
export async function seedDemo(
  db: Db,
  store: BlobStore,
  opts: { now?: Date } = {},
): Promise<{ seeded: boolean }> {
  if (demoSeeded(db)) return { seeded: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const photos = drawDemoPhotos(TENANTS);
  // Bytes first: a photo row marked 'present' must never point at a missing blob.
  await Promise.all(photos.map((p) => store.put(p.key, p.bytes)));
  const nowMs = (opts.now ?? new Date()).getTime();
  return writeTx(db, () => {
    // Another process may have seeded while we hashed; its rows win and our blobs are unused.
    if (demoSeeded(db)) return { seeded: false };
    applyRbac(db);
    writeDemo(db, { nowMs, passwordHash, tenants: TENANTS, photos });
    return { seeded: true };
  });
}
