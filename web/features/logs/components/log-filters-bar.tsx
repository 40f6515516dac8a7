import { useEffect, useId, useRef, useState } from 'react';
import { Search, X } from 'lucide-react';
import { LOG_STATUSES, LOG_TYPES } from '#shared/enums.ts';
import { hasActiveLogFilters, type LogDateFilter, type LogFilters } from '#shared/rules/log-filters.ts';
import type { ProjectRow } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { LOG_STATUS_LABELS, LOG_TYPE_LABELS } from '../utils/labels.ts';

const DATE_LABELS: Record<LogDateFilter, string> = {
  all: 'All Dates',
  today: 'Today',
  week: 'This Week',
  month: 'This Month',
  custom: 'Custom Range',
};

export interface LogFiltersBarProps {
  filters: LogFilters;
  projects: readonly ProjectRow[];
  onChange: (change: Partial<LogFilters>) => void;
  onClear: () => void;
}

/** How long typing pauses before the list is searched: one scan of the device's logs per pause, not per key. */
const SEARCH_PAUSE_MS = 200;

/**
 * The search box's own text, sent on after a pause. `known` is the search the filters hold as far as this
 * box knows (seen or sent by it): only a change from elsewhere (Clear All Filters, a link) replaces the text,
 * so a key typed while the URL catches up is never lost.
 */
function useDebouncedSearch(value: string, send: (value: string) => void) {
  const [text, setText] = useState(value);
  const [known, setKnown] = useState(value);
  if (value !== known) {
    setKnown(value);
    setText(value);
  }
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });
  useEffect(() => {
    if (text === known) return;
    const timer = setTimeout(() => {
      setKnown(text);
      sendRef.current(text);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, known]);
  return { text, setText };
}

/** Search, project, type, status and date filters of the Project Logs screen (spec 02 section 2). */
export function LogFiltersBar({ filters, projects, onChange, onClear }: LogFiltersBarProps) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const search = useDebouncedSearch(filters.search, (value) => onChange({ search: value }));
  const knownProject = filters.projectId === 'all' || projects.some((p) => p.id === filters.projectId);
  return (
    <section
      aria-label="Filters"
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <Input
          type="search"
          aria-label="Search logs"
          placeholder="Search logs..."
          className="pl-9"
          value={search.text}
          onChange={(e) => search.setText(e.target.value)}
        />
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor={id('project')}>Project</Label>
          <Select value={filters.projectId} onValueChange={(v) => onChange({ projectId: v })}>
            <SelectTrigger id={id('project')} className="min-w-0 text-left [&>span]:truncate">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All Projects</SelectItem>
              {!knownProject && <SelectItem value={filters.projectId}>Unknown Project</SelectItem>}
              {projects.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name ?? 'Untitled project'}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor={id('type')}>Type</Label>
          <Select value={filters.type} onValueChange={(v) => onChange({ type: v })}>
            <SelectTrigger id={id('type')}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All Types</SelectItem>
              {LOG_TYPES.map((t) => (
                <SelectItem key={t} value={t}>
                  {LOG_TYPE_LABELS[t]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor={id('status')}>Status</Label>
          <Select value={filters.status} onValueChange={(v) => onChange({ status: v })}>
            <SelectTrigger id={id('status')}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All Statuses</SelectItem>
              {LOG_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {LOG_STATUS_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor={id('date')}>Date</Label>
          <Select
            value={filters.date}
            onValueChange={(v) =>
              // A range left behind by Custom Range would silently come back with it: drop it.
              onChange(v === 'custom' ? { date: v } : { date: v as LogDateFilter, start: '', end: '' })
            }
          >
            <SelectTrigger id={id('date')}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {(Object.keys(DATE_LABELS) as LogDateFilter[]).map((d) => (
                <SelectItem key={d} value={d}>
                  {DATE_LABELS[d]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      {filters.date === 'custom' && (
        <div className="grid grid-cols-2 gap-3">
          <div className="grid min-w-0 gap-1.5">
            <Label htmlFor={id('start')}>Start date</Label>
            <Input
              id={id('start')}
              type="date"
              value={filters.start}
              max={filters.end || undefined}
              onChange={(e) => onChange({ start: e.target.value })}
            />
          </div>
          <div className="grid min-w-0 gap-1.5">
            <Label htmlFor={id('end')}>End date</Label>
            <Input
              id={id('end')}
              type="date"
              value={filters.end}
              min={filters.start || undefined}
              onChange={(e) => onChange({ end: e.target.value })}
            />
          </div>
          {!(filters.start && filters.end) && (
            <p className="col-span-2 text-sm text-slate-600">
              Pick a start and an end date to filter by a range.
            </p>
          )}
          {/* A typed (or linked) end before the start matches nothing: say why the list is empty. ISO dates
              compare as text. */}
          {filters.start && filters.end && filters.end < filters.start && (
            <p role="alert" className="col-span-2 text-sm text-red-700">
              The end date is before the start date, so no log can match. Pick an end on or after the start.
            </p>
          )}
        </div>
      )}
      {hasActiveLogFilters(filters) && (
        <div>
          <Button variant="outline" size="sm" onClick={onClear}>
            <X className="h-4 w-4" aria-hidden="true" />
            Clear All Filters
          </Button>
        </div>
      )}
    </section>
  );
}
