import type { PermissionFlags } from '#shared/permissions.ts';

export interface PlaceholderScreen {
  title: string;
  /** What the finished screen will hold (spec 01/02 section 2), shown until it is built. */
  summary: string;
  upcoming: string[];
}

/** Screens that are not built yet; each route shows what it will hold instead of a dead link. */
export const PLACEHOLDER_SCREENS = {
  dashboard: {
    title: 'Dashboard',
    summary: 'Your company at a glance.',
    upcoming: [
      'Project Overview, Task Management, Communications and Financial Health tabs',
      'Stat cards, recent activity and quick actions',
      "Active projects, today's tasks, expired and next priority tasks",
    ],
  },
  tasks: {
    title: 'Task Management',
    summary: 'Every task of every project, with filters and bulk edits.',
    upcoming: [
      'Summary tiles, search and filters',
      'Canvas and list views',
      'Create, edit and bulk-edit tasks',
    ],
  },
  projectHealth: {
    title: 'Project Health',
    summary: 'Health scores and risk assessments per project.',
    upcoming: ['Schedule, budget, quality and resource scores', 'Risk assessments', 'Trends over time'],
  },
  schedule: {
    title: 'Schedule Management',
    summary: 'Upcoming work and schedule change requests.',
    upcoming: ['Overview, Timeline, Gantt Chart and Calendar tabs', 'Request and approve schedule changes'],
  },
  photos: {
    title: 'Photo Gallery',
    summary: 'Site photos of every project, also taken offline.',
    upcoming: ['Grid and list views with filters', 'Upload photos with descriptions and tags'],
  },
  logs: {
    title: 'Project Logs',
    summary: 'The site diary of every project.',
    upcoming: ['Log cards with search and filters', 'Create and edit logs with photos'],
  },
  crew: {
    title: 'Crew Dashboard',
    summary: "Today's work for the crew.",
    upcoming: ["Today's and upcoming tasks", 'Schedule change requests'],
  },
  subs: {
    title: 'Subcontractors',
    summary: 'The subcontractor task board.',
    upcoming: ['Daily, weekly, per-project and per-subcontractor views', 'Milestones'],
  },
  rbacAdmin: {
    title: 'RBAC Administration',
    summary: 'Users, roles, companies and permissions.',
    upcoming: ['Users by company', 'Roles and permissions', 'Companies'],
  },
} satisfies Record<string, PlaceholderScreen> & Partial<Record<keyof PermissionFlags, PlaceholderScreen>>;

export type PlaceholderKey = keyof typeof PLACEHOLDER_SCREENS;
