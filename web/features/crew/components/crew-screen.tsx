import { useId, useState, type ReactNode } from 'react';
import { CalendarClock, CalendarDays, Check, CheckCircle2, ClipboardList } from 'lucide-react';
import { dueTimeText } from '#shared/rules/crew-day.ts';
import { DEFAULT_TIME_ZONE } from '#shared/rules/dates.ts';
import { dueDateText } from '#shared/rules/due-date-text.ts';
import type { ScheduleChangeRow, SyncDb, TaskRow } from '#sync/db.ts';
import type { LocalWrite } from '#web/app/local-data.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Badge, type BadgeVariant } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { cn } from '#web/lib/cn.ts';
import { ScheduleChangeDialog } from '#web/features/schedule-changes/schedule-change-dialog.tsx';
import { useAppNow } from '#web/lib/app-clock.ts';
import { useCrewData } from '../hooks/use-crew-data.ts';

export interface CrewScreenProps {
  db: SyncDb;
  write: LocalWrite;
  /** The signed-in user: "my tasks" are the tasks assigned to them. */
  userId: string;
  firstName?: string | null;
  /** The company's IANA time zone (the session's `companyTimeZone`): what "today" is. */
  timeZone?: string;
}

/** Spec 02 section 2: the empty texts. */
export const EMPTY_TODAY = 'No tasks scheduled for today';
export const EMPTY_UPCOMING = 'No upcoming tasks in the next 7 days';
export const EMPTY_REQUESTS = 'No schedule change requests';

const PRIORITY: Record<string, { label: string; variant: BadgeVariant }> = {
  critical: { label: 'Critical', variant: 'destructive' },
  high: { label: 'High', variant: 'warning' },
  medium: { label: 'Medium', variant: 'info' },
  low: { label: 'Low', variant: 'secondary' },
};

// Spec 02 section 4: approved green, rejected red, pending coral (not a Badge variant: the kit has no coral).
const REQUEST_STATUS: Record<string, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'bg-orange-100 text-orange-800' },
  approved: { label: 'Approved', className: 'bg-green-100 text-green-800' },
  rejected: { label: 'Rejected', className: 'bg-red-100 text-red-800' },
};

const dayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
/** A due date or requested date by the calendar day it names (its UTC date, shared/rules/dates.ts). */
const formatDay = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? 'No date' : dayFormat.format(t);
};

type Dialog = { mode: 'request'; task: TaskRow } | { mode: 'edit'; change: ScheduleChangeRow } | null;

