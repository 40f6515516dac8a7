import { Search, X } from 'lucide-react';
import { useId } from 'react';
import type { ProjectLogRow, ProjectRow } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import {
  filterActive,
  NO_FILTER,
  POPULAR_TAGS_SHOWN,
  type PhotoFilter,
  type PhotoTab,
} from '../utils/filter-photos.ts';

export interface PhotoFiltersProps {
  filter: PhotoFilter;
  onChange: (filter: PhotoFilter) => void;
  projects: readonly ProjectRow[];
  tags: readonly { tag: string; count: number }[];
  logs: readonly ProjectLogRow[];
}

/** The Filters card (spec 02 section 2): search, and the All / Project / Tag / Log tabs, with Clear All. */
export function PhotoFilters({ filter, onChange, projects, tags, logs }: PhotoFiltersProps) {
  const id = useId();
  const set = (patch: Partial<PhotoFilter>) => onChange({ ...filter, ...patch });
  return (
    <section
      aria-label="Filters"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold text-slate-900">Filters</h2>
        {filterActive(filter) && (
          <Button size="sm" variant="ghost" onClick={() => onChange(NO_FILTER)}>
            <X className="h-4 w-4" aria-hidden="true" />
            Clear All
          </Button>
        )}
      </div>
      <div className="relative">
        <Label htmlFor={`${id}-search`} className="sr-only">
          Search photos
        </Label>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <Input
          id={`${id}-search`}
          type="search"
          className="pl-9"
          placeholder="Search by description, file name or tag..."
          value={filter.search}
          onChange={(e) => set({ search: e.target.value })}
        />
      </div>
      <Tabs value={filter.tab} onValueChange={(v) => set({ tab: v as PhotoTab })}>
        <TabsList aria-label="Filter by" className="grid w-full grid-cols-4 sm:inline-flex sm:w-auto">
          <TabsTrigger value="all">All</TabsTrigger>
          <TabsTrigger value="project">Project</TabsTrigger>
          <TabsTrigger value="tag">Tag</TabsTrigger>
          <TabsTrigger value="log">Log</TabsTrigger>
        </TabsList>
        <TabsContent value="all" className="sr-only">
          Every photo is shown.
        </TabsContent>
        <TabsContent value="project" className="mt-3">
          <Label htmlFor={`${id}-project`} className="sr-only">
            Project
          </Label>
          <Select value={filter.projectId} onValueChange={(v) => set({ projectId: v })}>
            <SelectTrigger
              id={`${id}-project`}
              aria-label="Project"
              className="min-w-0 text-left sm:w-72 [&>span]:truncate"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All Projects</SelectItem>
              {projects.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name ?? 'Unknown Project'}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </TabsContent>
        <TabsContent value="tag" className="mt-3 flex flex-col gap-3">
          <Select value={filter.tag} onValueChange={(v) => set({ tag: v })}>
            <SelectTrigger aria-label="Tag" className="min-w-0 text-left sm:w-72 [&>span]:truncate">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All Tags</SelectItem>
              {tags.map(({ tag, count }) => (
                <SelectItem key={tag} value={tag}>
                  {tag} ({count})
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {tags.length > 0 && (
            <div className="flex flex-col gap-1.5">
              <p className="text-sm text-slate-600">Popular tags</p>
              <ul className="flex flex-wrap gap-2" aria-label="Popular tags">
                {tags.slice(0, POPULAR_TAGS_SHOWN).map(({ tag, count }) => (
                  <li key={tag}>
                    <button
                      type="button"
                      aria-pressed={filter.tag === tag}
                      onClick={() => set({ tag })}
                      className="min-h-11 rounded-full border border-slate-300 px-3 text-sm text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600 aria-pressed:border-teal-600 aria-pressed:bg-teal-50 aria-pressed:text-teal-800 md:min-h-8"
                    >
                      {tag} ({count})
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </TabsContent>
        <TabsContent value="log" className="mt-3">
          <Select value={filter.logId} onValueChange={(v) => set({ logId: v })}>
            <SelectTrigger aria-label="Log" className="min-w-0 text-left sm:w-72 [&>span]:truncate">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All Logs</SelectItem>
              {logs.map((l) => (
                <SelectItem key={l.id} value={l.id}>
                  {l.title || 'Untitled log'} ({(l.images ?? []).length})
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {logs.length === 0 && <p className="mt-2 text-sm text-slate-600">No logs have photos yet.</p>}
        </TabsContent>
      </Tabs>
    </section>
  );
}
