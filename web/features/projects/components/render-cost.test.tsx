// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
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
    expect(await db.outbox.count()).toBe(1);
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