/** /crew (spec 02 section 2): a crew member's day, from the device mirror, online or not. */
export function CrewScreen({ db, write, userId, firstName, timeZone = DEFAULT_TIME_ZONE }: CrewScreenProps) {
  const now = useAppNow();
  const data = useCrewData(db, userId, now, timeZone);
  const savedToast = useSavedToast(db);
  const [dialog, setDialog] = useState<Dialog>(null);

  const toggle = async (task: TaskRow, done: boolean): Promise<boolean> => {
    try {
      // Spec 02 section 4: ticking sets completed, unticking sets pending (the server stamps completedAt).
      await write('tasks', 'patch', task.id, { status: done ? 'completed' : 'pending' });
      void savedToast(task.id, { title: done ? 'Task completed!' : 'Task marked as pending' });
      return true;
    } catch (err) {
      toast({
        title: 'Failed to update task status',
        description: err instanceof Error ? err.message : String(err),
        variant: 'destructive',
      });
      return false;
    }
  };

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 p-4 md:p-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900">Crew Dashboard</h1>
        <p className="text-sm text-slate-600">
          {firstName ? `Welcome back, ${firstName}. ` : ''}Your tasks for today and the week ahead.
        </p>
      </header>
      {!data ? (
        <Spinner label="Loading your tasks..." className="py-10" />
      ) : (
        <>
          <div className="grid grid-cols-3 gap-2 sm:gap-4">
            <Counter label="Today's Tasks" value={data.today.length} icon={<CalendarDays />} />
            <Counter label="Upcoming Tasks" value={data.upcoming.length} icon={<CalendarClock />} />
            <Counter label="Completed Today" value={data.completedToday} icon={<CheckCircle2 />} />
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            <Section title="Today's Tasks" empty={EMPTY_TODAY} count={data.today.length}>
              {data.today.map((task) => (
                <TodayItem
                  key={task.id}
                  task={task}
                  project={task.projectId ? data.projectNames.get(task.projectId) : undefined}
                  onToggle={(done) => toggle(task, done)}
                  onRequest={() => setDialog({ mode: 'request', task })}
                />
              ))}
            </Section>
            <Section title="Upcoming Tasks (Next 7 Days)" empty={EMPTY_UPCOMING} count={data.upcoming.length}>
              {data.upcoming.slice(0, 5).map((task) => (
                <UpcomingItem
                  key={task.id}
                  task={task}
                  project={task.projectId ? data.projectNames.get(task.projectId) : undefined}
                  dueText={dueDateText(task.dueDate, now, timeZone)}
                />
              ))}
            </Section>
          </div>
          <Section
            title="Recent Schedule Change Requests"
            empty={EMPTY_REQUESTS}
            count={data.requests.length}
          >
            {data.requests.map((change) => (
              <RequestItem
                key={change.id}
                change={change}
                taskTitle={(change.taskId && data.taskTitles.get(change.taskId)) || 'Unknown task'}
                onEdit={() => setDialog({ mode: 'edit', change })}
              />
            ))}
          </Section>
        </>
      )}
      <ScheduleChangeDialog
        open={dialog !== null}
        onOpenChange={(open) => {
          if (!open) setDialog(null);
        }}
        mode={dialog?.mode ?? 'request'}
        taskId={dialog?.mode === 'request' ? dialog.task.id : null}
        change={dialog?.mode === 'edit' ? dialog.change : null}
      />
    </div>
  );
}

function Counter({ label, value, icon }: { label: string; value: number; icon: ReactNode }) {
  const id = useId();
  return (
    <div
      role="group"
      aria-labelledby={id}
      className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4"
    >
      {/* A list of one term each: a group inside one <dl> is not a term and value pair to a screen reader. */}
      <dl className="contents">
        <dt id={id} className="flex items-center gap-2 text-xs font-medium text-slate-600 sm:text-sm">
          <span className="hidden text-teal-700 sm:inline [&>svg]:h-4 [&>svg]:w-4" aria-hidden="true">
            {icon}
          </span>
          {label}
        </dt>
        <dd className="text-2xl font-bold text-slate-900 tabular-nums">{value}</dd>
      </dl>
    </div>
  );
}

function Section({
  title,
  empty,
  count,
  children,
}: {
  title: string;
  empty: string;
  count: number;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="grid content-start gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {count === 0 ? (
        <p className="flex items-center gap-2 py-6 text-center text-sm text-slate-500">
          <ClipboardList className="h-4 w-4 shrink-0" aria-hidden="true" />
          {empty}
        </p>
      ) : (
        <ul className="grid gap-2">{children}</ul>
      )}
    </section>
  );
}

function PriorityBadge({ priority }: { priority: string | undefined }) {
  const p = PRIORITY[priority ?? ''] ?? { label: priority ?? 'Unknown', variant: 'secondary' as const };
  return <Badge variant={p.variant}>{p.label}</Badge>;
}

