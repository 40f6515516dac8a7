import { useMemo, type ReactNode } from 'react';
import { ScreenFrame } from '#web/components/screen-frame.tsx';

/** The Projects screen's section and heading (the company's name under it): the screen fills it, the app's
 * frame shows it while it loads. */
export function ProjectsFrame({
  companyName,
  actions,
  children,
}: {
  companyName?: string | null;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const heading = useMemo(
    () => ({ id: 'projects-title', title: 'Projects', description: companyName || undefined }),
    [companyName],
  );
  return (
    <ScreenFrame heading={heading} actions={actions} className="gap-6">
      {children}
    </ScreenFrame>
  );
}
