import { Hono } from 'hono';
import { desc, eq } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { sessionUser } from './helpers.ts';

const { timeEntries } = schema;

/** GET /api/time-entries (spec 01 section 7, read-only): the company's entries, latest start first. */
export const timeEntryRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { db } = c.var.deps;
  const rows = db
    .select()
    .from(timeEntries)
    .where(eq(timeEntries.companyId, sessionUser(c).companyId))
    .orderBy(desc(timeEntries.startTime), desc(timeEntries.id))
    .all();
  return c.json(rows);
});
