import type { ReactNode } from 'react';
import { displayFirstName, type SessionUser } from '#web/lib/session-user.ts';

/**
 * The Dashboard's section with its heading and welcome line (spec 01 section 2). The screen fills it; the
 * app's frame shows it with a spinner while the signed-in code loads, so the greeting is there from the
 * first paint and stays in place when the screen arrives.
 */
export function DashboardFrame({
  user,
  children,
}: {
  user: Pick<SessionUser, 'firstName' | 'name' | 'email' | 'companyName'>;
  children: ReactNode;
}) {
  return (
    <section
      className="mx-auto grid w-full max-w-[1440px] grid-cols-1 gap-4 p-4 md:p-6"
      aria-labelledby="dashboard-heading"
    >
      <header className="grid min-w-0 grid-cols-1 gap-1">
        <h1 id="dashboard-heading" className="text-2xl font-semibold text-slate-900">
          Dashboard
        </h1>
        <p className="text-sm text-slate-600">
          Welcome back, {displayFirstName(user)}
          {user.companyName ? ` · ${user.companyName}` : ''}
        </p>
      </header>
      {children}
    </section>
  );
}
