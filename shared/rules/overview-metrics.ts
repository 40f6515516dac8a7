/** The dashboard's multi-project overview metrics (spec 01 section 9, 'Overview metrics'). */

export interface OverviewProject {
  status: string;
  progress: number;
  budget: number | null;
  actualCost: number;
}

/** How many projects have status active. */
export function activeProjectCount(projects: readonly OverviewProject[]): number {
  return projects.filter((p) => p.status === 'active').length;
}

/** The mean progress of the projects, rounded to a whole percent; 0 with no projects. */
export function averageProgress(projects: readonly OverviewProject[]): number {
  if (projects.length === 0) return 0;
  return Math.round(projects.reduce((a, p) => a + p.progress, 0) / projects.length);
}

/** Budget usage %: total actual cost over total budget x 100, or 0 when there is no budget. */
export function budgetUsagePercent(projects: readonly OverviewProject[]): number {
  const budget = projects.reduce((a, p) => a + (p.budget ?? 0), 0);
  const actual = projects.reduce((a, p) => a + p.actualCost, 0);
  return budget === 0 ? 0 : (actual / budget) * 100;
}

/** Whether a project is critical: delayed, or active with progress below 50. */
export function isCriticalProject(project: OverviewProject): boolean {
  return project.status === 'delayed' || (project.status === 'active' && project.progress < 50);
}

/** The critical projects, in the given order. */
export function criticalProjects<P extends OverviewProject>(projects: readonly P[]): P[] {
  return projects.filter(isCriticalProject);
}

/** Every overview metric at once. */
export function overviewMetrics(projects: readonly OverviewProject[]) {
  return {
    activeCount: activeProjectCount(projects),
    averageProgress: averageProgress(projects),
    budgetUsagePercent: budgetUsagePercent(projects),
    criticalCount: criticalProjects(projects).length,
  };
}
