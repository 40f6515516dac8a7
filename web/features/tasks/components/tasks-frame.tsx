import type { ReactNode } from 'react';
import { ScreenFrame } from '#web/components/screen-frame.tsx';

const HEADING = {
  id: 'tasks-title',
  title: 'Task Management',
  description: 'Every task you can see, across projects',
};

/** Task Management's section and heading: the screen fills it, the app's frame shows it while it loads. */
export function TasksFrame({ actions, children }: { actions?: ReactNode; children: ReactNode }) {
  return (
    <ScreenFrame heading={HEADING} actions={actions} className="gap-4">
      {children}
    </ScreenFrame>
  );
}
