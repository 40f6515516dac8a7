import type { AdminPermission } from '../hooks/use-admin-data.ts';
import { permissionsByCategory } from '../utils/admin-lists.ts';

/** The Permissions tab (spec 02 section 2): the read-only catalogue by category. */
export function PermissionsTab({ permissions }: { permissions: readonly AdminPermission[] }) {
  return (
    <section aria-labelledby="rbac-permissions-heading" className="grid grid-cols-1 gap-4">
      <h2 id="rbac-permissions-heading" className="text-lg font-semibold text-slate-900">
        Permissions
      </h2>
      {permissionsByCategory(permissions).map(({ category, permissions: list }) => (
        <section key={category} aria-label={category} className="rounded-lg border border-slate-200 bg-white">
          <h3 className="border-b border-slate-100 px-4 py-2 font-semibold text-slate-900">
            {category} <span className="text-sm font-normal text-slate-600">({list.length})</span>
          </h3>
          <ul className="divide-y divide-slate-100">
            {list.map((p) => (
              <li
                key={p.id}
                className="grid gap-1 px-4 py-2 md:grid-cols-[14rem_1fr_auto] md:items-center md:gap-4"
              >
                <span className="font-mono text-sm break-all text-slate-900">{p.name}</span>
                <span className="text-sm text-slate-700">{p.description}</span>
                <span className="text-xs text-slate-600">
                  Resource <span className="font-mono">{p.resource_type}</span> · Action{' '}
                  <span className="font-mono">{p.action}</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
