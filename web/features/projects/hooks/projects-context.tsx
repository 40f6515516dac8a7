import { createContext, useContext, type ReactNode } from 'react';
import type { LocalWrite } from '#web/app/local-data.tsx';
import type { SyncDb } from '#sync/db.ts';
import type { TaskCounts } from './task-counts.ts';

/** What the Projects screen needs from the app: the device database, the write path and the user's rights. */
export interface ProjectsData {
  db: SyncDb;
  write: LocalWrite;
  /** Whether the signed-in user holds a permission (`projects:create`...): the client hides what the server refuses. */
  can: (permission: string) => boolean;
  /** Assignee names by user id (the manager lookup). */
  managers: ReadonlyMap<string, string>;
  /** Every project's task count, one read for the screen. */
  taskCounts: TaskCounts;
}

const ProjectsDataContext = createContext<ProjectsData | null>(null);

export function ProjectsDataProvider({ value, children }: { value: ProjectsData; children: ReactNode }) {
  return <ProjectsDataContext.Provider value={value}>{children}</ProjectsDataContext.Provider>;
}

export function useProjectsData(): ProjectsData {
  const value = useContext(ProjectsDataContext);
  if (!value) throw new Error('useProjectsData must be used inside <ProjectsDataProvider>');
  return value;
}
