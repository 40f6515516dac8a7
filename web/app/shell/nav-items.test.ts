import { describe, expect, it } from 'vitest';
import { PERMISSION_FLAGS, type PermissionFlags } from '#shared/permissions.ts';
import { mobileMenuItems, sidebarItems } from './nav-items.ts';

const flags = (on: (keyof PermissionFlags)[]): PermissionFlags =>
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, on.includes(f)])) as PermissionFlags;

const ALL = [...PERMISSION_FLAGS];

describe('sidebar items', () => {
  it('lists every item in the spec order when every flag is true', () => {
    expect(sidebarItems(flags(ALL)).map((i) => i.label)).toEqual([
      'Dashboard',
      'Projects',
      'Tasks',
      'Project Health',
      'Schedule',
      'Photos',
      'Project Logs',
      'Crew',
      'Subs',
      'RBAC Admin',
    ]);
  });

  it('shows an item only when its flag is true', () => {
    const crew = flags(['dashboard', 'projects', 'tasks', 'schedule', 'photos', 'logs', 'crew']);
    expect(sidebarItems(crew).map((i) => i.label)).toEqual([
      'Dashboard',
      'Projects',
      'Tasks',
      'Schedule',
      'Photos',
      'Project Logs',
      'Crew',
    ]);
    expect(sidebarItems(flags(['subs', 'photos'])).map((i) => i.path)).toEqual(['/photos', '/subs']);
    expect(sidebarItems(flags([]))).toEqual([]);
    expect(sidebarItems(null)).toEqual([]);
  });

  it('has no item without a route', () => {
    const paths = sidebarItems(flags(ALL)).map((i) => i.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of paths) expect(p).toMatch(/^\/[a-z-]+$/);
  });
});

describe('mobile menu items', () => {
  it('shows RBAC Admin to admins and platform admins only, even with the flag set', () => {
    const every = flags(ALL);
    const has = (role: Parameters<typeof mobileMenuItems>[0]['role']) =>
      mobileMenuItems({ permissions: every, role }).some((i) => i.label === 'RBAC Admin');
    expect(has('admin')).toBe(true);
    expect(has('root')).toBe(true);
    expect(has('manager')).toBe(false);
    expect(has('crew')).toBe(false);
  });

  it('otherwise lists the same items as the sidebar', () => {
    const f = flags(['dashboard', 'tasks', 'subs']);
    expect(mobileMenuItems({ permissions: f, role: 'subcontractor' })).toEqual(sidebarItems(f));
  });
});
