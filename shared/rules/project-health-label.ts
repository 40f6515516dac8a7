/** The health label on the dashboard's multi-project overview cards (spec 01 section 4). */

export type ProjectHealthLabel = 'Complete' | 'At Risk' | 'On Track' | 'Moderate' | 'Behind';

/**
 * completed -> 'Complete'; delayed -> 'At Risk'; otherwise progress 80+ -> 'On Track', 50+ -> 'Moderate',
 * below 50 -> 'Behind'.
 */
export function projectHealthLabel(project: { status: string; progress: number }): ProjectHealthLabel {
  if (project.status === 'completed') return 'Complete';
  if (project.status === 'delayed') return 'At Risk';
  if (project.progress >= 80) return 'On Track';
  if (project.progress >= 50) return 'Moderate';
  return 'Behind';
}
