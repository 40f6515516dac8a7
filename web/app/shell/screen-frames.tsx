import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { DashboardFrame } from '#web/features/dashboard/components/dashboard-frame.tsx';
import { ProjectsFrame } from '#web/features/projects/components/projects-frame.tsx';
import { TasksFrame } from '#web/features/tasks/components/tasks-frame.tsx';
import type { SessionUser } from '#web/lib/session-user.ts';
import { APP_SCREENS, canOpenScreen, signedInScreenAt, type AppScreenPath } from '../app-paths.ts';

export type FrameUser = Pick<
  SessionUser,
  'firstName' | 'lastName' | 'name' | 'email' | 'companyName' | 'permissions' | 'role'
>;

/**
 * The screens whose section and heading need nothing beyond the session. Until such a screen can show its
 * content (its code is loading, or the device's first download is running) the app shows that section
 * around the wait, so the heading is in the first paint (the largest one of a first visit, budget B10) and
 * stays in place when the screen arrives (ADR 022, ADR 026).
 */
const SCREEN_FRAMES: Partial<Record<AppScreenPath, (user: FrameUser, wait: ReactNode) => ReactNode>> = {
  '/dashboard': (user, wait) => <DashboardFrame user={user}>{wait}</DashboardFrame>,
  '/projects': (user, wait) => <ProjectsFrame companyName={user.companyName}>{wait}</ProjectsFrame>,
  '/tasks': (_user, wait) => <TasksFrame>{wait}</TasksFrame>,
};

/**
 * `children` (a spinner, the download's progress) in the frame of the screen at the current address, when
 * it has one and the user may open it; a screen the role lacks shows no heading before Access Denied.
 */
export function CurrentScreenFrame({ user, children }: { user: FrameUser; children: ReactNode }) {
  const path = signedInScreenAt(useLocation().pathname);
  const frame = path && SCREEN_FRAMES[path];
  const flag = APP_SCREENS.find((s) => s.path === path)?.flag;
  if (!frame || !flag || !canOpenScreen(user, flag)) return <>{children}</>;
  return frame(user, children);
}
