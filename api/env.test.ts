import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.ts';

describe('configuration', () => {
  it('defaults to port 3000 and ./data/sitecommand.db', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_PATH).toBe('./data/sitecommand.db');
    expect(env.SEED_DEMO).toBe('auto');
  });

  it('takes the browser origin from PORT unless PUBLIC_ORIGIN says otherwise', () => {
    expect(parseEnv({}).PUBLIC_ORIGIN).toBe('http://localhost:3000');
    // PORT alone used to leave the origin at :3000, so every sign-in on :3311 was refused as cross-origin.
    expect(parseEnv({ PORT: '3311' }).PUBLIC_ORIGIN).toBe('http://localhost:3311');
    expect(parseEnv({ PORT: '3311', PUBLIC_ORIGIN: 'https://site.example' }).PUBLIC_ORIGIN).toBe(
      'https://site.example',
    );
  });

  it('names the variable and the problem in one line for a bad value', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(ConfigError);
    try {
      parseEnv({ PORT: '70000' });
    } catch (err) {
      expect((err as Error).message).toMatch(/^Invalid configuration: PORT: /);
      expect((err as Error).message).not.toContain('\n');
    }
    expect(() => parseEnv({ PUBLIC_ORIGIN: 'not a url' })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => parseEnv({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
    expect(() => parseEnv({ TRUST_PROXY_HOPS: 'yes' })).toThrow(/TRUST_PROXY_HOPS/);
    expect(parseEnv({ TRUST_PROXY_HOPS: '1' }).TRUST_PROXY_HOPS).toBe(1);
    expect(parseEnv({}).TRUST_PROXY_HOPS).toBe(0);
  });

  it('runs on SQLite without DATABASE_URL, and refuses a DATABASE_URL that is not a postgres:// address', () => {
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
    expect(parseEnv({ DATABASE_URL: 'postgres://app:pw@db:5432/site' }).DATABASE_URL).toBe(
      'postgres://app:pw@db:5432/site',
    );
    expect(() => parseEnv({ DATABASE_URL: 'mysql://db/site' })).toThrow(
      /^Invalid configuration: DATABASE_URL: must look like postgres:\/\//,
    );
    // Shaped like one, but not an address the driver can parse (a port that is not a number).
    expect(() => parseEnv({ DATABASE_URL: 'postgres://u:p@127.0.0.1:abc/db' })).toThrow(
      /^Invalid configuration: DATABASE_URL: must look like postgres:\/\//,
    );
  });

  it('keeps photos on disk without STORAGE_URL, and reads an S3 bucket and prefix from it', () => {
    expect(parseEnv({}).STORAGE_URL).toBeUndefined();
    expect(parseEnv({ STORAGE_URL: 's3://site-photos/prod/eu' }).STORAGE_URL).toEqual({
      bucket: 'site-photos',
      prefix: 'prod/eu',
    });
    expect(parseEnv({ STORAGE_URL: 's3://site-photos' }).STORAGE_URL).toEqual({
      bucket: 'site-photos',
      prefix: '',
    });
    expect(parseEnv({ STORAGE_URL: 's3://b1b/x', S3_FORCE_PATH_STYLE: 'true' }).S3_FORCE_PATH_STYLE).toBe(
      true,
    );
  });

  it('refuses a bad S3 configuration in one line naming the variable', () => {
    const line = (source: Record<string, string>) => {
      try {
        parseEnv(source);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(line({ STORAGE_URL: 'https://bucket/x' })).toMatch(/^Invalid configuration: STORAGE_URL: [^\n]+$/);
    expect(line({ STORAGE_URL: 's3://Bad_Bucket/x' })).toMatch(/^Invalid configuration: STORAGE_URL: /);
    expect(line({ STORAGE_URL: 's3://bucket/../x' })).toMatch(/^Invalid configuration: STORAGE_URL: /);
    expect(line({ STORAGE_URL: 's3://bucket/x', AWS_ACCESS_KEY_ID: 'id' })).toMatch(
      /^Invalid configuration: AWS_SECRET_ACCESS_KEY: set both/,
    );
    expect(line({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(
      /^Invalid configuration: S3_ENDPOINT: only takes effect with STORAGE_URL/,
    );
    expect(line({ STORAGE_URL: 's3://bucket/x', S3_ENDPOINT: 'not a url' })).toMatch(/S3_ENDPOINT/);
  });

  it('stops the server with exit code 1 and one clear line when a value is bad', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
      env: { ...process.env, PORT: 'abc', DATABASE_PATH: ':memory:' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Invalid configuration: PORT: [^\n]+$/);
  });
});
