import { useCallback } from 'react';
import { useLocalWrite, useOptionalSyncEngine, useSyncDb, useSyncStatus } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { apiJson, serverMessage } from '#web/lib/api.ts';
import type { AssignmentInput } from './components/assign-project-dialog.tsx';
import { SubsScreen } from './components/subs-screen.tsx';

/** The words of a refused or failed assignment: the server's message, not its JSON. */
const assignFailure = (err: unknown) =>
  serverMessage(err, 'The server could not be reached. Try again when you are online.');

/** /subs: the Subcontractors board on the signed-in user's device database. */
export default function SubsPage() {
  const { user } = useSession();
  const db = useSyncDb();
  const write = useLocalWrite();
  const engine = useOptionalSyncEngine();
  const { online } = useSyncStatus();
  const grants = user?.grants;
  const can = useCallback((permission: string) => !grants || grants.includes(permission), [grants]);
  const assign = useCallback(
    async (input: AssignmentInput) => {
      try {
        await apiJson('POST', '/api/subcontractor-assignments', input);
      } catch (err) {
        throw new Error(assignFailure(err));
      }
      // The device's assignments are a read-only mirror: pull now so the board shows the new one at once.
      void engine?.syncNow().catch(() => undefined);
    },
    [engine],
  );
  const unassign = useCallback(
    async (assignmentId: string) => {
      try {
        await apiJson('DELETE', `/api/subcontractor-assignments/${encodeURIComponent(assignmentId)}`);
      } catch (err) {
        throw new Error(assignFailure(err));
      }
      void engine?.syncNow().catch(() => undefined);
    },
    [engine],
  );
  return (
    <SubsScreen
      db={db}
      write={write}
      can={can}
      timeZone={user?.companyTimeZone}
      online={online}
      assign={assign}
      unassign={unassign}
    />
  );
}
