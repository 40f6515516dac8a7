/**
 * Project health scores (DESIGN.md section 9; the spec shows no formula). Every score is 0..100, rounded.
 *
 * - schedule  = 100 - lag - 50 x (share of open tasks overdue), where lag = max(0, elapsed% - progress%)
 *   and elapsed% is the share of the time from the project's createdAt to its dueDate that has passed at
 *   `now` (0 without a due date).
 * - budget    = 100 - (spent% - progress%) when that difference is positive, spent% = actualCost / budget
 *   (100 without a budget).
 * - quality   = 100 - 10 per open issue log - 20 per open safety log.
 * - resources = 100 - 50 x (share of open tasks unassigned) - 50 x (share of open tasks blocked).
 * - overall   = round(0.35 schedule + 0.30 budget + 0.20 quality + 0.15 resources).
 * - risk level from overall (80+ low, 60+ medium, 40+ high, else critical), raised to the level of the
 *   most severe open risk assessment.
 *
 * An open task is one not completed (the caller leaves deleted ones out); an open log is one neither
 * resolved nor closed; an open risk is one neither mitigated nor closed.
 */
import { toTime, type DateInput } from './dates.ts';
import { isTaskOverdue } from './due-date-text.ts';
import { isOpenRisk, maxRiskLevel, riskLevelFromScore, type RiskLevel } from './risk.ts';

export interface HealthProject {
  progress: number;
  createdAt: DateInput;
  dueDate: DateInput;
  budget: number | null;
  actualCost: number;
}
export interface HealthTask {
  status: string;
  dueDate: DateInput;
  assigneeId: string | null;
}
export interface HealthLog {
  type: string;
  status: string;
}
export interface HealthRisk {
  status: string;
  riskScore: number;
}

export interface HealthScores {
  schedule: number;
  budget: number;
  quality: number;
  resources: number;
}

export interface ProjectHealth {
  overallHealthScore: number;
  scheduleHealth: number;
  budgetHealth: number;
  qualityHealth: number;
  resourceHealth: number;
  riskLevel: RiskLevel;
}

/** Weights of the overall score. */
export const HEALTH_WEIGHTS: Readonly<HealthScores> = {
  schedule: 0.35,
  budget: 0.3,
  quality: 0.2,
  resources: 0.15,
};

/** Clamps to 0..100 and rounds to a whole score. */
export function clampScore(value: number): number {
  return Math.round(Math.min(100, Math.max(0, value)));
}

const openTasks = (tasks: readonly HealthTask[]) => tasks.filter((t) => t.status !== 'completed');
const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/**
 * The share (0..100) of the time from createdAt to dueDate that has passed at `now`; 0 without a due date
 * or a creation date; 100 once the due date has passed (also when it is not after createdAt).
 */
export function elapsedPercent(project: Pick<HealthProject, 'createdAt' | 'dueDate'>, now: Date): number {
  const start = toTime(project.createdAt);
  const due = toTime(project.dueDate);
  if (start === null || due === null) return 0;
  const t = now.getTime();
  if (t >= due) return 100;
  if (due <= start || t <= start) return 0;
  return ((t - start) / (due - start)) * 100;
}

/** Schedule health: 100 - lag of progress behind elapsed time - 50 x share of open tasks overdue. */
export function scheduleHealth(
  project: HealthProject,
  tasks: readonly HealthTask[],
  now: Date,
  timeZone: string,
): number {
  const lag = Math.max(0, elapsedPercent(project, now) - project.progress);
  const open = openTasks(tasks);
  const overdue = open.filter((t) => isTaskOverdue(t, now, timeZone)).length;
  return clampScore(100 - lag - 50 * share(overdue, open.length));
}

/** Budget health: 100 - (spent% - progress%) when spending runs ahead of progress; 100 without a budget. */
export function budgetHealth(project: Pick<HealthProject, 'budget' | 'actualCost' | 'progress'>): number {
  if (!project.budget) return 100;
  const spent = (project.actualCost / project.budget) * 100;
  return clampScore(100 - Math.max(0, spent - project.progress));
}

