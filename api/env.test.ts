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
