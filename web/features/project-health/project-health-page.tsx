import { useCurrentUser } from '#web/app/session.tsx';
import { ProjectHealthScreen } from './project-health-screen.tsx';

/**
 * /project-health (spec 02 section 2). The route guard shows 'Access Denied' to a user without the
 * projectHealth flag, and the server refuses them every health call.
 */
export default function ProjectHealthPage() {
  return <ProjectHealthScreen user={useCurrentUser()} />;
}
