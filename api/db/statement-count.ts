import Database from 'better-sqlite3';

/**
 * Counts the SQL statements executed on any connection while `fn` runs (budget B2 reports statements per
 * mutation; a unit test holds the push to its statement budget). Every execution in better-sqlite3 goes
 * through a Statement's run/get/all/iterate, including the BEGIN, SAVEPOINT and RELEASE of its transaction
 * helper, so wrapping those four methods sees all of them. Test and benchmark code only.
 */
export function countStatements<T>(fn: () => T): { result: T; count: number; bySql: Map<string, number> } {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const methods = ['run', 'get', 'all', 'iterate'] as const;
  const originals = methods.map((m) => proto[m] as (...args: unknown[]) => unknown);
  const bySql = new Map<string, number>();
  let count = 0;
  methods.forEach((m, i) => {
    const original = originals[i]!;
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      count++;
      bySql.set(this.source, (bySql.get(this.source) ?? 0) + 1);
      return original.apply(this, args);
    };
  });
  try {
    return { result: fn(), count, bySql };
  } finally {
    methods.forEach((m, i) => (proto[m] = originals[i]));
  }
}
