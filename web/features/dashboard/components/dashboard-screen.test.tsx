// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { createQueryClient } from '#web/lib/api.ts';
import {
  CREW,
  MANAGER,
  json,
  polyfillDom,
  pulledProject,
  pulledTask,
  renderDashboard,
  renderWithApp,
  stubApi,
  testDb,
} from './test-support.tsx';
import { SessionProvider } from '#web/app/session.tsx';
import { writeTo } from '#web/features/projects/components/test-support.tsx';
import { DashboardScreen } from './dashboard-screen.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  db?.close();
});

// Monday 10 March 2025, 06:30 UTC; in Los Angeles it is still Sunday 9 March, 23:30.
const NOW = new Date('2025-03-10T06:30:00.000Z');
const LA = 'America/Los_Angeles';
const pid = (n: number) => `0195a0a0-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`;
const tid = (n: number) => `0195a0a0-0000-7000-8000-0000000002${String(n).padStart(2, '0')}`;
const phid = (n: number) => `0195a0a0-0000-7000-8000-0000000003${String(n).padStart(2, '0')}`;
const day = (d: string) => `${d}T00:00:00.000Z`;

const activity = (n: number, created_at: string, description = `Activity ${n}`) => ({
  id: `0195a0a0-0000-7000-8000-0000000004${String(n).padStart(2, '0')}`,
  action_type: 'task_updated',
  first_name: 'Casey',
  email: 'crew@summit.test',
  description,
  created_at,
});

function stubActivities(list: unknown[] = []) {
  return stubApi({ 'GET /api/activities': () => json(list) });
}

async function seed({
  projects = [],
  tasks = [],
  photos = [],
}: {
  projects?: Parameters<SyncDb['projects']['bulkPut']>[0];
  tasks?: Parameters<SyncDb['tasks']['bulkPut']>[0];
  photos?: Parameters<SyncDb['photos']['bulkPut']>[0];
}) {
  db = testDb();
  await db.projects.bulkPut(projects);
  await db.tasks.bulkPut(tasks);
  await db.photos.bulkPut(photos);
}

const region = (name: string) => screen.getByRole('region', { name });
/** A widget of the overview, once the device's reads have answered (a placeholder stands for them until then). */
const shownRegion = (name: string) => screen.findByRole('region', { name });
const group = (name: string) => screen.getByRole('group', { name });