function TodayItem({
  task,
  project,
  onToggle,
  onRequest,
}: {
  task: TaskRow;
  project: string | undefined;
  /** Resolves false when the change could not be saved. */
  onToggle: (done: boolean) => Promise<boolean>;
  onRequest: () => void;
}) {
  const id = useId();
  const stored = task.status === 'completed';
  // The tick shows at once; the device write and its live query follow a moment later.
  const [ticked, setTicked] = useState<boolean | null>(null);
  if (ticked !== null && ticked === stored) setTicked(null);
  const done = ticked ?? stored;
  const title = task.title ?? 'Untitled task';
  return (
    <li>
      <article
        aria-label={title}
        className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-slate-200 p-2"
      >
        {/* On a phone the title takes the whole first line; the badge and the button go under it. On a wider
            screen they share a line while the title keeps 16rem, and go under it when they do not fit (a
            ticked task's note makes them wider): the title never shrinks under the checkbox and badge. */}
        <label
          htmlFor={id}
          className="flex min-w-0 flex-1 basis-full cursor-pointer items-center gap-2 sm:basis-64"
        >
          {/* The native checkbox fills the 44 px target (invisible); the box drawn under it is 20 px. */}
          <span className="relative flex h-11 w-11 shrink-0 items-center justify-center">
            <input
              id={id}
              type="checkbox"
              checked={done}
              onChange={(e) => {
                const next = e.target.checked;
                setTicked(next);
                void onToggle(next).then((saved) => {
                  if (!saved) setTicked(null);
                });
              }}
              className="peer absolute inset-0 h-full w-full cursor-pointer opacity-0"
            />
            <span
              aria-hidden="true"
              className={cn(
                'flex h-5 w-5 items-center justify-center rounded border-2 text-white',
                'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-teal-600',
                done ? 'border-teal-700 bg-teal-700' : 'border-slate-400 bg-white',
              )}
            >
              {done && <Check className="h-3.5 w-3.5" strokeWidth={3} />}
            </span>
          </span>
          <span className="grid min-w-0">
            <span className={cn('font-medium wrap-anywhere', done && 'text-slate-500 line-through')}>
              {title}
            </span>
            <span className="text-xs text-slate-600">
              {[project, dueTimeText(task.dueDate)].filter(Boolean).join(' · ')}
            </span>
          </span>
        </label>
        <div className="flex flex-wrap items-center gap-2 pl-13 sm:pl-0">
          <PriorityBadge priority={task.priority} />
          <UnsentMarker rowId={task.id} />
          <Button
            variant="outline"
            size="sm"
            // Its minimum width is a tap target's, less than its words: it must not shrink for the note.
            className="shrink-0"
            disabled={done}
            aria-describedby={done ? `${task.id}-done` : undefined}
            onClick={onRequest}
          >
            Request Change
          </Button>
          {done && (
            // A disabled button says why where a phone shows it (a hover title never appears on touch).
            <span id={`${task.id}-done`} className="text-xs text-slate-600">
              Completed: no change to request
            </span>
          )}
        </div>
      </article>
    </li>
  );
}

function UpcomingItem({
  task,
  project,
  dueText,
}: {
  task: TaskRow;
  project: string | undefined;
  dueText: string;
}) {
  const title = task.title ?? 'Untitled task';
  return (
    <li>
      <article
        aria-label={title}
        className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 p-3"
      >
        <div className="grid min-w-0">
          <span className="font-medium wrap-anywhere">{title}</span>
          <span className="text-xs text-slate-600">
            {[project, `${formatDay(task.dueDate)} (${dueText})`].filter(Boolean).join(' · ')}
          </span>
        </div>
        <div className="flex items-center gap-2">
          <PriorityBadge priority={task.priority} />
          <UnsentMarker rowId={task.id} />
        </div>
      </article>
    </li>
  );
}

function RequestItem({
  change,
  taskTitle,
  onEdit,
}: {
  change: ScheduleChangeRow;
  taskTitle: string;
  onEdit: () => void;
}) {
  // A request made on this device has no status until the server's row arrives: it starts pending.
  const statusKey = change.status ?? 'pending';
  const status = REQUEST_STATUS[statusKey] ?? { label: statusKey, className: 'bg-slate-100 text-slate-800' };
  return (
    <li>
      <article
        aria-label={`Request for ${taskTitle}`}
        className="grid gap-1 rounded-md border border-slate-200 p-3"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="font-medium wrap-anywhere">{taskTitle}</span>
          <div className="flex items-center gap-2">
            <UnsentMarker rowId={change.id} />
            <span
              className={cn(
                'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
                status.className,
              )}
            >
              {status.label}
            </span>
          </div>
        </div>
        <p className="text-sm text-slate-700">
          {formatDay(change.originalDate)} → {formatDay(change.newDate)}
        </p>
        {change.reason && <p className="text-sm wrap-anywhere text-slate-600">{change.reason}</p>}
        {statusKey === 'pending' && (
          <div>
            <Button variant="link" size="sm" className="px-0" onClick={onEdit}>
              Edit request
            </Button>
          </div>
        )}
      </article>
    </li>
  );
}
