import type { ReactNode } from 'react';
import { useCurrentUser } from '../session.tsx';
import { AppFrame } from './frame.tsx';
import { TopBar } from './top-bar.tsx';

/** Sidebar (desktop), top bar, and the screen (spec 02 section 2). */
export function AppShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  return (
    <AppFrame user={user} topBar={<TopBar />}>
      {children}
    </AppFrame>
  );
}
