/**
 * Data work written once for SQLite and PostgreSQL (ADR 027). An `Op<T>` is a generator: it yields each
 * statement's answer, a value on SQLite (better-sqlite3 answers at once) and a promise on PostgreSQL, and gets
 * it back resolved. `runSync` runs it straight through, so an SQLite write transaction stays synchronous from
 * BEGIN IMMEDIATE to COMMIT (DESIGN.md section 4: nothing else can run inside it); `runAsync` awaits each
 * answer, for PostgreSQL. The rules inside are the same code on both.
 *
 *     function* taskTitle(db: AnyDb, id: string): Op<string | undefined> {
 *       const row = yield* io(db.select().from(tasks).where(eq(tasks.id, id)).get());
 *       return row?.title;
 *     }
 */
export type Op<T> = Generator<unknown, T, unknown>;

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';

/**
 * One statement's answer: `yield* io(statement)` is the `await` of an Op. An answer already there (SQLite)
 * is returned without a yield, so nothing travels up through the Op's callers: on SQLite an Op runs as
 * plain nested calls. A promise (PostgreSQL) is yielded to the runner, which resumes the Op with its value.
 */
export function* io<T>(answer: T | PromiseLike<T>): Op<T> {
  if (!isThenable(answer)) return answer;
  return (yield answer) as T;
}

/** Runs an Op whose statements all answer at once (SQLite); it throws where a statement threw. */
export function runSync<T>(op: Op<T>): T {
  let step = op.next();
  while (!step.done) {
    if (isThenable(step.value)) {
      // A promise here would let the transaction's body go on before its statement has run.
      throw new Error('An asynchronous statement inside a synchronous database operation');
    }
    step = op.next(step.value);
  }
  return step.value;
}

/** Runs an Op whose statements answer with promises (PostgreSQL); a rejection is thrown into the Op. */
export async function runAsync<T>(op: Op<T>): Promise<T> {
  let step = op.next();
  while (!step.done) {
    let answer: unknown;
    try {
      answer = await step.value;
    } catch (err) {
      step = op.throw(err);
      continue;
    }
    step = op.next(answer);
  }
  return step.value;
}
