import type { ProjectRow, TaskRow } from '#sync/db.ts';

/** What the cards and rows ask the screen to open. */
export interface ProjectActions {
  edit: (project: ProjectRow) => void;
  addTask: (project: ProjectRow) => void;
  remove: (project: ProjectRow) => void;
  gallery: (project: ProjectRow, tab: 'photos' | 'upload') => void;
  editTask: (task: TaskRow) => void;
  deleteTask: (task: TaskRow) => void;
  /** The record's History (replaced values, restore). */
  history: (target: { table: 'projects'; row: ProjectRow } | { table: 'tasks'; row: TaskRow }) => void;
}
