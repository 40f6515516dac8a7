/**
 * The dashboard's computed card texts and project widgets (spec 01 section 2; DECISIONS.md: the fixed texts
 * '2 new this week', '8 due today' and 'Completed Tasks 156' are computed from data). Days are calendar days
 * of the company's time zone (dates.ts).
 */
import { addCalendarDays, daysUntil, toTime, todayIn, type DateInput } from './dates.ts';
import { projectHealthLabel, type ProjectHealthLabel } from './project-health-label.ts';

/** 'N new this week': the days counted, today included (the spec's week windows are 7 days, DECISIONS.md). */
export const NEW_THIS_WEEK_DAYS = 7;

/**
 * Whether a record created at `createdAt` is new this week: created today or on one of the 6 days before
 * (calendar days of the company's zone), and not after `now`.
 */
export function isNewThisWeek(createdAt: DateInput, now: Date, timeZone: string): boolean {
  const t = toTime(createdAt);
  if (t === null || t > now.getTime()) return false;
  const first = addCalendarDays(todayIn(now, timeZone), -(NEW_THIS_WEEK_DAYS - 1));
  return todayIn(new Date(t), timeZone) >= first;
}

/** 'N due today' on the pending-tasks card: tasks not completed whose due day is today. */
export function pendingDueTodayCount(
  tasks: readonly { status: string; dueDate: DateInput }[],
  now: Date,
  timeZone: string,
): number {
  return tasks.filter((t) => t.status !== 'completed' && daysUntil(t.dueDate, now, timeZone) === 0).length;
}

export const ACTIVE_PROJECTS_LIMIT = 3;
export const OVERVIEW_CARDS_LIMIT = 6;

export interface DashboardProject {
  name: string;
  status: string;
  progress: number;
  dueDate: DateInput;
}

const byName = (a: DashboardProject, b: DashboardProject) => a.name.localeCompare(b.name);

/** Due dates earliest first, projects without one last. */
function byDueDate(a: DashboardProject, b: DashboardProject): number {
  const da = toTime(a.dueDate);
  const db = toTime(b.dueDate);
  if (da === db) return 0;
  if (da === null) return 1;
  if (db === null) return -1;
  return da - db;
}

/**
 * The active projects widget: the first 3 projects with status active, the nearest deadline first (then by
 * name), so the widget shows what needs attention next.
 */
export function activeProjectsWidget<P extends DashboardProject>(
  projects: readonly P[],
  limit = ACTIVE_PROJECTS_LIMIT,
): P[] {
  return projects
    .filter((p) => p.status === 'active')
    .sort((a, b) => byDueDate(a, b) || byName(a, b))
    .slice(0, limit);
}

/** The overview's order of health labels: the projects in trouble come first. */
const HEALTH_ORDER: readonly ProjectHealthLabel[] = ['At Risk', 'Behind', 'Moderate', 'On Track', 'Complete'];

/**
 * The multi-project overview: up to 6 health cards, the projects in the worst health first (At Risk,
 * Behind, Moderate, On Track, Complete), then by name; `total` is the n of 'View All n Projects'.
 */
export function overviewHealthCards<P extends DashboardProject>(
  projects: readonly P[],
  limit = OVERVIEW_CARDS_LIMIT,
): { cards: { project: P; health: ProjectHealthLabel }[]; total: number } {
  const cards = projects
    .map((project) => ({ project, health: projectHealthLabel(project) }))
    .sort(
      (a, b) =>
        HEALTH_ORDER.indexOf(a.health) - HEALTH_ORDER.indexOf(b.health) || byName(a.project, b.project),
    )
    .slice(0, limit);
  return { cards, total: projects.length };
}
