import type Database from 'better-sqlite3';

/** Rows per INSERT: 64 rows of up to 15 values stay far below SQLite's limit of bound parameters. */
const CHUNK = 64;

/**
 * One multi-row `INSERT ... VALUES (...), (...)` per 64 rows instead of one statement per row (ADR 020):
 * a push batch inserts its activity rows and replay results this way. Statements are prepared once per row
 * count, so at most 64 per connection and insert. Plain SQL, portable to PostgreSQL.
 */
export function bulkInsert<Row extends unknown[]>(
  sqlite: Database.Database,
  head: string,
  columns: number,
): (rows: readonly Row[]) => void {
  const prepared = new Map<number, Database.Statement<unknown[]>>();
  const tuple = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  const statement = (n: number) => {
    let stmt = prepared.get(n);
    if (!stmt) {
      stmt = sqlite.prepare<unknown[]>(`${head} VALUES ${Array.from({ length: n }, () => tuple).join(', ')}`);
      prepared.set(n, stmt);
    }
    return stmt;
  };
  return (rows) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      statement(chunk.length).run(chunk.flat());
    }
  };
}
