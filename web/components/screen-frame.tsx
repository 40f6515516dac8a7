import { memo, type ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

export interface ScreenHeadingProps {
  /** The heading's id: the section is labelled by it. */
  id: string;
  title: string;
  description?: ReactNode;
}

/**
 * A screen's section with its heading, description and actions (New Task, New Project). The screen renders
 * its content inside it; the app's frame renders the same section with a spinner while the screen's code
 * loads (`ScreenPlaceholder`) and while the first download runs, so the heading is in the first paint and
 * does not move when the screen arrives (ADR 026: on /tasks it is a first visit's largest paint, budget B10).
 */
export function ScreenFrame({
  heading,
  actions,
  className,
  children,
}: {
  heading: ScreenHeadingProps;
  actions?: ReactNode;
  /** The gap between the section's blocks. */
  className: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={heading.id}
      className={cn('mx-auto grid w-full max-w-[1440px] p-4 md:p-6', className)}
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <ScreenHeading {...heading} />
        {actions}
      </header>
      {children}
    </section>
  );
}

// Memoised: a screen renders on every search keystroke, and its heading never changes with them.
const ScreenHeading = memo(function ScreenHeading({ id, title, description }: ScreenHeadingProps) {
  return (
    <div>
      <h1 id={id} className="text-2xl font-bold text-slate-900">
        {title}
      </h1>
      {description && <p className="text-slate-600">{description}</p>}
    </div>
  );
});