describe('stat cards', () => {
  it("count active projects, pending tasks and photos from the device, with 'new this week' and 'due today' computed", async () => {
    stubActivities();
    await seed({
      projects: [
        // Created today and 6 days ago: new this week; 7 days ago: not.
        pulledProject(pid(1), 'Harbor Tower', 'active', { createdAt: '2025-03-10T01:00:00.000Z' }),
        pulledProject(pid(2), 'Bridge Repair', 'active', { createdAt: '2025-03-04T08:00:00.000Z' }),
        pulledProject(pid(3), 'Old Depot', 'active', { createdAt: '2025-03-03T08:00:00.000Z' }),
        pulledProject(pid(4), 'Done Deal', 'completed', { createdAt: '2025-01-01T08:00:00.000Z' }),
        pulledProject(pid(5), 'Stalled', 'delayed', { createdAt: '2024-12-01T08:00:00.000Z' }),
      ],
      tasks: [
        pulledTask(tid(1), pid(1), 'Pour slab', { dueDate: day('2025-03-10') }),
        pulledTask(tid(2), pid(1), 'Frame walls', { dueDate: day('2025-03-10'), status: 'in_progress' }),
        pulledTask(tid(3), pid(1), 'Order rebar', { dueDate: day('2025-03-10'), status: 'completed' }),
        pulledTask(tid(4), pid(2), 'Inspect crane', { dueDate: day('2025-03-11') }),
        pulledTask(tid(5), pid(2), 'Fence site', { dueDate: null }),
        pulledTask(tid(6), pid(2), 'Old punch list', { dueDate: day('2025-03-01'), status: 'completed' }),
      ],
      photos: [
        { id: phid(1), version: 1, projectId: pid(1), createdAt: '2025-03-10T00:00:00.000Z' },
        { id: phid(2), version: 1, projectId: pid(1), createdAt: '2025-03-10T06:00:00.000Z' },
        { id: phid(3), version: 1, projectId: pid(2), createdAt: '2025-03-09T23:59:59.000Z' },
      ],
    });
    renderDashboard(db, { now: NOW });

    await waitFor(() => expect(within(group('Active Projects')).getByText('3')).toBeTruthy());
    expect(within(group('Active Projects')).getByText('2 new this week')).toBeTruthy();
    // 4 open tasks; 2 of them due today (the completed one due today does not count).
    await waitFor(() => expect(within(group('Pending Tasks')).getByText('4')).toBeTruthy());
    expect(within(group('Pending Tasks')).getByText('2 due today')).toBeTruthy();
    await waitFor(() => expect(within(group('Photos Uploaded')).getByText('3')).toBeTruthy());
    expect(within(group('Photos Uploaded Today')).getByText('2')).toBeTruthy();
  });

  it("counts today in the company's time zone: at 23:30 in Los Angeles, a photo from 06:00 UTC is today's, the task due the 10th is not", async () => {
    stubActivities();
    await seed({
      tasks: [
        pulledTask(tid(1), pid(1), 'Due the 9th', { dueDate: day('2025-03-09') }),
        pulledTask(tid(2), pid(1), 'Due the 10th', { dueDate: day('2025-03-10') }),
      ],
      photos: [
        // 9 March 22:00 in Los Angeles: today there.
        { id: phid(1), version: 1, projectId: pid(1), createdAt: '2025-03-10T06:00:00.000Z' },
        // 8 March 16:00 in Los Angeles: yesterday there.
        { id: phid(2), version: 1, projectId: pid(1), createdAt: '2025-03-09T00:00:00.000Z' },
      ],
    });
    renderDashboard(db, { now: NOW, user: { ...CREW, companyTimeZone: LA } });
    await waitFor(() => expect(within(group('Pending Tasks')).getByText('1 due today')).toBeTruthy());
    expect(within(group('Photos Uploaded Today')).getByText('1')).toBeTruthy();

    await userEvent.click(screen.getByRole('tab', { name: 'Task Management' }));
    const today = await shownRegion("Today's Tasks");
    await waitFor(() => expect(within(today).getByText('Due the 9th')).toBeTruthy());
    expect(within(today).queryByText('Due the 10th')).toBeNull();
    expect(within(region('Next Priority Tasks')).getByText(/Due tomorrow/)).toBeTruthy();
  });
});

describe('first download', () => {
  it('shows the download with its progress and the quick actions, not "No projects yet" nor "No communications", while the device fills; the office tab still opens', async () => {
    stubActivities();
    await seed({ projects: [pulledProject(pid(1), 'Harbor Tower', 'active')] });
    renderWithApp(
      db,
      <DashboardScreen
        db={db}
        user={MANAGER}
        write={writeTo(db)}
        now={NOW}
        downloading={{ done: false, rows: 1234, online: true, problem: null }}
      />,
    );
    expect(screen.getByText('Downloading your data... 1,234 rows so far')).toBeTruthy();
    // Somewhere to go meanwhile: the quick actions need no data.
    const actions = screen.getByRole('navigation', { name: 'Quick actions' });
    expect(within(actions).getByRole('link', { name: 'Add Project' }).getAttribute('href')).toBe('/projects');
    // A half-filled mirror is not shown as the company's data.
    expect(screen.queryByRole('region', { name: 'Multi-Project Overview' })).toBeNull();
    expect(screen.queryByText('Harbor Tower')).toBeNull();
    expect(screen.queryByText(/No (active )?projects/)).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Task Management' }));
    expect(screen.getByText('Downloading your data... 1,234 rows so far')).toBeTruthy();
    // [C21] Communications and change orders are mirrored too (W15): a half-filled feed is not "none yet".
    await userEvent.click(screen.getByRole('tab', { name: 'Communications' }));
    expect(screen.getByText('Downloading your data... 1,234 rows so far')).toBeTruthy();
    expect(screen.queryByText(/^No communications/)).toBeNull();
    // Financial Health asks the server, not the device: it opens.
    await userEvent.click(screen.getByRole('tab', { name: 'Financial Health' }));
    expect(screen.queryByText(/Downloading your data/)).toBeNull();
  });
});

