import type { Locator, Page } from '@playwright/test';

/** A seeded project of Summit Builders that every Summit role sees. */
export const SEEDED = 'Riverside Medical Office Building';

/** A screen of the app: where it is, its heading, and what shows once its data has loaded. */
export interface Screen {
  path: string;
  h1: string | RegExp;
  /** The screen's data, shown once it has loaded (before then a test would see a spinner). */
  data: (page: Page) => Locator;
}

export const SCREENS = {
  dashboard: {
    path: '/dashboard',
    h1: 'Dashboard',
    data: (p) => p.getByRole('list', { name: 'Project health' }).getByRole('article').first(),
  },
  activity: {
    path: '/activity',
    h1: 'Recent Activity',
    data: (p) => p.getByRole('list', { name: 'Activities' }).getByRole('listitem').first(),
  },
  projects: { path: '/projects', h1: 'Projects', data: (p) => p.getByRole('article', { name: SEEDED }) },
  tasks: { path: '/tasks', h1: 'Task Management', data: (p) => p.locator('main article').first() },
  health: {
    path: '/project-health',
    h1: 'Project Health',
    data: (p) => p.getByRole('listitem', { name: SEEDED }).getByText(/Risk$/),
  },
  schedule: {
    path: '/schedule',
    h1: 'Schedule Management',
    data: (p) => p.getByRole('list', { name: 'Upcoming Tasks' }).getByRole('button').first(),
  },
  photos: { path: '/photos', h1: 'Photo Gallery', data: (p) => p.locator('main li h3').first() },
  logs: { path: '/logs', h1: 'Project Logs', data: (p) => p.locator('main article').first() },
  crew: {
    path: '/crew',
    h1: 'Crew Dashboard',
    data: (p) => p.getByRole('group', { name: "Today's Tasks" }).getByRole('definition'),
  },
  subs: {
    path: '/subs',
    h1: 'Subcontractors',
    data: (p) => p.getByRole('heading', { name: 'Recent Activity' }),
  },
  rbac: {
    path: '/rbac',
    h1: 'RBAC Administration',
    data: (p) => p.getByRole('heading', { name: /^Summit Builders/ }),
  },
} satisfies Record<string, Screen>;
