import { HardHat } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import type { PermissionFlags } from '#shared/permissions.ts';
import { cn } from '#web/lib/cn.ts';
import { sidebarItems, type NavItem } from './nav-items.ts';

export function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map((item) => (
        <li key={item.path}>
          <NavLink
            to={item.path}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'flex min-h-11 items-center gap-3 rounded-md px-3 py-2 text-sm font-medium md:min-h-0 focus-visible:outline-2 focus-visible:outline-teal-600',
                isActive ? 'bg-teal-700 text-white' : 'text-slate-700 hover:bg-slate-100',
              )
            }
          >
            <item.icon className="h-4 w-4 shrink-0" aria-hidden="true" />
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The desktop sidebar: items by the user's permission flags. */
export function Sidebar({ flags }: { flags: PermissionFlags }) {
  return (
    <aside className="sticky top-0 hidden h-screen w-60 shrink-0 flex-col border-r border-slate-200 bg-white md:flex">
      <div className="flex h-16 items-center gap-2 border-b border-slate-200 px-5">
        <HardHat className="h-6 w-6 text-teal-700" aria-hidden="true" />
        <span className="text-lg font-bold text-slate-900">SiteCommand</span>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto p-3">
        <NavList items={sidebarItems(flags)} />
      </nav>
    </aside>
  );
}