describe('quick actions', () => {
  it('go to /projects, /tasks, /photos and /subs', async () => {
    stubActivities();
    await seed({});
    const targets: Record<string, string> = {
      'Add Project': '/projects',
      'Add Tasks': '/tasks',
      'Upload Photos': '/photos',
      'Assign Task': '/subs',
    };
    for (const [label, path] of Object.entries(targets)) {
      renderDashboard(db, { now: NOW, user: MANAGER });
      const nav = screen.getByRole('navigation', { name: 'Quick actions' });
      await userEvent.click(within(nav).getByRole('link', { name: label }));
      expect(screen.getByTestId('location').textContent).toBe(path);
      cleanup();
    }
  });

  it('leave out what the user cannot add: crew without projects:create get no Add Project', async () => {
    stubActivities();
    await seed({});
    renderDashboard(db, {
      now: NOW,
      user: { ...CREW, grants: CREW.grants.filter((g) => g !== 'photos:create') },
    });
    const nav = screen.getByRole('navigation', { name: 'Quick actions' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Add Tasks']);
  });

  it('leave out Assign Task for a role that cannot open the subcontractor board', async () => {
    stubActivities();
    await seed({});
    renderDashboard(db, { now: NOW, user: CREW });
    const nav = screen.getByRole('navigation', { name: 'Quick actions' });
    expect(within(nav).getByRole('link', { name: 'Add Tasks' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Assign Task' })).toBeNull();
  });
});

describe('Recent Activity', () => {
  it("shows the first 5 with description and time, 'Recently' for a bad date, and 'View all' opens /activity", async () => {
    const fetch = stubActivities([
      activity(1, '2025-03-10T06:25:00.000Z', 'Casey completed Pour slab'),
      activity(2, 'not a date', 'Morgan created Harbor Tower'),
      activity(3, '2025-03-10T03:30:00.000Z'),
      activity(4, '2025-03-09T06:30:00.000Z'),
      activity(5, '2025-03-08T06:30:00.000Z'),
      activity(6, '2025-03-07T06:30:00.000Z', 'Sixth'),
      activity(7, '2025-03-06T06:30:00.000Z', 'Seventh'),
    ]);
    await seed({});
    renderDashboard(db, { now: NOW });
    const widget = await shownRegion('Recent Activity');
    await waitFor(() => expect(within(widget).getByText('Casey completed Pour slab')).toBeTruthy());
    expect(within(widget).getAllByRole('listitem')).toHaveLength(5);
    expect(within(widget).queryByText('Sixth')).toBeNull();
    expect(within(widget).getByText('5 minutes ago')).toBeTruthy();
    expect(within(widget).getByText('Recently')).toBeTruthy();
    expect(within(widget).getByText('about 3 hours ago')).toBeTruthy();
    // The spec's convention: a credentialed GET of the key's URL.
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/^\/api\/activities/);

    await userEvent.click(within(widget).getByRole('link', { name: 'View all' }));
    expect(screen.getByTestId('location').textContent).toBe('/activity');
  });

  it('says so when there is no activity, and shows the server message with Try again on a failure', async () => {
    stubActivities([]);
    await seed({});
    renderDashboard(db, { now: NOW });
    await waitFor(() => expect(within(region('Recent Activity')).getByText('No activity yet.')).toBeTruthy());
    cleanup();

    stubApi({ 'GET /api/activities': () => json({ message: 'Database is busy', code: 'BUSY' }, 503) });
    renderDashboard(db, { now: NOW });
    const alert = await within(await shownRegion('Recent Activity')).findByRole('alert');
    expect(alert.textContent).toContain('Database is busy');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('offline, shows the kept answer with the "as of" line instead of a spinner or an error', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await seed({});
    const client = createQueryClient();
    const keptAt = new Date('2025-03-09T17:05:00.000Z').getTime();
    client.setQueryData(['/api/activities?limit=5'], [activity(1, '2025-03-09T17:00:00.000Z', 'Kept one')], {
      updatedAt: keptAt,
    });
    renderDashboard(db, { now: NOW, client });
    expect(await within(await shownRegion('Recent Activity')).findByText('Kept one')).toBeTruthy();
    const notice = screen.getAllByRole('status').find((el) => el.textContent?.includes('Offline'));
    expect(notice?.textContent).toMatch(/Offline: showing recent activity as of Mar 9, \d+:05 (AM|PM)\./);
    expect(within(region('Recent Activity')).queryByRole('alert')).toBeNull();
  });

  it('back online, asks again at once and takes the "Offline" line down', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await seed({});
    const client = createQueryClient();
    client.setQueryData(['/api/activities?limit=5'], [activity(1, '2025-03-09T17:00:00.000Z', 'Kept one')], {
      updatedAt: new Date('2025-03-09T17:05:00.000Z').getTime(),
    });
    renderDashboard(db, { now: NOW, client });
    const offlineLine = () =>
      screen
        .queryAllByRole('status')
        .find((el) => el.textContent?.includes('Offline: showing recent activity'));
    await waitFor(() => expect(offlineLine()).toBeTruthy());
    stubApi({ 'GET /api/activities': () => json([activity(1, '2025-03-10T09:00:00.000Z', 'Fresh one')]) });
    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await within(await shownRegion('Recent Activity')).findByText('Fresh one')).toBeTruthy();
    await waitFor(() => expect(offlineLine()).toBeUndefined());
  });

  it('offline with nothing kept, says it will load when back online', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await seed({});
    renderDashboard(db, { now: NOW });
    expect(
      await within(await shownRegion('Recent Activity')).findByText(
        'Recent activity will load when you are back online.',
      ),
    ).toBeTruthy();
  });
});

describe('project widgets', () => {
  const eight = [
    pulledProject(pid(1), 'Alpha', 'active', { progress: 85, dueDate: day('2025-05-01') }),
    pulledProject(pid(2), 'Bravo', 'completed', { progress: 100 }),
    pulledProject(pid(3), 'Charlie', 'active', { progress: 20, dueDate: day('2025-03-12') }),
    pulledProject(pid(4), 'Delta', 'delayed', { progress: 90 }),
    pulledProject(pid(5), 'Echo', 'on-hold', { progress: 60 }),
    pulledProject(pid(6), 'Foxtrot', 'active', { progress: 49, dueDate: day('2025-03-11') }),
    pulledProject(pid(7), 'Golf', 'active', { progress: 80 }),
    pulledProject(pid(8), 'Hotel', 'active', { progress: 50, dueDate: day('2025-04-01') }),
  ];

  it("shows 6 health cards, worst first, and 'View All 8 Projects' going to /projects", async () => {
    stubActivities();
    await seed({ projects: eight });
    renderDashboard(db, { now: NOW });
    const overview = await shownRegion('Multi-Project Overview');
    await waitFor(() => expect(within(overview).getAllByRole('article')).toHaveLength(6));
    expect(
      within(within(overview).getByRole('article', { name: 'Delta' })).getByText('At Risk'),
    ).toBeTruthy();
    expect(
      within(within(overview).getByRole('article', { name: 'Charlie' })).getByText('Behind'),
    ).toBeTruthy();
    expect(
      within(within(overview).getByRole('article', { name: 'Echo' })).getByText('Moderate'),
    ).toBeTruthy();
    // On Track and Complete come last: Golf (On Track after Alpha by name) and Bravo are left out.
    expect(within(overview).queryByRole('article', { name: 'Golf' })).toBeNull();
    expect(within(overview).queryByRole('article', { name: 'Bravo' })).toBeNull();
    // Average progress of the 8: (85+100+20+90+60+49+80+50)/8 = 66.75 -> 67%; critical: Charlie, Delta, Foxtrot.
    expect(within(overview).getByText('67%')).toBeTruthy();
    expect(within(overview).getByText('Critical').nextSibling?.textContent).toBe('3');
    await userEvent.click(within(overview).getByRole('link', { name: 'View All 8 Projects' }));
    expect(screen.getByTestId('location').textContent).toBe('/projects');
  });

  it("has no 'View All n Projects' with 6 projects or fewer", async () => {
    stubActivities();
    await seed({ projects: eight.slice(0, 6) });
    renderDashboard(db, { now: NOW });
    const overview = await shownRegion('Multi-Project Overview');
    await waitFor(() => expect(within(overview).getAllByRole('article')).toHaveLength(6));
    expect(within(overview).queryByRole('link', { name: /View All/ })).toBeNull();
  });

  it('shows budget usage only to roles that may see finance', async () => {
    stubActivities();
    await seed({
      projects: [
        pulledProject(pid(1), 'Alpha', 'active', { budget: 400_000, actualCost: 100_000 }),
        pulledProject(pid(2), 'Bravo', 'active', { budget: 600_000, actualCost: 150_000 }),
      ],
    });
    renderDashboard(db, { now: NOW, user: MANAGER });
    // 250,000 of 1,000,000 cents.
    expect(await within(await shownRegion('Multi-Project Overview')).findByText('25.0%')).toBeTruthy();
    cleanup();
    renderDashboard(db, { now: NOW, user: CREW });
    await waitFor(() =>
      expect(within(region('Multi-Project Overview')).getAllByRole('article')).toHaveLength(2),
    );
    expect(within(region('Multi-Project Overview')).queryByText('Budget used')).toBeNull();
  });

  it('lists 3 active projects, the nearest due first, with View All going to /projects', async () => {
    stubActivities();
    await seed({ projects: eight });
    renderDashboard(db, { now: NOW });
    const widget = await shownRegion('Active Projects');
    await waitFor(() => expect(within(widget).getAllByRole('listitem')).toHaveLength(3));
    expect(
      within(widget)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent),
    ).toEqual(['Foxtrot', 'Charlie', 'Hotel']);
    expect(within(widget).getByText('Due tomorrow')).toBeTruthy();
    expect(within(widget).getByText('Due in 2 days')).toBeTruthy();
    await userEvent.click(within(widget).getByRole('link', { name: 'View All' }));
    expect(screen.getByTestId('location').textContent).toBe('/projects');
  });

  it('offers no View All to a role that cannot open /projects (a subcontractor)', async () => {
    stubActivities();
    await seed({ projects: eight });
    const sub = {
      ...CREW,
      role: 'subcontractor' as const,
      permissions: { ...CREW.permissions, projects: false, subs: true },
    };
    renderDashboard(db, { now: NOW, user: sub });
    const widget = await shownRegion('Active Projects');
    await waitFor(() => expect(within(widget).getAllByRole('listitem')).toHaveLength(3));
    expect(within(widget).queryByRole('link', { name: 'View All' })).toBeNull();
    const overview = region('Multi-Project Overview');
    await waitFor(() => expect(within(overview).getAllByRole('article')).toHaveLength(6));
    expect(within(overview).queryByRole('link', { name: /View All/ })).toBeNull();
  });

  it('says so when there are no projects', async () => {
    stubActivities();
    await seed({});
    renderDashboard(db, { now: NOW });
    await waitFor(() =>
      expect(within(region('Active Projects')).getByText('No active projects.')).toBeTruthy(),
    );
    expect(within(region('Multi-Project Overview')).getByText(/No projects yet/)).toBeTruthy();
  });
});

describe('Task Management tab', () => {
  const dated = (n: number, dueDate: string | null, extra: Parameters<typeof pulledTask>[3] = {}) =>
    pulledTask(tid(n), pid(1), `Task ${n}`, { dueDate, ...extra });

  async function openTasksTab() {
    renderDashboard(db, { now: NOW, user: MANAGER });
    await userEvent.click(screen.getByRole('tab', { name: 'Task Management' }));
  }

  it("shows up to 4 of today's tasks, 5 expired with the rest counted, 3 next priority, and 'Completed Tasks N'", async () => {
    stubActivities();
    await seed({
      projects: [pulledProject(pid(1), 'Harbor Tower', 'active')],
      tasks: [
        // Due today: 6 (one completed).
        ...[1, 2, 3, 4, 5].map((n) => dated(n, day('2025-03-10'))),
        dated(6, day('2025-03-10'), { status: 'completed' }),
        // Expired: 7 open ones, due 1 to 7 March (9 to 3 days ago); a completed one in the past is not.
        ...[7, 8, 9, 10, 11, 12, 13].map((n) => dated(n, day(`2025-03-0${n - 6}`))),
        dated(14, day('2025-02-01'), { status: 'completed' }),
        // Later: priorities decide before dates.
        dated(15, day('2025-03-20'), { priority: 'critical' }),
        dated(16, day('2025-03-12'), { priority: 'low' }),
        dated(17, day('2025-03-11'), { priority: 'high' }),
        dated(18, day('2025-03-15'), { priority: 'high' }),
      ],
    });
    await openTasksTab();

    const today = await shownRegion("Today's Tasks");
    await waitFor(() => expect(within(today).getAllByRole('listitem')).toHaveLength(4));
    const expired = await shownRegion('Expired Tasks');
    expect(within(expired).getAllByRole('listitem')).toHaveLength(5);
    expect(within(expired).getByText('2 more expired')).toBeTruthy();
    // The longest overdue first.
    expect(within(expired).getAllByRole('listitem')[0]?.textContent).toContain('Task 7');
    expect(within(expired).getAllByRole('listitem')[0]?.textContent).toContain('9 days overdue');
    const next = await shownRegion('Next Priority Tasks');
    expect(
      within(next)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent),
    ).toEqual(['Task 15', 'Task 17', 'Task 18']);
    expect(within(group('Completed Tasks')).getByText('2')).toBeTruthy();
    expect(within(group('Expired Tasks')).getByText('7')).toBeTruthy();
    expect(within(today).getByRole('link', { name: 'View All' }).getAttribute('href')).toBe(
      '/tasks?due=today',
    );
  });

  it('ticks a task of today off on the device (and back), the counts following', async () => {
    stubActivities();
    await seed({
      projects: [pulledProject(pid(1), 'Harbor Tower', 'active')],
      tasks: [dated(1, day('2025-03-10')), dated(2, day('2025-03-10'))],
    });
    await openTasksTab();
    const box = await screen.findByRole('checkbox', { name: 'Completed: Task 1' });
    expect(box.getAttribute('aria-checked')).toBe('false');
    await userEvent.click(box);
    await waitFor(async () => expect((await db.tasks.get(tid(1)))?.status).toBe('completed'));
    expect(await db.outbox.count()).toBe(1);
    await waitFor(() => expect(within(group('Completed Tasks')).getByText('1')).toBeTruthy());
    expect(within(group('Pending Tasks')).getByText('1')).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Completed: Task 1' }));
    await waitFor(async () => expect((await db.tasks.get(tid(1)))?.status).toBe('pending'));
  });

  it('says so when nothing is due, expired or coming', async () => {
    stubActivities();
    await seed({});
    await openTasksTab();
    expect(await screen.findByText('No tasks due today.')).toBeTruthy();
    expect(screen.getByText('No expired tasks. Everything is on schedule.')).toBeTruthy();
    expect(screen.getByText('No upcoming tasks.')).toBeTruthy();
  });
});

