import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let admin: string;
let crew: string;
let sub: string;
let harbor: string;
const summitEntry = newId();
const harborEntry = newId();

async function insertEntry(id: string, companyId: string) {
  await t.orm((db) =>
    db
      .insert(schema.timeEntries)
      .values({
        id,
        companyId,
        description: 'Formwork',
        startTime: '2099-03-10T07:00:00.000Z',
        endTime: '2099-03-10T15:30:00.000Z',
        totalHours: 8.5,
        hourlyRate: 65_00,
        createdAt: '2099-03-10T16:00:00.000Z',
      })
      .run(),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  crew = await t.login('crew@summit.test');
  sub = await t.login('sub@summit.test');
  harbor = await t.login('admin@harbor.test');
  await insertEntry(summitEntry, t.companyId('summit.test'));
  await insertEntry(harborEntry, t.companyId('harbor.test'));
});
afterAll(() => t.close());

describe('GET /api/time-entries', () => {
  it("lists the company's entries, latest start first, with every field in camelCase and the rate in cents", async () => {
    const res = await t.request('GET', '/api/time-entries', { cookie: admin });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Record<string, unknown>[];
    expect(rows[0]).toEqual({
      id: summitEntry,
      companyId: t.companyId('summit.test'),
      userId: null,
      projectId: null,
      taskId: null,
      description: 'Formwork',
      startTime: '2099-03-10T07:00:00.000Z',
      endTime: '2099-03-10T15:30:00.000Z',
      totalHours: 8.5,
      hourlyRate: 6500,
      billable: true,
      approved: false,
      approvedBy: null,
      createdAt: '2099-03-10T16:00:00.000Z',
    });
    const starts = rows.map((r) => String(r.startTime));
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it("never includes another company's entries", async () => {
    const ours = (await (await t.request('GET', '/api/time-entries', { cookie: admin })).json()) as {
      id: string;
    }[];
    expect(ours.map((r) => r.id)).not.toContain(harborEntry);
    const theirs = (await (await t.request('GET', '/api/time-entries', { cookie: harbor })).json()) as {
      id: string;
    }[];
    expect(theirs.map((r) => r.id)).toEqual(expect.arrayContaining([harborEntry]));
    expect(theirs.map((r) => r.id)).not.toContain(summitEntry);
  });

  it('forbids crew members and subcontractors, who have no finance permission (403)', async () => {
    expect((await t.request('GET', '/api/time-entries', { cookie: crew })).status).toBe(403);
    expect((await t.request('GET', '/api/time-entries', { cookie: sub })).status).toBe(403);
  });
});
