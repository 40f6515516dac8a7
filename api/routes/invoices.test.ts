import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let admin: string;
let manager: string;
let crew: string;
let sub: string;
let harbor: string;
const summitInvoice = newId();
const harborInvoice = newId();

async function insertInvoice(id: string, companyId: string, invoiceNumber: string) {
  await t.orm((db) =>
    db
      .insert(schema.invoices)
      .values({
        id,
        companyId,
        invoiceNumber,
        clientName: 'Acme Client',
        clientEmail: 'billing@acme.test',
        amount: 100_000_00,
        tax: 8_250_00,
        total: 108_250_00,
        status: 'sent',
        dueDate: '2025-07-01T00:00:00.000Z',
        items: [{ description: 'Foundation work', quantity: 1, unitPrice: 100_000_00 }],
        notes: 'Net 30',
        createdAt: '2099-01-01T00:00:00.000Z',
      })
      .run(),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  manager = await t.login('manager@summit.test');
  crew = await t.login('crew@summit.test');
  sub = await t.login('sub@summit.test');
  harbor = await t.login('admin@harbor.test');
  await insertInvoice(summitInvoice, t.companyId('summit.test'), 'TEST-SUMMIT-1');
  await insertInvoice(harborInvoice, t.companyId('harbor.test'), 'TEST-HARBOR-1');
});
afterAll(() => t.close());

describe('GET /api/invoices', () => {
  it("lists the company's invoices, newest first, with every field in camelCase and money in cents", async () => {
    const res = await t.request('GET', '/api/invoices', { cookie: admin });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Record<string, unknown>[];
    expect(rows[0]).toEqual({
      id: summitInvoice,
      companyId: t.companyId('summit.test'),
      projectId: null,
      invoiceNumber: 'TEST-SUMMIT-1',
      clientName: 'Acme Client',
      clientEmail: 'billing@acme.test',
      amount: 10_000_000,
      tax: 825_000,
      total: 10_825_000,
      status: 'sent',
      dueDate: '2025-07-01T00:00:00.000Z',
      paidAt: null,
      items: [{ description: 'Foundation work', quantity: 1, unitPrice: 10_000_000 }],
      notes: 'Net 30',
      createdAt: '2099-01-01T00:00:00.000Z',
      updatedAt: expect.any(String),
    });
  });

  it("never includes another company's invoices", async () => {
    const rows = (await (await t.request('GET', '/api/invoices', { cookie: manager })).json()) as {
      id: string;
    }[];
    expect(rows.map((r) => r.id)).not.toContain(harborInvoice);
    const theirs = (await (await t.request('GET', '/api/invoices', { cookie: harbor })).json()) as {
      id: string;
    }[];
    expect(theirs.map((r) => r.id)).toContain(harborInvoice);
    expect(theirs.map((r) => r.id)).not.toContain(summitInvoice);
  });

  it('forbids crew members and subcontractors, who have no finance permission (403)', async () => {
    expect((await t.request('GET', '/api/invoices', { cookie: crew })).status).toBe(403);
    expect((await t.request('GET', '/api/invoices', { cookie: sub })).status).toBe(403);
  });

  it('asks for sign-in without a session (401)', async () => {
    expect((await t.request('GET', '/api/invoices')).status).toBe(401);
  });
});
