import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { CalendarDays, Download, Plus, Search } from 'lucide-react';
import { Badge, type BadgeVariant } from '#web/components/ui/badge.tsx';
import { buttonClasses } from '#web/components/ui/button.tsx';

/** Spec 01 section 2: sample figures, illustrative only (not real data). */
export const ILLUSTRATIVE_COUNTS = [
  { label: 'Tasks', value: 61 },
  { label: 'Overdue', value: 12 },
  { label: 'Due this week', value: 8 },
  { label: 'Completed', value: 41 },
] as const;

const PROJECTS = [
  { name: 'Riverside Medical Center', progress: 72 },
  { name: 'Harbor View Offices', progress: 45 },
  { name: 'Oak Street Residences', progress: 88 },
];

const ROWS: { title: string; project: string; badge: string; variant: BadgeVariant }[] = [
  {
    title: 'Pour level 3 slab',
    project: 'Riverside Medical Center',
    badge: 'Critical',
    variant: 'destructive',
  },
  {
    title: 'Electrical rough-in inspection',
    project: 'Harbor View Offices',
    badge: 'Medium',
    variant: 'info',
  },
  { title: 'Order facade panels', project: 'Oak Street Residences', badge: 'Low', variant: 'secondary' },
  { title: 'Site safety walk', project: 'Riverside Medical Center', badge: 'Completed', variant: 'success' },
];

/** The landing page's mock task canvas: a static picture of the product, with made-up numbers. */
export function TaskCanvasPreview() {
  const searchRef = useRef<HTMLInputElement>(null);

  // The hint below is true: Ctrl+K (Cmd+K on a Mac) focuses the preview's search field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <figure
      aria-label="Product preview with illustrative figures"
      className="rounded-xl border border-slate-200 bg-white p-4 text-left shadow-xl sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="relative min-w-48 flex-1">
          <Search
            className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-400"
            aria-hidden="true"
          />
          <input
            ref={searchRef}
            type="search"
            aria-label="Search tasks (preview)"
            placeholder="Search tasks..."
            className="h-11 w-full rounded-md md:h-9 border border-slate-300 pr-3 pl-9 text-sm"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/login" className={buttonClasses('default', 'sm')}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add Task
          </Link>
          <Link to="/login" className={buttonClasses('outline', 'sm')}>
            <CalendarDays className="h-4 w-4" aria-hidden="true" />
            View Calendar
          </Link>
          <Link to="/login" className={buttonClasses('outline', 'sm')}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Export Report
          </Link>
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        Tip: press <kbd className="rounded border border-slate-300 px-1">Ctrl</kbd>+
        <kbd className="rounded border border-slate-300 px-1">K</kbd> to focus search.
      </p>

      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {ILLUSTRATIVE_COUNTS.map((c) => (
          <div key={c.label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-xs text-slate-500">{c.label}</dt>
            <dd className="text-2xl font-bold text-slate-900">{c.value}</dd>
          </div>
        ))}
      </dl>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <div>
          <h2 className="mb-2 text-sm font-semibold text-slate-800">Project progress</h2>
          <ul className="space-y-3">
            {PROJECTS.map((p) => (
              <li key={p.name}>
                <div className="flex justify-between text-xs text-slate-600">
                  <span>{p.name}</span>
                  <span>{p.progress}%</span>
                </div>
                <div className="mt-1 h-2 rounded-full bg-slate-200" aria-hidden="true">
                  <div className="h-2 rounded-full bg-teal-600" style={{ width: `${p.progress}%` }} />
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="mb-2 text-sm font-semibold text-slate-800">Tasks</h2>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {ROWS.map((r) => (
              <li key={r.title} className="flex items-center justify-between gap-2 px-3 py-2">
                <span className="min-w-0">
                  <span className="block truncate text-sm text-slate-900">{r.title}</span>
                  <span className="block truncate text-xs text-slate-500">{r.project}</span>
                </span>
                <Badge variant={r.variant}>{r.badge}</Badge>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <figcaption className="mt-4 text-xs text-slate-500">
        Illustrative figures only: sample numbers, not real data.
      </figcaption>
    </figure>
  );
}
