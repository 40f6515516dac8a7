import type { ReactNode } from 'react';
import { useCurrentUser } from '../session.tsx';
import { Sidebar } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';

/** Sidebar (desktop), top bar, and the screen (spec 02 section 2). */
export function AppShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  return (
    <div className="flex min-h-screen bg-slate-50">
      <a
        href="#main-content"
        className="sr-only z-50 rounded bg-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:inline-flex focus:min-h-11 focus:items-center focus:px-3"
      >
        Skip to content
      </a>
      <Sidebar flags={user.permissions} />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar />
        <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
