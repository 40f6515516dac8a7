import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDrizzleJson, generateMigration, type DrizzleSnapshotJSON } from 'drizzle-kit/api';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { is } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as sqlite from '../schema/index.ts';
import * as derived from './schema.ts';

const META = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations-pg', 'meta');

describe('the PostgreSQL schema (ADR 027)', () => {
  it('has every table, column, key and index of the one schema definition', () => {
    for (const table of Object.values(sqlite).filter((t) => is(t, SQLiteTable))) {
      const s = sqliteConfig(table as SQLiteTable);
      const p = pgConfig(
        derived.tables[Object.keys(sqlite).find((k) => sqlite[k as keyof typeof sqlite] === table)!]!,
      );
      expect(p.name).toBe(s.name);
      expect(p.columns.map((c) => [c.name, c.notNull, c.primary])).toEqual(
        s.columns.map((c) => [c.name, c.notNull, c.primary]),
      );
      expect(p.indexes.map((i) => i.config.name)).toEqual(s.indexes.map((i) => i.config.name));
      expect(p.foreignKeys.length).toBe(s.foreignKeys.length);
      expect(p.primaryKeys.length).toBe(s.primaryKeys.length);
    }
  });

  it('is what the committed migrations build: a change to the schema needs `npm run db:generate`', async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(META, '_journal.json'), 'utf8')) as {
      entries: { idx: number }[];
    };
    const last = String(journal.entries.at(-1)!.idx).padStart(4, '0');
    const committed = JSON.parse(
      fs.readFileSync(path.join(META, `${last}_snapshot.json`), 'utf8'),
    ) as DrizzleSnapshotJSON;
    const current = generateDrizzleJson(derived.tables);
    expect(await generateMigration(committed, current)).toEqual([]);
  });
});
