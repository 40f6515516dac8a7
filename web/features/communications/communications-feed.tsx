import { useId, useMemo, useState } from 'react';
import { FileSignature, MessageSquarePlus } from 'lucide-react';
import { newId } from '#shared/ids.ts';
import { zoneOrDefault } from '#shared/rules/dates.ts';
import type { ChangeOrderRow } from '#sync/db.ts';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { useSession } from '#web/app/session.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Tabs, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { ChangeOrderFormDialog, CommunicationFormDialog } from './components/feed-form-dialogs.tsx';
import { ChangeOrderItem, CommunicationItem, type ItemContext } from './components/feed-items.tsx';
import { FEED_TABS, TAB_LABELS, useFeedPage, useProjectChoices, type FeedTab } from './hooks/use-feed.ts';
import {
  newChangeOrderForm,
  newCommunicationForm,
  type ChangeOrderFields,
  type CommunicationFields,
} from './utils/feed-forms.ts';

/** The grant that lets a user approve or reject change orders (admins and managers, DECISIONS.md). */
export const APPROVE_PERMISSION = 'change_orders:approve';

/** Rows per page of the feed; 'Show more' adds as many. */
export const FEED_PAGE = 25;

const ALL_PROJECTS = 'all';

const EMPTY: Record<FeedTab, string> = {
  all: 'No communications or change orders yet',
  messages: 'No messages yet',
  'change-orders': 'No change orders yet',
  disputes: 'No disputes yet',
  invoices: 'No invoice communications yet',
};

/**
 * The communications and change-order feed (spec 01 section 2; issue 12): tabs All, Messages, Change
 * Orders, Disputes and Invoices, each a real list (DECISIONS.md; Invoices lists the communications of type
 * invoice), an optional project filter, the New Communication and New Change Order forms, and Approve and
 * Reject on pending change orders for the roles that decide them. It reads the device mirror and writes
 * through the outbox, so crew raise issues from site with no signal; the server decides each decision,
 * and one somebody else took first comes back as a named Sync issue (sync/SPEC.md W16).
 *
 * Contract (seam between the dashboard and the communications work): the dashboard's Communications tab
 * renders `<CommunicationsFeed />`; a project's view may pass `projectId` to show only that project.
 */
