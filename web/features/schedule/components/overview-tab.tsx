import { useId } from 'react';
import { Pencil } from 'lucide-react';
import type { ProjectRow, ScheduleChangeRow, SyncDb, TaskRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { DecisionButtons } from '#web/features/schedule-changes/decision-buttons.tsx';
import { useRecentUpdates, useUpcomingTasks, type RecentUpdate } from '../hooks/use-schedule-data.ts';
import { formatDay, formatDueTime, formatInstant } from '../utils/format.ts';
import { PriorityMark, RequestStatusBadge, StatusBadge } from './badges.tsx';

export interface OverviewTabProps {
  db: SyncDb;
  now: Date;
  timeZone: string;
  projects: Map<string, ProjectRow>;
  /** Opens 'Update Task Schedule' for a task, its due date as the original date. */
  onUpdateTask: (task: TaskRow) => void;
  /** Opens 'Edit Schedule Change', or undefined when the user may not edit this request. */
  editable: (change: ScheduleChangeRow) => boolean;
  onEditChange: (change: ScheduleChangeRow) => void;
}

const personName = (u: RecentUpdate['requester']) =>
  u ? u.name || [u.firstName, u.lastName].filter(Boolean).join(' ') || 'a colleague' : 'a colleague';

export function OverviewTab(props: OverviewTabProps) {
  const { db, now, timeZone, projects } = props;
  const upcoming = useUpcomingTasks(db, now, timeZone);
  const recent = useRecentUpdates(db);
  // An upcoming task's button is named by what it shows, title first (a voice user says what they see:
  // WCAG 2.5.3); what it does is its description.
  const hint = useId();
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle id="upcoming-title">Upcoming Tasks</CardTitle>
        </CardHeader>
        <span id={hint} hidden>
          Update schedule
        </span>
        <CardContent>
          {upcoming === undefined ? null : upcoming.length === 0 ? (
            <p className="text-sm text-slate-600">No upcoming tasks with a due date</p>
          ) : (
            <ul aria-labelledby="upcoming-title" className="flex flex-col gap-2">
              {upcoming.map((task) => (
                <li key={task.id}>
                  <button
                    type="button"
                    onClick={() => props.onUpdateTask(task)}
                    aria-describedby={hint}
                    className="flex min-h-11 w-full flex-col gap-1 rounded-md border border-slate-200 p-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600"
                  >
                    <span className="flex items-center gap-2">
                      <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{task.title}</span>{' '}
                      <StatusBadge status={task.status} />
                    </span>{' '}
                    {/* Spaces between the facts: the button's name reads them as words, not run together. */}
                    <span className="flex flex-wrap gap-x-3 text-sm text-slate-600">
                      <PriorityMark priority={task.priority} />{' '}
                      <span>
                        {formatDay(task.dueDate)} · {formatDueTime(task.dueDate)}
                      </span>{' '}
                      <span>{projects.get(task.projectId ?? '')?.name ?? 'No project'}</span>
                    </span>
                    <UnsentMarker rowId={task.id} className="self-start" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle id="recent-title">Recent Schedule Updates</CardTitle>
        </CardHeader>
        <CardContent>
          {recent === undefined ? null : recent.length === 0 ? (
            <p className="text-sm text-slate-600">No recent schedule updates</p>
          ) : (
            <ul aria-labelledby="recent-title" className="flex flex-col gap-3">
              {recent.map((item) => (
                <li
                  key={item.change.id}
                  aria-label={`Schedule change: ${item.change.reason ?? ''}`}
                  className="flex flex-col gap-2 rounded-md border border-slate-200 p-3"
                >
                  <div className="flex flex-wrap items-center gap-2">
                    {/* At least 12rem wide: on a phone the badges wrap below rather than squeeze the reason. */}
                    <span className="min-w-0 flex-1 basis-48 font-medium wrap-anywhere text-slate-900">
                      {item.change.reason}
                    </span>
                    <Badge variant="info">Updated</Badge>
                    <RequestStatusBadge status={item.change.status} />
                  </div>
                  <p className="text-sm text-slate-600">
                    {item.task?.title ?? 'A task not on this device'} · requested by{' '}
                    {personName(item.requester)}
                  </p>
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                    <dt className="text-slate-500">Original</dt>
                    <dd>{formatDay(item.change.originalDate)}</dd>
                    <dt className="text-slate-500">Updated</dt>
                    <dd>{formatDay(item.change.newDate)}</dd>
                    <dt className="text-slate-500">Created</dt>
                    <dd>{formatInstant(item.change.createdAt, timeZone)}</dd>
                  </dl>
                  <div className="flex flex-wrap items-center gap-2">
                    <DecisionButtons change={item.change} />
                    {props.editable(item.change) && (
                      <Button size="sm" variant="ghost" onClick={() => props.onEditChange(item.change)}>
                        <Pencil className="h-4 w-4" aria-hidden="true" />
                        Edit
                      </Button>
                    )}
                    <UnsentMarker rowId={item.change.id} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
