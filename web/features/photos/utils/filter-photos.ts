import type { PhotoRow, ProjectLogRow, ProjectRow } from '#sync/db.ts';

/** Spec 02 section 9: tags shown on a photo card, and popular tag chips on the Tag tab. */
export const CARD_TAGS_SHOWN = 3;
export const POPULAR_TAGS_SHOWN = 6;

export type PhotoTab = 'all' | 'project' | 'tag' | 'log';

/** What the Photo Gallery filters by; 'all' in a select means no filter of that kind. */
export interface PhotoFilter {
  search: string;
  tab: PhotoTab;
  projectId: string;
  tag: string;
  logId: string;
}

export const NO_FILTER: PhotoFilter = { search: '', tab: 'all', projectId: 'all', tag: 'all', logId: 'all' };

/** The photo ids and object keys a log's image addresses name (`/api/photos/{id}/file`, `/api/objects/image/{key}`). */
export function logImageRefs(log: ProjectLogRow): { ids: Set<string>; keys: Set<string> } {
  const ids = new Set<string>();
  const keys = new Set<string>();
  for (const url of log.images ?? []) {
    const photo = /^\/api\/photos\/([^/?#]+)/.exec(url);
    const object = /^\/api\/objects\/image\/([^/?#]+)/.exec(url);
    if (photo) ids.add(decodeURIComponent(photo[1]!));
    else if (object) keys.add(decodeURIComponent(object[1]!));
  }
  return { ids, keys };
}

/** Whether a tab filter (a chosen project, tag or log) is on; the search is separate. */
export function tabFilterActive(f: PhotoFilter): boolean {
  return (
    (f.tab === 'project' && f.projectId !== 'all') ||
    (f.tab === 'tag' && f.tag !== 'all') ||
    (f.tab === 'log' && f.logId !== 'all')
  );
}

export function filterActive(f: PhotoFilter): boolean {
  return tabFilterActive(f) || f.search.trim() !== '';
}

/**
 * Spec 02 section 2: the search matches description, original file name and tags (case-insensitive); the
 * active tab narrows by project, tag or log.
 */
export function filterPhotos(
  photos: readonly PhotoRow[],
  f: PhotoFilter,
  logs: readonly ProjectLogRow[] = [],
): PhotoRow[] {
  const q = f.search.trim().toLowerCase();
  const log = f.tab === 'log' && f.logId !== 'all' ? logs.find((l) => l.id === f.logId) : undefined;
  const refs = log ? logImageRefs(log) : null;
  return photos.filter((p) => {
    if (q) {
      const hay = [p.description ?? '', p.originalName ?? '', ...(p.tags ?? [])].join('\n').toLowerCase();
      if (!hay.includes(q)) return false;
    }
    if (f.tab === 'project' && f.projectId !== 'all' && p.projectId !== f.projectId) return false;
    if (f.tab === 'tag' && f.tag !== 'all' && !(p.tags ?? []).includes(f.tag)) return false;
    if (f.tab === 'log' && f.logId !== 'all') {
      if (!refs) return false;
      if (!refs.ids.has(p.id) && !(p.filename && refs.keys.has(p.filename))) return false;
    }
    return true;
  });
}

/** Every tag with how many photos carry it, most used first, then by name. */
export function tagCounts(photos: readonly PhotoRow[]): { tag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const p of photos) for (const t of new Set(p.tags ?? [])) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** The count line: 'X of Y photos' with '(filtered by ...)' naming what filters. */
export function countText(
  shown: number,
  total: number,
  f: PhotoFilter,
  names: { project?: string; log?: string } = {},
): string {
  const parts: string[] = [];
  if (f.tab === 'project' && f.projectId !== 'all')
    parts.push(`project: ${names.project ?? 'Unknown Project'}`);
  if (f.tab === 'tag' && f.tag !== 'all') parts.push(`tag: ${f.tag}`);
  if (f.tab === 'log' && f.logId !== 'all') parts.push(`log: ${names.log ?? 'Untitled log'}`);
  if (f.search.trim()) parts.push(`search: "${f.search.trim()}"`);
  const base = `${shown} of ${total} photos`;
  return parts.length ? `${base} (filtered by ${parts.join(', ')})` : base;
}

/** Logs that have images, for the Log tab's select. */
export function logsWithImages(logs: readonly ProjectLogRow[]): ProjectLogRow[] {
  return logs.filter((l) => (l.images ?? []).length > 0);
}

/** Newest first; photos made on this device and not yet acknowledged (no server time yet) come first. */
export function newestFirst(a: PhotoRow, b: PhotoRow): number {
  const ta = a.createdAt ?? '\uffff';
  const tb = b.createdAt ?? '\uffff';
  return ta < tb ? 1 : ta > tb ? -1 : a.id < b.id ? 1 : -1;
}

/** Project names by id, for cards and the count line. */
export function projectNames(projects: readonly ProjectRow[] | undefined): Map<string, string> {
  return new Map((projects ?? []).map((p) => [p.id, p.name ?? 'Unknown Project']));
}