describe('tabs', () => {
  it('Project Overview is the default; crew has no Financial Health tab, a manager has it', async () => {
    stubActivities();
    await seed({});
    renderDashboard(db, { now: NOW, user: CREW });
    expect(screen.getByRole('tab', { name: 'Project Overview' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Project Overview',
      'Task Management',
      'Communications',
    ]);
    cleanup();
    renderDashboard(db, { now: NOW, user: CREW, path: '/dashboard?tab=finance' });
    // A link to the finance tab opens the overview for crew.
    expect(screen.getByRole('tab', { name: 'Project Overview' }).getAttribute('aria-selected')).toBe('true');
    cleanup();
    renderDashboard(db, { now: NOW, user: MANAGER });
    expect(screen.getByRole('tab', { name: 'Financial Health' })).toBeTruthy();
  });

  it('are reachable with the keyboard and load the Communications and Financial Health tabs when opened', async () => {
    stubApi({ 'GET /api/activities': () => json([]), 'GET /api/auth/user': () => json(MANAGER) });
    await seed({});
    // The two tabs' screens read the session user themselves.
    renderWithApp(
      db,
      <SessionProvider>
        <DashboardScreen db={db} user={MANAGER} write={writeTo(db)} now={NOW} />
      </SessionProvider>,
    );
    const user = userEvent.setup();
    screen.getByRole('tab', { name: 'Project Overview' }).focus();
    await user.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    const comms = screen.getByRole('tab', { name: 'Communications' });
    await waitFor(() => expect(comms.getAttribute('aria-selected')).toBe('true'));
    expect(screen.getByTestId('location').textContent).toBe('/dashboard?tab=communications');
    await waitFor(() => expect(screen.queryByText('Loading communications...')).toBeNull());
    const panel = screen.getByRole('tabpanel', { name: 'Communications' });
    await waitFor(() => expect(within(panel).getByRole('tab', { name: 'Change Orders' })).toBeTruthy());
    await user.keyboard('{ArrowRight}{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Financial Health' }).getAttribute('aria-selected')).toBe(
        'true',
      ),
    );
    await waitFor(() => expect(screen.queryByText('Loading financial health...')).toBeNull());
  });
});
