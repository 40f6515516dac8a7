import 'fake-indexeddb/auto';
import type { ReactNode } from 'react';
import { openSyncDb, type ProjectRow, type SyncDb, type TaskRow } from '#sync/db.ts';
import { mutate } from '#sync/mutate.ts';
import { StaticLocalData, type LocalWrite } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { json, renderInApp, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import type { SessionUser } from '#web/lib/session-user.ts';

export { polyfillDom } from '#web/app/test-utils.tsx';

/** The real write path of the app: `mutate` from the sync module. */
export const writeTo =
  (db: SyncDb): LocalWrite =>
  async (table, op, rowId, data) => {
    await mutate(db, table, op, rowId, data);
  };

let counter = 0;

/** A fresh device database (fake-indexeddb) for one test, owned by the test user. */
export function testDb(): SyncDb {
  counter += 1;
  return openSyncDb({ companyId: `company-${counter}-${Date.now()}`, userId: TEST_USER.id });
}

export const ME = TEST_USER.id;
export const OTHER_USER = '0195a0a0-0000-7000-8000-0000000000a2';
export const PROJECT_A = '0195a0a0-0000-7000-8000-00000000000a';
export const PROJECT_B = '0195a0a0-0000-7000-8000-00000000000b';

export const taskId = (n: number) => `0195a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A project as a pull leaves it. */
export function pulledProject(id: string, name: string): ProjectRow {
  return { id, version: 1, name, status: 'active', location: `${name} site`, progress: 40, dueDate: null };
}

/** A task as a pull leaves it (server version, all fields). */
export function pulledTask(id: string, title: string, extra: Partial<TaskRow> = {}): TaskRow {
  return {
    id,
    version: 2,
    projectId: PROJECT_A,
    title,
    description: null,
    category: 'project',
    status: 'pending',
    priority: 'medium',
    assigneeId: ME,
    dueDate: null,
    completedAt: null,
    ...extra,
  };
}

/**
 * Renders `ui` as the signed-in app does: session (the test user, in `timeZone`), the device database
 * (no sync engine) and toasts. Resolves once the session has loaded.
 */
export function renderOnDevice(db: SyncDb, ui: ReactNode, user: Partial<SessionUser> = {}) {
  stubApi({ 'GET /api/auth/user': () => json({ ...TEST_USER, ...user }) });
  return renderInApp(
    <StaticLocalData db={db}>
      <SignedIn>{ui}</SignedIn>
    </StaticLocalData>,
  );
}

/** Mounts its children once the session has a user, as the signed-in part of the app does. */
function SignedIn({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return user ? <>{children}</> : null;
}
