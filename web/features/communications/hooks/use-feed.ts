import { useLiveQuery } from '#web/lib/live-query.ts';
import { Dexie } from 'dexie';
import type { ChangeOrderRow, CommunicationRow, ProjectRow, SyncDb } from '#sync/db.ts';
import type { CommunicationType } from '../utils/feed-forms.ts';

/** The feed's tabs (spec 01 section 2); every one is a real list (DECISIONS.md). */
export const FEED_TABS = ['all', 'messages', 'change-orders', 'disputes', 'invoices'] as const;
export type FeedTab = (typeof FEED_TABS)[number];

export const TAB_LABELS: Record<FeedTab, string> = {
  all: 'All',
  messages: 'Messages',
  'change-orders': 'Change Orders',
  disputes: 'Disputes',
  invoices: 'Invoices',
};

/** The communication type each filtered tab lists (Invoices: the invoice communications). */
const TAB_TYPE: Partial<Record<FeedTab, CommunicationType>> = {
  messages: 'message',
  disputes: 'dispute',
  invoices: 'invoice',
};

export type FeedItem =
  | { kind: 'communication'; id: string; createdAt: string; row: CommunicationRow }
  | { kind: 'change-order'; id: string; createdAt: string; row: ChangeOrderRow };

export interface FeedPage {
  items: FeedItem[];
  /** More rows exist past this page. */
  more: boolean;
  /** Names of the projects and people the page mentions, by id. */
  projects: Map<string, string>;
  people: Map<string, string>;
}

const createdOf = (row: { createdAt?: string }) => row.createdAt ?? '';

/** Newest first, at most `limit` + 1 (to know whether more exist), from the index that fits the filter. */
function communicationsPage(
  db: SyncDb,
  projectId: string | null,
  type: CommunicationType | null,
  limit: number,
) {
  const t = db.communications;
  const q =
    projectId && type
      ? t
          .where('[projectId+type+createdAt]')
          .between([projectId, type, Dexie.minKey], [projectId, type, Dexie.maxKey])
      : projectId
        ? t.where('[projectId+createdAt]').between([projectId, Dexie.minKey], [projectId, Dexie.maxKey])
        : type
          ? t.where('[type+createdAt]').between([type, Dexie.minKey], [type, Dexie.maxKey])
          : t.orderBy('createdAt');
  return q
    .reverse()
    .limit(limit + 1)
    .toArray();
}

function changeOrdersPage(db: SyncDb, projectId: string | null, limit: number) {
  const t = db.change_orders;
  const q = projectId
    ? t.where('[projectId+createdAt]').between([projectId, Dexie.minKey], [projectId, Dexie.maxKey])
    : t.orderBy('createdAt');
  return q
    .reverse()
    .limit(limit + 1)
    .toArray();
}

/** Reads one page of a tab from the device mirror: a few indexed reads, never a whole table. */
export async function loadFeedPage(
  db: SyncDb,
  tab: FeedTab,
  projectId: string | null,
  limit: number,
): Promise<FeedPage> {
  const wantsCommunications = tab !== 'change-orders';
  const wantsOrders = tab === 'all' || tab === 'change-orders';
  const [communications, orders] = await Promise.all([
    wantsCommunications ? communicationsPage(db, projectId, TAB_TYPE[tab] ?? null, limit) : [],
    wantsOrders ? changeOrdersPage(db, projectId, limit) : [],
  ]);
  const all: FeedItem[] = [
    ...communications.map((row) => ({
      kind: 'communication' as const,
      id: row.id,
      createdAt: createdOf(row),
      row,
    })),
    ...orders.map((row) => ({ kind: 'change-order' as const, id: row.id, createdAt: createdOf(row), row })),
  ].sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id),
  );
  const items = all.slice(0, limit);
  const projectIds = [...new Set(items.map((i) => i.row.projectId).filter((p): p is string => !!p))];
  const personIds = [
    ...new Set(
      items
        .flatMap((i) =>
          i.kind === 'change-order' ? [i.row.requestedBy, i.row.approvedBy] : [i.row.fromUserId],
        )
        .filter((p): p is string => !!p),
    ),
  ];
  const [projectRows, personRows] = await Promise.all([
    db.projects.bulkGet(projectIds),
    db.users.bulkGet(personIds),
  ]);
  const projects = new Map(projectRows.flatMap((p) => (p?.name ? [[p.id, p.name] as const] : [])));
  const people = new Map(
    personRows.flatMap((u) => {
      const name = u?.name || [u?.firstName, u?.lastName].filter(Boolean).join(' ');
      return u && name ? [[u.id, name] as const] : [];
    }),
  );
  return { items, more: all.length > limit, projects, people };
}

export function useFeedPage(db: SyncDb, tab: FeedTab, projectId: string | null, limit: number) {
  const page = useLiveQuery(
    async () => ({ tab, projectId, ...(await loadFeedPage(db, tab, projectId, limit)) }),
    [db, tab, projectId, limit],
  );
  // useLiveQuery keeps the last answer while a new query runs: right after a tab or project switch that is
  // the other tab's list (invoices under "Change Orders"). Such a page is not this view's, so it reads as
  // loading; a longer page of the same view (Show more) keeps the shorter one on screen meanwhile.
  return page && page.tab === tab && page.projectId === projectId ? page : undefined;
}

const byName = (a: ProjectRow, b: ProjectRow) => (a.name ?? '').localeCompare(b.name ?? '');

/** The projects a feed may filter by and a form may pick: the live ones on the device, by name. */
export function useProjectChoices(db: SyncDb): ProjectRow[] | undefined {
  // A company has tens of projects, not thousands: the screens that pick one read them all (as Logs does).
  return useLiveQuery(async () => (await db.projects.toArray()).sort(byName), [db]);
}
