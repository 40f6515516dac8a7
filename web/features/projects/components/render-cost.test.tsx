// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import Dexie from 'dexie';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { fakeSyncEngine } from '#web/app/test-utils.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { SyncIndicator } from '#web/features/sync-status/components/sync-indicator.tsx';
import type * as ProgressModule from '#web/components/ui/progress.tsx';
import { ProjectsScreen } from './projects-screen.tsx';
import {
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  PROJECT_C,
  pulledProject,
  pulledTask,
  renderScreen,
  testDb,
  writeTo,
} from './test-support.tsx';

// A render counter: every drawing of a card draws its progress bar once, named after the project.
const drawn = vi.hoisted(() => new Map<string, number>());
vi.mock('#web/components/ui/progress.tsx', async (importOriginal) => {
  const real = await importOriginal<typeof ProgressModule>();
  return {
    ...real,
    Progress: (props: Parameters<typeof real.Progress>[0]) => {
      const name = props['aria-label'] ?? '';
      drawn.set(name, (drawn.get(name) ?? 0) + 1);
      return real.Progress(props);
    },
  };
});

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(() => {
  cleanup();
  resetToasts();
  db?.close();
});

async function mountWithStatusBar() {
  db = testDb();
  await db.projects.bulkPut([
    pulledProject(PROJECT_A, 'Harbor Tower', 'active', { progress: 40 }),
    pulledProject(PROJECT_B, 'Bridge Repair', 'active', { progress: 10 }),
    pulledProject(PROJECT_C, 'Depot', 'completed', { progress: 100 }),
  ]);
  const { engine, set } = fakeSyncEngine();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
        <ProjectsScreen db={db} write={writeTo(db)} />
      </StaticLocalData>
    </QueryClientProvider>,
  );
  // Settled: every card has its task count, and the people lookup has answered.
  await waitFor(() => expect(screen.getAllByRole('button', { name: 'Tasks (0)' })).toHaveLength(3));
  return set;
}

const draws = (project: string) => drawn.get(`Progress of ${project}`) ?? 0;

describe('Projects screen: what a save redraws (budget B7)', () => {
  it('a save from the Edit Project dialog redraws the edited card only, never the others', async () => {
    await mountWithStatusBar();
    drawn.clear();
    const user = userEvent.setup();
    await user.click(
      within(screen.getByRole('article', { name: 'Harbor Tower' })).getByRole('button', {
        name: 'Edit project',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Project' });
    await user.clear(within(dialog).getByLabelText('Progress (%)'));
    await user.type(within(dialog).getByLabelText('Progress (%)'), '55');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() =>
      expect(
        screen.getByRole('progressbar', { name: 'Progress of Harbor Tower' }).getAttribute('aria-valuenow'),
      ).toBe('55'),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The card shows the edit from the write itself, before the write's transaction has committed.
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    // Opening the dialog, typing, saving and closing it left the other cards alone.
    expect(draws('Bridge Repair')).toBe(0);
    expect(draws('Depot')).toBe(0);
    expect(draws('Harbor Tower')).toBeGreaterThan(0);
  });

  it('the status bar changing (a push, a count of waiting changes) redraws no card', async () => {
    const setStatus = await mountWithStatusBar();
    drawn.clear();
    setStatus({ pushing: true, pending: 3 });
    setStatus({ pushing: false, pending: 0, lastSyncedAt: Date.now() });
    await screen.findByRole('button', { name: /^Sync status/ });
    expect([...drawn.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });
});

/**
 * Listeners of Dexie's one global change event: every live query (a card's count, the screen's lists, the
 * status bar's) holds one while it is open, and each unsubscribe rebuilds that list, so closing a screen
 * of N listeners costs N squared. Counted from Dexie's own subscribe and unsubscribe calls.
 */
function countDeviceListeners() {
  const event = Dexie.on.storagemutated;
  // Only listeners added from here on: an earlier test's query may still let go of its own.
  const open = new Set<unknown>();
  const subscribe = event.subscribe.bind(event);
  const unsubscribe = event.unsubscribe.bind(event);
  vi.spyOn(event, 'subscribe').mockImplementation((cb) => {
    open.add(cb);
    subscribe(cb);
  });
  vi.spyOn(event, 'unsubscribe').mockImplementation((cb) => {
    open.delete(cb);
    unsubscribe(cb);
  });
  // The count once it has held still for a few turns of the event loop: a live query starts listening
  // after its first read has answered, and the screen's reads answer one after another.
  return async () => {
    let last = -1;
    let still = 0;
    while (still < 25) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      still = open.size === last ? still + 1 : 0;
      last = open.size;
    }
    return open.size;
  };
}

const projectId = (i: number) => `0195a0a0-0000-7000-8000-${String(i).padStart(12, '0')}`;
const taskId = (i: number) => `0195a0a0-0000-7000-9000-${String(i).padStart(12, '0')}`;

/** The screen over `projects` projects, the first one with two tasks; settled once every card has its count. */
async function openScreen(projects: number) {
  db = testDb();
  await db.projects.bulkPut(
    Array.from({ length: projects }, (_, i) => pulledProject(projectId(i), `Project ${i + 1}`, 'active')),
  );
  await db.tasks.bulkPut([
    pulledTask(taskId(1), projectId(0), 'Pour'),
    pulledTask(taskId(2), projectId(0), 'Cure'),
  ]);
  const view = renderScreen(db);
  await waitFor(() => {
    expect(screen.getAllByRole('button', { name: 'Tasks (2)' })).toHaveLength(1);
    expect(screen.queryAllByRole('button', { name: 'Tasks (0)' })).toHaveLength(projects - 1);
  });
  return view;
}

describe('Projects screen: task counts (budgets B7 and B13)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('every card counts its own tasks, and a task added or deleted redraws only its own card', async () => {
    await openScreen(3);
    drawn.clear();
    await writeTo(db)('tasks', 'create', taskId(3), { projectId: projectId(1), title: 'Survey' });
    await screen.findByText('1 task');
    expect(screen.getAllByRole('button', { name: 'Tasks (2)' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Tasks (1)' })).toHaveLength(1);
    expect(draws('Project 1')).toBe(0);
    expect(draws('Project 3')).toBe(0);
    expect(draws('Project 2')).toBe(1);

    await writeTo(db)('tasks', 'delete', taskId(1), {});
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Tasks (1)' })).toHaveLength(2));
    expect(draws('Project 3')).toBe(0);
  });

  it('40 projects hold no more device listeners than one, and closing the screen leaves none', async () => {
    const listeners = countDeviceListeners();
    const one = await openScreen(1);
    const forOne = await listeners();
    one.unmount();
    db.close();
    expect(await listeners()).toBe(0);

    const forty = await openScreen(40);
    // Its reads answer later than one card's, so wait for them; with a query per card it stays above 40.
    await waitFor(async () => expect(await listeners()).toBe(forOne), { timeout: 5_000 });
    forty.unmount();
    expect(await listeners()).toBe(0);
  });
});
