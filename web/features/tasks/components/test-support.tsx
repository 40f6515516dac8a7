import 'fake-indexeddb/auto';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { SyncDb } from '#sync/db.ts';
import { mutateAll } from '#sync/mutate.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { writeTo } from '#web/features/projects/components/test-support.tsx';
import { TasksScreen, type TasksScreenProps } from './tasks-screen.tsx';

export {
  polyfillDom,
  pulledProject,
  pulledTask,
  testDb,
  PROJECT_A,
  PROJECT_B,
  PROJECT_C,
  USER_1,
} from '#web/features/projects/components/test-support.tsx';

function QueryProbe() {
  const location = useLocation();
  return <output data-testid="query">{location.search}</output>;
}

/** The screen on `db` at `path` (its query carries the filters), with the app's real write paths. */
export function renderTasks(
  db: SyncDb,
  { path = '/tasks', ...props }: Partial<TasksScreenProps> & { path?: string } = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <StaticLocalData db={db}>
          <TasksScreen
            db={db}
            write={writeTo(db)}
            writeAll={async (writes) => {
              await mutateAll(db, writes);
            }}
            userId={ME}
            {...props}
          />
          <QueryProbe />
          <Toaster />
        </StaticLocalData>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The signed-in user of these tests ('Assigned to Me'). */
export const ME = '0195a0a0-0000-7000-8000-0000000000a1';
export const OTHER = '0195a0a0-0000-7000-8000-0000000000a2';