export function CommunicationsFeed({ projectId }: { projectId?: string }) {
  const db = useSyncDb();
  const write = useLocalWrite();
  const savedToast = useSavedToast(db);
  const { user } = useSession();
  const [tab, setTab] = useState<FeedTab>('all');
  const panelId = useId();
  const [chosenProject, setChosenProject] = useState<string>(ALL_PROJECTS);
  const [limit, setLimit] = useState(FEED_PAGE);
  const [dialog, setDialog] = useState<'communication' | 'change-order' | null>(null);
  const filter = projectId ?? (chosenProject === ALL_PROJECTS ? null : chosenProject);
  const page = useFeedPage(db, tab, filter, limit);
  const projects = useProjectChoices(db);
  const canDecide = (user?.grants ?? []).includes(APPROVE_PERMISSION);
  const timeZone = zoneOrDefault(user?.companyTimeZone);

  const ctx = useMemo<ItemContext>(() => {
    const time = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone });
    return {
      projectName: (id) => (id ? page?.projects.get(id) : undefined),
      personName: (id) => (id ? page?.people.get(id) : undefined),
      formatTime: (iso) => {
        const d = iso ? new Date(iso) : null;
        return d && !Number.isNaN(d.getTime()) ? time.format(d) : 'Recently';
      },
    };
  }, [page, timeZone]);

  const selectTab = (next: string) => {
    setTab(next as FeedTab);
    setLimit(FEED_PAGE);
  };

  const failed = (title: string) => (error: unknown) => {
    toast({
      variant: 'destructive',
      title,
      description: error instanceof Error ? error.message : String(error),
    });
    throw error;
  };

  const sendCommunication = async (fields: CommunicationFields) => {
    const id = newId();
    // The sender and time are shown at once on this device; the server sets its own (sync/SPEC.md W15).
    await write('communications', 'create', id, {
      ...fields,
      status: 'open',
      fromUserId: user?.id ?? null,
      fromName: user?.name ?? null,
      fromEmail: user?.email ?? null,
      createdAt: new Date().toISOString(),
    }).catch(failed('Failed to send the communication'));
    void savedToast(id, { title: 'Communication sent' });
  };

  const requestChangeOrder = async (fields: ChangeOrderFields) => {
    const id = newId();
    await write('change_orders', 'create', id, {
      ...fields,
      status: 'pending',
      requestedBy: user?.id ?? null,
      createdAt: new Date().toISOString(),
    }).catch(failed('Failed to create the change order'));
    void savedToast(id, { title: 'Change order submitted' });
  };

  const decide = async (row: ChangeOrderRow, decision: 'approved' | 'rejected') => {
    try {
      // A decision is a patch of its status (spec 01 section 4: Reject sends the fixed reason, Approve none).
      await write(
        'change_orders',
        'patch',
        row.id,
        decision === 'rejected'
          ? { status: decision, reason: 'Rejected by project manager' }
          : { status: decision },
      );
      void savedToast(row.id, {
        title: decision === 'approved' ? 'Change order approved' : 'Change order rejected',
      });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Failed to save the decision',
        description: error instanceof Error ? error.message : String(error),
      });
    }
  };

  return (
    <section aria-labelledby="communications-heading" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="communications-heading" className="text-lg font-semibold text-slate-900">
          Communications
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setDialog('communication')}>
            <MessageSquarePlus className="h-4 w-4" aria-hidden="true" />
            New Communication
          </Button>
          <Button variant="outline" onClick={() => setDialog('change-order')}>
            <FileSignature className="h-4 w-4" aria-hidden="true" />
            New Change Order
          </Button>
        </div>
      </div>

      <div className="flex min-w-0 flex-wrap items-center gap-3">
        <Tabs value={tab} onValueChange={selectTab} className="min-w-0 max-w-full">
          <TabsList aria-label="Communication types" className="flex max-w-full flex-wrap justify-start">
            {FEED_TABS.map((t) => (
              // The one panel below shows whichever type is chosen.
              <TabsTrigger key={t} value={t} aria-controls={panelId}>
                {TAB_LABELS[t]}
              </TabsTrigger>
            ))}
          </TabsList>
        </Tabs>
        {!projectId && (
          <Select
            value={chosenProject}
            onValueChange={(v) => {
              setChosenProject(v);
              setLimit(FEED_PAGE);
            }}
          >
            <SelectTrigger
              aria-label="Filter by project"
              className="w-full min-w-0 sm:w-56 [&>span]:truncate"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_PROJECTS}>All projects</SelectItem>
              {(projects ?? []).map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name ?? 'Untitled project'}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      </div>

      <div id={panelId} role="tabpanel" aria-label={TAB_LABELS[tab]} className="grid min-w-0 gap-3">
        {!page ? (
          <Spinner label="Loading communications..." className="py-8" />
        ) : page.items.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
            <p className="font-medium text-slate-800">{EMPTY[tab]}</p>
            <p className="mt-1 text-sm text-slate-600">
              {tab === 'change-orders'
                ? 'Request a change order when the scope, cost or time of a project changes.'
                : 'Raise a message, dispute or invoice note about a project.'}
            </p>
          </div>
        ) : (
          <>
            <ul className="grid min-w-0 gap-3" aria-label={`${TAB_LABELS[tab]} list`}>
              {page.items.map((item) => (
                <li key={item.id} className="min-w-0">
                  {item.kind === 'communication' ? (
                    <CommunicationItem row={item.row} ctx={ctx} />
                  ) : (
                    <ChangeOrderItem row={item.row} ctx={ctx} canDecide={canDecide} onDecide={decide} />
                  )}
                </li>
              ))}
            </ul>
            {page.more && (
              <Button
                variant="outline"
                className="justify-self-center"
                onClick={() => setLimit((n) => n + FEED_PAGE)}
              >
                Show more
              </Button>
            )}
          </>
        )}
      </div>

      {dialog === 'communication' && (
        <CommunicationFormDialog
          initial={newCommunicationForm(filter ?? '')}
          projects={projects ?? []}
          onOpenChange={(open) => !open && setDialog(null)}
          onSubmit={sendCommunication}
        />
      )}
      {dialog === 'change-order' && (
        <ChangeOrderFormDialog
          initial={newChangeOrderForm(filter ?? '')}
          projects={projects ?? []}
          onOpenChange={(open) => !open && setDialog(null)}
          onSubmit={requestChangeOrder}
        />
      )}
    </section>
  );
}
