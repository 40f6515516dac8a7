import {
  Activity,
  CalendarDays,
  Camera,
  ClipboardList,
  FolderKanban,
  HardHat,
  LayoutDashboard,
  ListChecks,
  ShieldCheck,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { PermissionFlags } from '#shared/permissions.ts';
import type { SessionUser } from '#web/lib/session-user.ts';
import { isAdmin } from '#web/lib/session-user.ts';

export interface NavItem {
  label: string;
  path: string;
  flag: keyof PermissionFlags;
  icon: LucideIcon;
}

/** Spec 02 section 2: the sidebar items in order, each behind its permission flag. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', path: '/dashboard', flag: 'dashboard', icon: LayoutDashboard },
  { label: 'Projects', path: '/projects', flag: 'projects', icon: FolderKanban },
  { label: 'Tasks', path: '/tasks', flag: 'tasks', icon: ListChecks },
  { label: 'Project Health', path: '/project-health', flag: 'projectHealth', icon: Activity },
  { label: 'Schedule', path: '/schedule', flag: 'schedule', icon: CalendarDays },
  { label: 'Photos', path: '/photos', flag: 'photos', icon: Camera },
  { label: 'Project Logs', path: '/logs', flag: 'logs', icon: ClipboardList },
  { label: 'Crew', path: '/crew', flag: 'crew', icon: HardHat },
  { label: 'Subs', path: '/subs', flag: 'subs', icon: Users },
  { label: 'RBAC Admin', path: '/rbac-admin', flag: 'rbacAdmin', icon: ShieldCheck },
];

/** The desktop sidebar: every item whose flag is true. */
export function sidebarItems(flags: Partial<PermissionFlags> | null | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => flags?.[item.flag] === true);
}

/** The mobile menu: the same items, but RBAC Admin only for admins. */
export function mobileMenuItems(user: Pick<SessionUser, 'permissions' | 'role'>): NavItem[] {
  return sidebarItems(user.permissions).filter((item) => item.flag !== 'rbacAdmin' || isAdmin(user));
}
