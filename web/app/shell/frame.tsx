import type { ReactNode } from 'react';
import { Spinner } from '#web/components/spinner.tsx';
import { displayFirstName, initialsOf } from '#web/lib/session-user.ts';
import { CurrentScreenFrame, type FrameUser } from './screen-frames.tsx';
import { Sidebar } from './sidebar.tsx';

export const PRODUCT_NAME = 'SiteCommand';

/**
 * The app's frame (spec 02 section 2): skip link, desktop sidebar, top bar and the screen. The shell fills
 * it with the live top bar and the screen; while the signed-in code (device database, sync engine) is
 * still loading on a slow phone, `SignedInFrame` shows the same frame with what needs no data, rather
 * than a blank page with a spinner (budget B10).
 */
export function AppFrame({
  user,
  topBar,
  children,
}: {
  user: FrameUser;
  topBar: ReactNode;
  children: ReactNode;
}) {
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
        {topBar}
        {/* Room at the end for the toast band (styles.css): the last control can scroll above a toast. */}
        <main
          id="main-content"
          tabIndex={-1}
          className="min-w-0 flex-1 pb-[var(--toast-band)] focus:outline-none"
        >
          {children}
        </main>
      </div>
    </div>
  );
}

/**
 * The top bar's layout: the menu button's place, the company name (fallback: the product name), the
 * controls, the user, and what follows them (Sign Out).
 */
export function TopBarFrame({
  user,
  menu,
  controls,
  end,
}: {
  user: FrameUser;
  menu: ReactNode;
  controls?: ReactNode;
  end?: ReactNode;
}) {
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-0.5 border-b border-slate-200 bg-white px-1 min-[360px]:gap-1 min-[360px]:px-2 sm:gap-3 sm:px-5">
      {menu}
      {/* The name may take two lines rather than be cut ("Summit Buil..."): on a phone, and on a desktop with
          large text, where the top bar's controls take most of the width (WCAG 1.4.4). */}
      <p
        className="line-clamp-2 min-w-0 flex-1 text-sm leading-tight font-semibold wrap-break-word text-slate-900 sm:text-base"
        data-testid="company-name"
      >
        {user.companyName || PRODUCT_NAME}
      </p>
      {controls}
      {/* Spec 02 section 2: initials and first name; stacked on a phone so both fit. */}
      <div className="flex max-w-20 min-w-0 flex-col items-center gap-0.5 sm:max-w-none sm:shrink-0 sm:flex-row sm:gap-2">
        <span
          className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-teal-700 text-xs font-semibold text-white"
          aria-hidden="true"
        >
          {initialsOf(user)}
        </span>
        <span
          className="max-w-full truncate text-xs font-medium text-slate-800 sm:text-sm"
          data-testid="user-first-name"
        >
          {displayFirstName(user)}
        </span>
      </div>
      {end}
    </header>
  );
}

/** What a screen shows until its code has loaded: a spinner, in the screen's frame where it has one. */
export function ScreenPlaceholder({ user }: { user: FrameUser }) {
  return (
    <CurrentScreenFrame user={user}>
      <Spinner label="Loading..." className="p-10" />
    </CurrentScreenFrame>
  );
}

/** The frame while the signed-in code loads: no controls yet, the menu button's place kept. */
export function SignedInFrame({ user }: { user: FrameUser }) {
  return (
    <AppFrame
      user={user}
      topBar={
        <TopBarFrame
          user={user}
          menu={<span className="h-11 w-11 shrink-0 md:hidden" aria-hidden="true" />}
        />
      }
    >
      <ScreenPlaceholder user={user} />
    </AppFrame>
  );
}
