import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isCalendarMonth, monthOf } from '#shared/rules/calendar-month.ts';
import { zoneOrDefault } from '#shared/rules/dates.ts';
import type { ScheduleChangeRow, SyncDb, TaskRow } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { APPROVE_PERMISSION } from '#web/features/schedule-changes/decision.ts';
import {
  ScheduleChangeDialog,
  type ScheduleChangeDialogProps,
} from '#web/features/schedule-changes/schedule-change-dialog.tsx';
import { useAppNow } from '#web/lib/app-clock.ts';
import { useProjects } from '../hooks/use-schedule-data.ts';
import { CalendarTab } from './calendar-tab.tsx';
import { GanttTab } from './gantt-tab.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { ScheduleSkeleton } from './schedule-skeleton.tsx';
import { TimelineTab } from './timeline-tab.tsx';

export const SCHEDULE_TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'timeline', label: 'Timeline' },
  { value: 'gantt', label: 'Gantt Chart' },
  { value: 'calendar', label: 'Calendar' },
] as const;
type TabValue = (typeof SCHEDULE_TABS)[number]['value'];
const isTab = (v: string | null): v is TabValue => SCHEDULE_TABS.some((t) => t.value === v);

export interface ScheduleScreenProps {
  db: SyncDb;
  userId: string;
  grants: readonly string[];
  timeZone: string | undefined;
  /** Injected in tests; the device clock otherwise. */
  now?: Date;
}

type DialogState = Pick<ScheduleChangeDialogProps, 'mode' | 'taskId' | 'originalDate' | 'change'>;

/**
 * /schedule (spec 02 section 2): Overview, Timeline, Gantt Chart and Calendar over the device mirror, so it
 * works offline; the tab and the calendar's month live in the address so a view can be bookmarked.
 */
export function ScheduleScreen({ db, userId, grants, timeZone: zone, now: fixedNow }: ScheduleScreenProps) {
  const timeZone = zoneOrDefault(zone);
  const now = useAppNow(fixedNow);
  const projects = useProjects(db);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: TabValue = isTab(tabParam) ? tabParam : 'overview';
  const monthParam = params.get('month');
  const month = isCalendarMonth(monthParam) ? monthParam : monthOf(now, timeZone);
  const [dialog, setDialog] = useState<DialogState | null>(null);

  const setParam = useCallback(
    (key: string, value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === null) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const updateTask = useCallback(
    (task: TaskRow) => setDialog({ mode: 'update', taskId: task.id, originalDate: task.dueDate ?? null }),
    [],
  );
  const isApprover = grants.includes(APPROVE_PERMISSION);
  const editable = useCallback(
    (change: ScheduleChangeRow) =>
      (change.status ?? 'pending') === 'pending' && (isApprover || change.userId === userId),
    [isApprover, userId],
  );

  if (projects === undefined) return <ScheduleSkeleton />;
  const common = { db, now, timeZone, projects, onUpdateTask: updateTask };
  return (
    <div className="flex flex-col gap-4 p-4 sm:p-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Schedule Management</h1>
          <p className="text-sm text-slate-600">Plan due dates and handle schedule change requests</p>
        </div>
        <Button onClick={() => setDialog({ mode: 'update', taskId: null, originalDate: null })}>
          Update Task Schedule
        </Button>
      </header>
      <Tabs value={tab} onValueChange={(v) => setParam('tab', v === 'overview' ? null : v)}>
        <TabsList className="flex w-full flex-wrap sm:inline-flex sm:w-auto" aria-label="Schedule views">
          {SCHEDULE_TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="flex-1 sm:flex-none">
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview" className="mt-4">
          <OverviewTab
            {...common}
            editable={editable}
            onEditChange={(change) => setDialog({ mode: 'edit', change })}
          />
        </TabsContent>
        <TabsContent value="timeline" className="mt-4">
          <TimelineTab {...common} />
        </TabsContent>
        <TabsContent value="gantt" className="mt-4">
          <GanttTab {...common} />
        </TabsContent>
        <TabsContent value="calendar" className="mt-4">
          <CalendarTab {...common} month={month} onMonthChange={(m) => setParam('month', m)} />
        </TabsContent>
      </Tabs>
      {dialog && (
        <ScheduleChangeDialog
          open
          onOpenChange={(open) => {
            if (!open) setDialog(null);
          }}
          {...dialog}
        />
      )}
    </div>
  );
}
