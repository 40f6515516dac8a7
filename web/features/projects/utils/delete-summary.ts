/**
 * What the 'Delete Project' dialog says goes with the project (spec 01 section 2); the server tombstones
 * the same rows when the delete syncs (api/mutators/projects.ts `deleteProject`).
 */
export function deleteConsequences(taskCount: number): string[] {
  return [
    `All associated tasks (${taskCount} ${taskCount === 1 ? 'task' : 'tasks'})`,
    'All project photos and documentation',
    'Project logs and progress history',
    'Related schedule changes',
    // Not in the spec's list, but they go too: a deleted project's requests cannot be decided any more.
    'Its communications and change orders',
  ];
}

export const DELETE_DEFAULT_ERROR =
  'Failed to delete project. It may have associated data that needs to be removed first.';

/** The delete failure alert (spec 01 section 8): 'Error: {message}', with the spec's default text. */
export function deleteErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return `Error: ${message || DELETE_DEFAULT_ERROR}`;
}
