import { useMemo } from 'react';
import { newId } from '#shared/ids.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';
import type { LocalWrite } from '#web/app/local-data.tsx';
import type { ProjectFields } from '../utils/project-form.ts';
import type { TaskFields } from '../utils/task-form.ts';

export interface ProjectCommands {
  createProject: (data: ProjectFields) => Promise<string>;
  updateProject: (project: ProjectRow, changed: Partial<ProjectFields>) => Promise<void>;
  deleteProject: (project: ProjectRow) => Promise<void>;
  createTask: (data: TaskFields) => Promise<string>;
  updateTask: (task: TaskRow, changed: Partial<TaskFields>) => Promise<void>;
  deleteTask: (task: TaskRow) => Promise<void>;
}

/**
 * The writes of the Projects screen, all local-first: each goes to the device database and its outbox
 * (ids made on the device) and syncs when the device is online. A write the sync module refuses throws.
 */
export function useProjectCommands(
  db: SyncDb,
  write: LocalWrite,
  can: (p: string) => boolean,
): ProjectCommands {
  return useMemo<ProjectCommands>(
    () => ({
      async createProject(data) {
        const id = newId();
        await write('projects', 'create', id, data);
        return id;
      },
      async updateProject(project, data) {
        await write('projects', 'patch', project.id, data);
      },
      async deleteProject(project) {
        // One transaction for the user's one action: the project goes, and so do its tasks on this device
        // (the server tombstones them with the project; the extra task deletes are no-ops there, SPEC W6).
        // Logs, photos and schedule changes leave the device when the pull brings their tombstones.
        await db.transaction('rw', [db.projects, db.tasks, db.outbox, db.shadows, db.meta], async () => {
          await write('projects', 'delete', project.id);
          if (!can('tasks:delete')) return;
          const taskIds = await db.tasks.where('projectId').equals(project.id).primaryKeys();
          for (const id of taskIds) await write('tasks', 'delete', id);
        });
      },
      async createTask(data) {
        const id = newId();
        await write('tasks', 'create', id, data);
        return id;
      },
      async updateTask(task, data) {
        await write('tasks', 'patch', task.id, data);
      },
      async deleteTask(task) {
        await write('tasks', 'delete', task.id);
      },
    }),
    [db, write, can],
  );
}
