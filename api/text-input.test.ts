import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-utils.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
});
afterAll(() => t.close());

const taskCount = async () => (await t.query<{ n: number }>('SELECT count(*) AS n FROM tasks'))[0]!.n;

describe('text a person could not have typed is refused and changes nothing', () => {
  it.each([
    ['a right-to-left override that makes "gnp.exe" read "exe.png"', 'Invoice \u202Egnp.exe'],
    ['a NUL that cuts the title short in other tools', 'Pour\u0000 slab'],
    ['an escape character', 'Pour \u001b[31mslab'],
  ])('refuses %s with a clear message', async (_what, title) => {
    const before = await taskCount();
    const res = await t.request('POST', '/api/tasks', {
      cookie: admin,
      body: { title, category: 'general' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Title must not contain invisible control characters',
    );
    expect(await taskCount()).toBe(before);
  });

  it('refuses half of a surrogate pair, which would be stored as U+FFFD, not as sent', async () => {
    const before = await taskCount();
    const res = await t.request('POST', '/api/tasks', {
      cookie: admin,
      body: { title: 'Pour slab', description: 'x\ud800y', category: 'general' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Description must not contain broken characters',
    );
    expect(await taskCount()).toBe(before);
  });

  it.each([
    [
      'a diary entry’s content',
      '/api/logs',
      (bad: string) => ({ title: 'Day 3', content: bad, type: 'daily', status: 'open' }),
      'Content',
    ],
    [
      'a new user’s first name',
      '/api/rbac/users',
      (bad: string) => ({ email: `x${Date.now()}@summit.test`, first_name: bad, last_name: 'B', role_id: 3 }),
      'First name',
    ],
    ['a company’s name', '/api/companies', (bad: string) => ({ name: bad }), 'Name'],
  ])('refuses invisible controls in %s too', async (_what, url, body, field) => {
    const project = (
      await t.query<{ id: string }>(
        'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL LIMIT 1',
        [t.companyId('summit.test')],
      )
    )[0]!.id;
    const cookie = url === '/api/companies' ? await t.login('root@sitecommand.test') : admin;
    const res = await t.request('POST', url, {
      cookie,
      body: { projectId: project, company_id: t.companyId('summit.test'), ...body('a\u0000\u202Eb') },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      `${field} must not contain invisible control characters`,
    );
  });

  it('keeps what people do type: accents, emoji, right-to-left scripts, tabs and line breaks', async () => {
    const res = await t.request('POST', '/api/tasks', {
      cookie: admin,
      body: {
        title: 'Coffrage – niveau 2 🏗 שלב ב',
        description: 'Line one\n\tLine two\r\n',
        category: 'general',
      },
    });
    expect(res.status).toBe(201);
  });
});

describe('text of the wrong length or type says what is wrong with it', () => {
  const post = async (url: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', url, { cookie: admin, body });
    return {
      status: res.status,
      body: (await res.json()) as { message: string; fields: Record<string, string> },
    };
  };

  it.each([
    ['a 201-character title', { title: 'x'.repeat(201) }, 'Title must be at most 200 characters'],
    ['a title that is a number', { title: 123 }, 'Title must be text'],
    ['no title', {}, 'Title is required'],
    ['a title of spaces', { title: '   ' }, 'Title is required'],
    [
      'a 5,001-character description',
      { title: 'Pour slab', description: 'x'.repeat(5001) },
      'Description must be at most 5000 characters',
    ],
  ])('a task with %s: 400 with that sentence, and nothing created', async (_what, fields, message) => {
    const before = await taskCount();
    const res = await post('/api/tasks', { category: 'general', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await taskCount()).toBe(before);
  });

  it('a 201-character project name is too long, not missing', async () => {
    const res = await post('/api/projects', { name: 'n'.repeat(201), location: 'Site' });
    expect(res.status).toBe(400);
    expect(res.body.fields.name).toBe('Name must be at most 200 characters');
  });
});

describe('dates outside what a calendar picker offers are refused', () => {
  it.each([
    ['year 1', '0001-01-01'],
    ['1899', '1899-12-31'],
    ['a time that lands in year 10000', '9999-12-31T23:59:59-14:00'],
  ])('a task due in %s: 400, and nothing created', async (_what, dueDate) => {
    const before = await taskCount();
    const res = await t.request('POST', '/api/tasks', {
      cookie: admin,
      body: { title: 'Pour slab', category: 'general', dueDate },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Due date must be between the years 1900 and 9999',
    );
    expect(await taskCount()).toBe(before);
  });

  it('keeps the last day of 9999 and the first of 1900', async () => {
    for (const dueDate of ['9999-12-31', '1900-01-01']) {
      const res = await t.request('POST', '/api/tasks', {
        cookie: admin,
        body: { title: 'Pour slab', category: 'general', dueDate },
      });
      expect(res.status).toBe(201);
    }
  });
});