/** Quality health: 100 - 10 per open issue log - 20 per open safety log. */
export function qualityHealth(logs: readonly HealthLog[]): number {
  const open = logs.filter((l) => l.status !== 'resolved' && l.status !== 'closed');
  const issues = open.filter((l) => l.type === 'issue').length;
  const safety = open.filter((l) => l.type === 'safety').length;
  return clampScore(100 - 10 * issues - 20 * safety);
}

/** Resource health: 100 - 50 x share of open tasks unassigned - 50 x share of open tasks blocked. */
export function resourceHealth(tasks: readonly HealthTask[]): number {
  const open = openTasks(tasks);
  const unassigned = open.filter((t) => !t.assigneeId).length;
  const blocked = open.filter((t) => t.status === 'blocked').length;
  return clampScore(100 - 50 * share(unassigned, open.length) - 50 * share(blocked, open.length));
}

/** Overall = round(0.35 schedule + 0.30 budget + 0.20 quality + 0.15 resources). */
export function overallHealth(s: HealthScores): number {
  return clampScore(
    HEALTH_WEIGHTS.schedule * s.schedule +
      HEALTH_WEIGHTS.budget * s.budget +
      HEALTH_WEIGHTS.quality * s.quality +
      HEALTH_WEIGHTS.resources * s.resources,
  );
}

/** Risk level from the overall score: 80+ low, 60+ medium, 40+ high, else critical. */
export function riskLevelFromOverall(overall: number): RiskLevel {
  if (overall >= 80) return 'low';
  if (overall >= 60) return 'medium';
  if (overall >= 40) return 'high';
  return 'critical';
}

/** The project's risk level: from the overall score, raised to its most severe open risk assessment. */
export function projectRiskLevel(overall: number, risks: readonly HealthRisk[]): RiskLevel {
  return risks
    .filter(isOpenRisk)
    .reduce<RiskLevel>(
      (level, r) => maxRiskLevel(level, riskLevelFromScore(r.riskScore)),
      riskLevelFromOverall(overall),
    );
}

/** Every health figure of a project at `now`, shaped like a project_health_metrics row. */
export function computeProjectHealth(
  input: {
    project: HealthProject;
    tasks: readonly HealthTask[];
    logs: readonly HealthLog[];
    risks: readonly HealthRisk[];
  },
  now: Date,
  timeZone: string,
): ProjectHealth {
  const scores: HealthScores = {
    schedule: scheduleHealth(input.project, input.tasks, now, timeZone),
    budget: budgetHealth(input.project),
    quality: qualityHealth(input.logs),
    resources: resourceHealth(input.tasks),
  };
  const overall = overallHealth(scores);
  return {
    overallHealthScore: overall,
    scheduleHealth: scores.schedule,
    budgetHealth: scores.budget,
    qualityHealth: scores.quality,
    resourceHealth: scores.resources,
    riskLevel: projectRiskLevel(overall, input.risks),
  };
}

/** The five scores of a stored health row (a project_health_metrics row or `computeProjectHealth`). */
export type HealthScoreRow = Pick<
  ProjectHealth,
  'overallHealthScore' | 'scheduleHealth' | 'budgetHealth' | 'qualityHealth' | 'resourceHealth'
>;

/**
 * The Health Overview's summary (spec 02 section 2): each of the five scores averaged over the projects
 * shown that have been calculated, rounded to a whole score; null when none has been.
 */
export function averageHealth(rows: readonly HealthScoreRow[]): HealthScoreRow | null {
  if (rows.length === 0) return null;
  const mean = (pick: (r: HealthScoreRow) => number) =>
    Math.round(rows.reduce((total, r) => total + pick(r), 0) / rows.length);
  return {
    overallHealthScore: mean((r) => r.overallHealthScore),
    scheduleHealth: mean((r) => r.scheduleHealth),
    budgetHealth: mean((r) => r.budgetHealth),
    qualityHealth: mean((r) => r.qualityHealth),
    resourceHealth: mean((r) => r.resourceHealth),
  };
}
