import { z } from 'zod';

/** The only file that reads process.env (DESIGN.md section 3). */
const durationMs = z.coerce.number().int().positive();

/** Where photo bytes go when not on disk: `s3://bucket` or `s3://bucket/some/prefix` (ADR 024). */
export interface S3Location {
  bucket: string;
  /** Without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
}

// S3's own bucket naming rule (lowercase letters, digits, dots and hyphens, 3 to 63), and a prefix made of
// plain path segments, so no key the app writes can leave it.
const S3_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/((?:[A-Za-z0-9._-]+\/?)*))?$/;

const StorageUrl = z
  .string()
  .regex(S3_URL, 'must look like s3://bucket/prefix')
  .refine((u) => !u.split('/').slice(3).includes('..'), 'must look like s3://bucket/prefix')
  .transform((u): S3Location => {
    const [, bucket, prefix] = S3_URL.exec(u)!;
    return { bucket: bucket!, prefix: (prefix ?? '').replace(/\/+$/, '') };
  });

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATABASE_PATH: z.string().min(1).default('./data/sitecommand.db'),
    /** Set: the server runs on this PostgreSQL database instead of the SQLite file (ADR 027). */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must look like postgres://user:password@host:5432/database')
      // The driver parses it as a URL: a port that is not a number would fail later, with a stack trace.
      .refine(URL.canParse, 'must look like postgres://user:password@host:5432/database')
      .optional(),
    PHOTO_DIR: z.string().min(1).default('./data/photos'),
    /** Unset: photo bytes on disk under PHOTO_DIR. Set: in this S3-compatible bucket (ADR 024). */
    STORAGE_URL: StorageUrl.optional(),
    S3_ENDPOINT: z.url().optional(),
    AWS_REGION: z.string().min(1).default('us-east-1'),
    AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
    AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false', '1', '0'])
      .transform((v) => v === 'true' || v === '1')
      .optional(),
    /** Unset: this machine on PORT (http://localhost:3000 by default), so PORT alone is enough locally. */
    PUBLIC_ORIGIN: z.url().optional(),
    SEED_DEMO: z.enum(['auto', 'on', 'off']).default('auto'),
    /**
     * How many proxies (load balancers) in front of the server append to X-Forwarded-For. 0: the socket's
     * peer is the client. Behind one load balancer every peer is the balancer, so the sign-in throttle's
     * per-address counts would lock every user out together; with the hops set, the client is the address
     * the nearest trusted proxy saw (what a client writes itself further left is never taken).
     */
    TRUST_PROXY_HOPS: z.coerce.number().int('must be a whole number').min(0).max(10).default(0),
    /** Idle and absolute session lifetimes, per role group (field roles stay signed in for days offline). */
    SESSION_TTL_FIELD_IDLE_MS: durationMs.default(14 * 24 * 3600_000),
    SESSION_TTL_FIELD_ABSOLUTE_MS: durationMs.default(30 * 24 * 3600_000),
    SESSION_TTL_ADMIN_IDLE_MS: durationMs.default(2 * 3600_000),
    SESSION_TTL_ADMIN_ABSOLUTE_MS: durationMs.default(12 * 3600_000),
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  })
  .superRefine((env, ctx) => {
    // An S3 setting without STORAGE_URL would silently leave photos on disk: say so instead. The AWS_*
    // variables are left alone, since other tools on the machine may set them.
    if (!env.STORAGE_URL) {
      for (const name of ['S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'] as const) {
        if (env[name] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'only takes effect with STORAGE_URL=s3://...',
          });
        }
      }
      return;
    }
    // One key without the other is a typo; neither means the SDK's own chain (an instance or pod role).
    if ((env.AWS_ACCESS_KEY_ID === undefined) !== (env.AWS_SECRET_ACCESS_KEY === undefined)) {
      const missing = env.AWS_ACCESS_KEY_ID === undefined ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither',
      });
    }
  })
  .transform((env) => ({ ...env, PUBLIC_ORIGIN: env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}` }));

export type Env = z.output<typeof EnvSchema>;

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
