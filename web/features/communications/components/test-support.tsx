import 'fake-indexeddb/auto';
import type { ReactNode } from 'react';
import { openSyncDb, type ChangeOrderRow, type CommunicationRow, type SyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { json, renderInApp, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import type { SessionUser } from '#web/lib/session-user.ts';

export { polyfillDom } from '#web/app/test-utils.tsx';

let counter = 0;

/** A fresh device database (fake-indexeddb) for one test, owned by the test user. */
export function testDb(): SyncDb {
  counter += 1;
  return openSyncDb({ companyId: `company-c${counter}-${Date.now()}`, userId: TEST_USER.id });
}

export const ME = TEST_USER.id;
export const MANAGER = '0195a0a0-0000-7000-8000-0000000000b2';
export const PROJECT_A = '0195a0a0-0000-7000-8000-00000000000a';
export const PROJECT_B = '0195a0a0-0000-7000-8000-00000000000b';
export const rowId = (n: number) => `0195a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A communication as a pull leaves it. */
export function pulledCommunication(n: number, extra: Partial<CommunicationRow> = {}): CommunicationRow {
  return {
    id: rowId(n),
    version: 3,
    projectId: PROJECT_A,
    subject: `Subject ${n}`,
    message: `Message ${n}`,
    type: 'message',
    priority: 'normal',
    status: 'open',
    fromUserId: MANAGER,
    fromName: 'Dana Office',
    fromEmail: null,
    createdAt: `2026-03-${String(10 + (n % 10)).padStart(2, '0')}T10:00:00.000Z`,
    ...extra,
  };
}

/** A change order as a pull leaves it. */
export function pulledChangeOrder(n: number, extra: Partial<ChangeOrderRow> = {}): ChangeOrderRow {
  return {
    id: rowId(n),
    version: 4,
    projectId: PROJECT_A,
    title: `Change ${n}`,
    description: `Why ${n}`,
    costImpact: 123456,
    timeImpact: 3,
    status: 'pending',
    requestedBy: ME,
    approvedBy: null,
    reason: null,
    createdAt: `2026-03-${String(10 + (n % 10)).padStart(2, '0')}T12:00:00.000Z`,
    ...extra,
  };
}

/** Renders `ui` as the signed-in app does (the test user, or `user`), on the device database. */
export function renderOnDevice(db: SyncDb, ui: ReactNode, user: Partial<SessionUser> = {}) {
  stubApi({ 'GET /api/auth/user': () => json({ ...TEST_USER, ...user }) });
  return renderInApp(
    <StaticLocalData db={db}>
      <SignedIn>{ui}</SignedIn>
    </StaticLocalData>,
  );
}

function SignedIn({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return user ? <>{children}</> : null;
}
