import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Camera, FolderPlus, ListPlus, UserPlus, type LucideIcon } from 'lucide-react';
import type { PermissionFlags } from '#shared/permissions.ts';
import { overviewMetrics } from '#shared/rules/overview-metrics.ts';
import { activeProjectsWidget, overviewHealthCards } from '#shared/rules/dashboard-cards.ts';
import type { ProjectHealthLabel } from '#shared/rules/project-health-label.ts';
import { dueDateText } from '#shared/rules/due-date-text.ts';
import { Badge, type BadgeVariant } from '#web/components/ui/badge.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { cn } from '#web/lib/cn.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import type { DashboardProjectView, PhotoCounts, TaskWidgets } from '../hooks/use-field-data.ts';
import { LINK_CLASS, Widget } from './widget.tsx';

/**
 * Spec 01 section 2: the quick actions and their targets. Each shows only when its screen may be opened
 * and the user holds the grant its screen asks before it offers to add something there: 'Add Project'
 * that lands on a Projects screen without 'New Project' would be a dead end.
 */
export const QUICK_ACTIONS: readonly {
  label: string;
  to: string;
  flag: keyof PermissionFlags;
  grant: string;
  icon: LucideIcon;
}[] = [
  { label: 'Add Project', to: '/projects', flag: 'projects', grant: 'projects:create', icon: FolderPlus },
  { label: 'Add Tasks', to: '/tasks', flag: 'tasks', grant: 'tasks:create', icon: ListPlus },
  { label: 'Upload Photos', to: '/photos', flag: 'photos', grant: 'photos:create', icon: Camera },
  { label: 'Assign Task', to: '/subs', flag: 'subs', grant: 'tasks:create', icon: UserPlus },
];

export function QuickActions({ user }: { user: Pick<CurrentUser, 'permissions' | 'grants'> }) {
  const actions = QUICK_ACTIONS.filter((a) => user.permissions[a.flag] && user.grants.includes(a.grant));
  if (actions.length === 0) return null;
  return (
    <nav aria-label="Quick actions" className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
      {actions.map(({ label, to, icon: Icon }) => (
        <Link
          key={label}
          to={to}
          className="inline-flex min-h-11 items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600"
        >
          <Icon className="h-4 w-4 text-teal-700" aria-hidden="true" />
          {label}
        </Link>
      ))}
    </nav>
  );
}

function StatCard({ label, value, note }: { label: string; value: number | undefined; note?: ReactNode }) {
  return (
    <Card role="group" aria-label={label} className="min-w-0 p-4">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      {value === undefined ? (
        <div
          role="status"
          aria-label={`Loading ${label}`}
          className="mt-2 h-8 w-12 animate-pulse rounded bg-slate-200"
        />
      ) : (
        <p className="mt-1 text-3xl font-semibold text-slate-900 tabular-nums">{value}</p>
      )}
      {note !== undefined && <p className="mt-1 text-xs text-slate-600">{note}</p>}
    </Card>
  );
}

/** The four stat cards (spec 01 sections 2 and 3), with the texts the spec fixed computed from data. */
export function StatCards({
  activeProjects,
  newThisWeek,
  tasks,
  photos,
}: {
  activeProjects: number | undefined;
  newThisWeek: number | undefined;
  tasks: TaskWidgets | undefined;
  photos: PhotoCounts | undefined;
}) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <StatCard
        label="Active Projects"
        value={activeProjects}
        note={newThisWeek === undefined ? undefined : `${newThisWeek} new this week`}
      />
      <StatCard
        label="Pending Tasks"
        value={tasks?.pendingTasks}
        note={tasks ? `${tasks.pendingDueToday} due today` : undefined}
      />
      <StatCard label="Photos Uploaded" value={photos?.photosUploaded} />
      <StatCard label="Photos Uploaded Today" value={photos?.photosUploadedToday} />
    </div>
  );
}

const HEALTH_BADGE: Record<ProjectHealthLabel, BadgeVariant> = {
  Complete: 'success',
  'On Track': 'info',
  Moderate: 'secondary',
  Behind: 'warning',
  'At Risk': 'destructive',
};

const STATUS_LABEL: Record<string, string> = {
  active: 'Active',
  completed: 'Completed',
  delayed: 'Delayed',
  'on-hold': 'On Hold',
};
const statusLabel = (status: string) => STATUS_LABEL[status] ?? status;

function Metric({ label, value }: { label: string; value: string }) {
  return (
    // A list of one term each: a group inside one <dl> is not a term and value pair to a screen reader.
    <div role="group" aria-label={label} className="min-w-0 rounded-md bg-slate-50 p-2">
      <dl>
        <dt className="text-xs text-slate-600">{label}</dt>
        <dd className="text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
      </dl>
    </div>
  );
}

