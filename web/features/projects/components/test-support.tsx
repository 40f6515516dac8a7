import 'fake-indexeddb/auto';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { openSyncDb, type ProjectRow, type SyncDb, type TaskRow } from '#sync/db.ts';
import { mutate } from '#sync/mutate.ts';
import { StaticLocalData, type LocalWrite } from '#web/app/local-data.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { ProjectsScreen, type ProjectsScreenProps } from './projects-screen.tsx';

export { polyfillDom } from '#web/app/test-utils.tsx';

let counter = 0;

/** A fresh device database (fake-indexeddb) for one test. */
export function testDb(): SyncDb {
  counter += 1;
  return openSyncDb({ companyId: `company-${counter}-${Date.now()}`, userId: 'user-1' });
}

/** The real write path of the app: `mutate` from the sync module. */
export const writeTo =
  (db: SyncDb): LocalWrite =>
  async (table, op, rowId, data) => {
    await mutate(db, table, op, rowId, data);
  };

export const PROJECT_A = '0195a0a0-0000-7000-8000-00000000000a';
export const PROJECT_B = '0195a0a0-0000-7000-8000-00000000000b';
export const PROJECT_C = '0195a0a0-0000-7000-8000-00000000000c';
export const USER_1 = '0195a0a0-0000-7000-8000-0000000000a1';
export const USER_GONE = '0195a0a0-0000-7000-8000-0000000000ff';

/** Rows as a pull leaves them (server versions, all fields). */
export function pulledProject(
  id: string,
  name: string,
  status: string,
  extra: Partial<ProjectRow> = {},
): ProjectRow {
  return { id, version: 1, name, status, location: `${name} site`, progress: 40, dueDate: null, ...extra };
}

export function pulledTask(
  id: string,
  projectId: string,
  title: string,
  extra: Partial<TaskRow> = {},
): TaskRow {
  return {
    id,
    version: 2,
    projectId,
    title,
    category: 'project',
    status: 'pending',
    priority: 'medium',
    assigneeId: null,
    dueDate: null,
    ...extra,
  };
}

/** The screen on `db` as the app mounts it (query client and device database provided, toasts shown; no sync engine). */
export function renderScreen(db: SyncDb, props: Partial<ProjectsScreenProps> = {}) {
  // Office reads (a record's History) go through TanStack Query; no server here, so nothing is retried.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <StaticLocalData db={db}>
        <ProjectsScreen db={db} write={writeTo(db)} companyName="Summit Builders" {...props} />
        <Toaster />
      </StaticLocalData>
    </QueryClientProvider>,
  );
}
