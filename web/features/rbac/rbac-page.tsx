import { useCurrentUser } from '#web/app/session.tsx';
import { RbacScreen } from './rbac-screen.tsx';

/**
 * /rbac and /rbac-admin (spec 02 section 2). The route guard already shows 'Access Denied' to a user
 * without the rbacAdmin flag, and the server refuses them every admin call.
 */
export default function RbacPage() {
  const user = useCurrentUser();
  return <RbacScreen user={user} />;
}