/**
 * The multi-project overview: the overview metrics (spec 01 section 9) and up to 6 health cards, with
 * 'View All n Projects' when more exist. Budget usage is money: shown only to roles that may see finance.
 */
export function MultiProjectOverview({
  projects,
  showBudget,
  linkProjects,
  now,
  timeZone,
  className,
}: {
  projects: DashboardProjectView[] | undefined;
  showBudget: boolean;
  /** Whether the user may open /projects (a subcontractor may not): no link to an Access Denied page. */
  linkProjects: boolean;
  now: Date;
  timeZone: string;
  className?: string;
}) {
  const metrics = projects ? overviewMetrics(projects) : undefined;
  const overview = projects ? overviewHealthCards(projects) : undefined;
  const more = overview && overview.total > overview.cards.length;
  return (
    <Widget
      title="Multi-Project Overview"
      className={className}
      loading={projects === undefined}
      empty={projects?.length === 0 && 'No projects yet. Add one from the Projects screen.'}
    >
      {metrics && overview && (
        <div className="grid min-w-0 grid-cols-1 gap-3">
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            <Metric label="Active" value={String(metrics.activeCount)} />
            <Metric label="Average progress" value={`${metrics.averageProgress}%`} />
            {showBudget && <Metric label="Budget used" value={`${metrics.budgetUsagePercent.toFixed(1)}%`} />}
            <Metric label="Critical" value={String(metrics.criticalCount)} />
          </div>
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 2xl:grid-cols-3" aria-label="Project health">
            {overview.cards.map(({ project, health }) => (
              <li key={project.id} className="min-w-0">
                <article
                  aria-label={project.name}
                  className="grid min-w-0 grid-cols-1 gap-2 rounded-md border border-slate-200 p-3"
                >
                  {/* The badge goes under the name when both do not fit (large text): the name never shrinks to 0. */}
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    {/* All of it on as many lines as it needs (zoom, large text): "Phase 2" at the end tells phases apart. */}
                    <h3 className="min-w-[8ch] flex-1 basis-0 text-sm font-semibold wrap-anywhere text-slate-900">
                      {project.name}
                    </h3>
                    <Badge variant={HEALTH_BADGE[health]} className="shrink-0">
                      {health}
                    </Badge>
                  </div>
                  <Progress value={project.progress} aria-label={`Progress of ${project.name}`} />
                  <p className="flex justify-between gap-2 text-xs text-slate-600">
                    <span>{statusLabel(project.status)}</span>
                    <span className="tabular-nums">{project.progress}%</span>
                  </p>
                  {project.dueDate && project.status !== 'completed' && (
                    <p className="text-xs text-slate-600">{dueDateText(project.dueDate, now, timeZone)}</p>
                  )}
                </article>
              </li>
            ))}
          </ul>
          {more && linkProjects && (
            <Link to="/projects" className={cn(LINK_CLASS, 'justify-self-start')}>
              View All {overview.total} Projects
            </Link>
          )}
        </div>
      )}
    </Widget>
  );
}

/** The active projects widget: the first 3, View All going to /projects. */
export function ActiveProjects({
  projects,
  now,
  timeZone,
  linkProjects,
}: {
  projects: DashboardProjectView[] | undefined;
  now: Date;
  timeZone: string;
  /** Whether the user may open /projects: View All only then. */
  linkProjects: boolean;
}) {
  const shown = projects ? activeProjectsWidget(projects) : [];
  return (
    <Widget
      title="Active Projects"
      action={linkProjects ? { label: 'View All', to: '/projects' } : undefined}
      loading={projects === undefined}
      empty={shown.length === 0 && 'No active projects.'}
    >
      <ul className="grid grid-cols-1 gap-2 md:grid-cols-3">
        {shown.map((p) => (
          <li key={p.id} className="grid min-w-0 grid-cols-1 gap-2 rounded-md border border-slate-200 p-3">
            <div className="min-w-0">
              <p className="text-sm font-semibold wrap-anywhere text-slate-900">{p.name}</p>
              {p.location && <p className="truncate text-xs text-slate-600">{p.location}</p>}
            </div>
            <Progress value={p.progress} aria-label={`Progress of ${p.name}`} />
            <p className="flex justify-between gap-2 text-xs text-slate-600">
              <span>{p.dueDate ? dueDateText(p.dueDate, now, timeZone) : 'No due date'}</span>
              <span className="tabular-nums">{p.progress}%</span>
            </p>
          </li>
        ))}
      </ul>
    </Widget>
  );
}
