import { io, type Op } from './op.ts';
import { rowsStmt, type SqlConn, type Stmt } from './sql.ts';

/** Rows per INSERT: 64 rows of up to 15 values stay far below either database's limit of bound parameters. */
const CHUNK = 64;

/**
 * One multi-row `INSERT ... VALUES (...), (...)` per 64 rows instead of one statement per row (ADR 020):
 * a push batch inserts its activity rows and replay results this way. One statement per row count, so at
 * most 64 per insert. Plain SQL, the same on both databases.
 */
export function bulkInsert<Row extends unknown[]>(head: string, columns: number) {
  const statements = new Map<number, Stmt>();
  const tuple = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  const statement = (n: number) => {
    let stmt = statements.get(n);
    if (!stmt) {
      stmt = rowsStmt(`${head} VALUES ${Array.from({ length: n }, () => tuple).join(', ')}`);
      statements.set(n, stmt);
    }
    return stmt;
  };
  return function* insert(c: SqlConn, rows: readonly Row[]): Op<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      yield* io(c.run(statement(chunk.length), chunk.flat()));
    }
  };
}
