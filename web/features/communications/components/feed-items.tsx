import { useState } from 'react';
import { Check, CloudOff, X } from 'lucide-react';
import { formatCents } from '#shared/rules/money.ts';
import { DEFAULT_REJECTION_REASON } from '#shared/schemas/change-order.ts';
import type { ChangeOrderRow, CommunicationRow } from '#sync/db.ts';
import { useHasUnsentChanges } from '#web/app/local-data.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Badge, type BadgeVariant } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import {
  PRIORITY_LABELS,
  TYPE_LABELS,
  type CommunicationPriority,
  type CommunicationType,
} from '../utils/feed-forms.ts';

const STATUS_VARIANT: Record<string, BadgeVariant> = {
  open: 'info',
  pending: 'warning',
  approved: 'success',
  rejected: 'destructive',
  resolved: 'secondary',
};

const PRIORITY_VARIANT: Record<string, BadgeVariant> = {
  urgent: 'destructive',
  high: 'warning',
  normal: 'secondary',
  low: 'outline',
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function StatusBadge({ status }: { status: string }) {
  return <Badge variant={STATUS_VARIANT[status] ?? 'secondary'}>{capitalise(status)}</Badge>;
}

function WaitingToSync({ rowId }: { rowId: string }) {
  if (!useHasUnsentChanges(rowId)) return null;
  return (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-800">
      <CloudOff className="h-3.5 w-3.5" aria-hidden="true" />
      Waiting to sync
    </span>
  );
}

function Meta({ parts }: { parts: (string | false | null | undefined)[] }) {
  return <p className="text-xs text-slate-600">{parts.filter(Boolean).join(' · ')}</p>;
}

export interface ItemContext {
  projectName: (id: string | undefined) => string | undefined;
  personName: (id: string | null | undefined) => string | undefined;
  formatTime: (iso: string | undefined) => string;
}

export function CommunicationItem({ row, ctx }: { row: CommunicationRow; ctx: ItemContext }) {
  const type = (row.type ?? 'message') as CommunicationType;
  const priority = (row.priority ?? 'normal') as CommunicationPriority;
  const titleId = `communication-${row.id}`;
  return (
    <article aria-labelledby={titleId} className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="min-w-0 font-semibold wrap-anywhere text-slate-900">
          {row.subject}
        </h3>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant="outline">{TYPE_LABELS[type] ?? capitalise(type)}</Badge>
          <Badge variant={PRIORITY_VARIANT[priority] ?? 'secondary'}>
            {PRIORITY_LABELS[priority] ?? priority}
          </Badge>
          <StatusBadge status={row.status ?? 'open'} />
        </div>
      </div>
      <p className="text-sm wrap-anywhere whitespace-pre-line text-slate-700">{row.message}</p>
      <Meta
        parts={[
          ctx.projectName(row.projectId),
          row.fromName ?? ctx.personName(row.fromUserId) ?? row.fromEmail,
          ctx.formatTime(row.createdAt),
        ]}
      />
      <WaitingToSync rowId={row.id} />
    </article>
  );
}

export interface ChangeOrderItemProps {
  row: ChangeOrderRow;
  ctx: ItemContext;
  /** The user may approve or reject (admins and managers). */
  canDecide: boolean;
  onDecide: (row: ChangeOrderRow, decision: 'approved' | 'rejected') => Promise<void>;
}

/** What approving does to the project, in words: 'It adds $42,000.00 and 10 days to' or a credit. */
export function approvalEffect(costCents: number, days: number): string {
  const time = `${days} ${days === 1 ? 'day' : 'days'}`;
  return costCents < 0
    ? `It takes ${formatCents(-costCents)} off and adds ${time} to`
    : `It adds ${formatCents(costCents)} and ${time} to`;
}

export function ChangeOrderItem({ row, ctx, canDecide, onDecide }: ChangeOrderItemProps) {
  const [busy, setBusy] = useState(false);
  // A decision cannot be taken back (the server refuses a second one), so both ask first.
  const [confirming, setConfirming] = useState<'approved' | 'rejected' | null>(null);
  const status = row.status ?? 'pending';
  const titleId = `change-order-${row.id}`;
  const decide = async (decision: 'approved' | 'rejected') => {
    setBusy(true);
    try {
      await onDecide(row, decision);
    } finally {
      setBusy(false);
    }
  };
  const days = row.timeImpact ?? 0;
  return (
    <article aria-labelledby={titleId} className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="min-w-0 font-semibold wrap-anywhere text-slate-900">
          {row.title}
        </h3>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant="outline">Change Order</Badge>
          <StatusBadge status={status} />
        </div>
      </div>
      <p className="text-sm wrap-anywhere whitespace-pre-line text-slate-700">{row.description}</p>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="text-slate-600">Cost impact</dt>
          <dd className="font-medium text-slate-900">
            {formatCents(row.costImpact ?? 0)}
            {(row.costImpact ?? 0) < 0 ? ' (credit)' : ''}
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-slate-600">Time impact</dt>
          <dd className="font-medium text-slate-900">
            {days} {days === 1 ? 'day' : 'days'}
          </dd>
        </div>
      </dl>
      {status === 'rejected' && row.reason && <p className="text-sm text-red-800">Reason: {row.reason}</p>}
      <Meta
        parts={[
          ctx.projectName(row.projectId),
          ctx.personName(row.requestedBy) && `Requested by ${ctx.personName(row.requestedBy)}`,
          status === 'approved' &&
            ctx.personName(row.approvedBy) &&
            `Approved by ${ctx.personName(row.approvedBy)}`,
          ctx.formatTime(row.createdAt),
        ]}
      />
      <WaitingToSync rowId={row.id} />
      {canDecide && status === 'pending' && (
        <div
          className="flex flex-wrap gap-2"
          role="group"
          aria-label={`Decide ${row.title ?? 'change order'}`}
        >
          <Button size="sm" disabled={busy} onClick={() => setConfirming('approved')}>
            <Check className="h-4 w-4" aria-hidden="true" />
            Approve
          </Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => setConfirming('rejected')}>
            <X className="h-4 w-4" aria-hidden="true" />
            Reject
          </Button>
          <ConfirmDialog
            open={confirming !== null}
            onOpenChange={(open) => !open && setConfirming(null)}
            title={confirming === 'approved' ? 'Approve this change order?' : 'Reject this change order?'}
            description={
              confirming === 'approved'
                ? `${approvalEffect(row.costImpact ?? 0, days)} ${ctx.projectName(row.projectId) ?? 'the project'}, and the requester is told. A decision cannot be changed afterwards.`
                : `It is marked rejected with the reason '${DEFAULT_REJECTION_REASON}', and the requester is told.`
            }
            confirmLabel={confirming === 'approved' ? 'Approve' : 'Reject'}
            onConfirm={() => {
              const decision = confirming;
              setConfirming(null);
              if (decision) void decide(decision);
            }}
          />
        </div>
      )}
    </article>
  );
}
