import { memo, useState, type FormEvent } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { format } from 'date-fns';
import type { SyncIssue } from '#sync/db.ts';
import { useSyncDb } from '#web/app/local-data.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { RefusedPhoto } from '#web/features/photos/components/refused-photo.tsx';
import { discardIssue, retryIssue } from '../issue-actions.ts';
import { formatFieldValue, parseEditedFields } from '../issue-fields.ts';
import { loadIssueNames, type IssueNames } from '../issue-names.ts';
import { describeIssue, fieldInWords, valueInWords } from '../issue-text.ts';

const label = (field: string) => {
  const words = fieldInWords(field);
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** How many issues the list shows (newest first). */
export const SYNC_ISSUES_LIMIT = 100;

function RetryForm({
  issue,
  onDone,
  onCancel,
}: {
  issue: SyncIssue;
  onDone: () => void;
  onCancel: () => void;
}) {
  const db = useSyncDb();
  const original = issue.mutation?.op === 'delete' ? {} : (issue.mutation?.data ?? {});
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(original).map(([k, v]) => [k, formatFieldValue(v)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const formId = `retry-${issue.id ?? 'x'}`;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseEditedFields(original, values);
    setErrors(parsed.errors);
    if (Object.keys(parsed.errors).length > 0) return;
    setBusy(true);
    try {
      await retryIssue(db, issue, parsed.data);
      toast({ title: 'Change queued again', description: 'It will be sent with your other changes.' });
      onDone();
    } catch (err) {
      toast({
        title: 'Could not retry this change',
        description: err instanceof Error ? err.message : String(err),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      id={formId}
      onSubmit={(e) => void onSubmit(e)}
      className="mt-3 flex flex-col gap-3 rounded-md bg-slate-50 p-3"
    >
      {Object.keys(original).length === 0 && (
        <p className="text-sm text-slate-600">Send this change again as it is?</p>
      )}
      {Object.keys(original).map((field) => {
        const id = `${formId}-${field}`;
        return (
          <div key={field} className="flex flex-col gap-1">
            <Label htmlFor={id}>{label(field)}</Label>
            <Input
              id={id}
              value={values[field] ?? ''}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? `${id}-error` : undefined}
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
            />
            {errors[field] && (
              <p id={`${id}-error`} className="text-sm text-red-600">
                {errors[field]}
              </p>
            )}
          </div>
        );
      })}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={busy}>
          Send again
        </Button>
      </div>
    </form>
  );
}

function IssueItem({ issue, names }: { issue: SyncIssue; names: IssueNames }) {
  const db = useSyncDb();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const m = issue.mutation;
  const fields = m ? Object.entries(m.data ?? {}) : [];
  const canRetry = issue.kind !== 'blob' && !!m;
  const text = describeIssue(issue, issue.id === undefined ? null : names.record.get(issue.id));
  const heading = text.title;
  const nameOf = (id: string) => names.byId.get(id);

  return (
    <li className="rounded-md border border-slate-200 p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-medium wrap-anywhere text-slate-900">{heading}</h3>
          <p className="text-xs text-slate-500">{format(issue.createdAt, 'MMM d, yyyy h:mm a')}</p>
        </div>
        <Badge variant={issue.kind === 'conflict' ? 'secondary' : 'destructive'}>{text.badge}</Badge>
      </div>
      <p className="mt-2 text-sm text-slate-800">{text.explanation}</p>
      {issue.conflicts && issue.conflicts.length > 0 && (
        <ul className="mt-2 text-sm text-slate-700" aria-label="Values kept by the server">
          {issue.conflicts.map((c) => (
            <li key={c.field}>
              <span className="font-medium">{label(c.field)}</span>: kept{' '}
              {valueInWords(c.field, c.kept, nameOf, m?.table)}; yours was{' '}
              {valueInWords(c.field, c.yours, nameOf, m?.table)}
            </li>
          ))}
        </ul>
      )}
      {fields.length > 0 && !editing && (
        <dl
          className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm"
          aria-label="Content of the change"
        >
          {fields.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-500">{label(k)}</dt>
              <dd className="wrap-anywhere text-slate-800">{valueInWords(k, v, nameOf, m?.table)}</dd>
            </div>
          ))}
        </dl>
      )}
      {issue.kind === 'blob' && issue.sha256 && <RefusedPhoto db={db} sha256={issue.sha256} />}
      {editing ? (
        <RetryForm issue={issue} onDone={() => setEditing(false)} onCancel={() => setEditing(false)} />
      ) : (
        <div className="mt-3 flex justify-end gap-2">
          {canRetry && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => setEditing(true)}
              aria-label={`Retry: ${heading}`}
            >
              Retry
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setConfirming(true)}
            aria-label={`Discard: ${heading}`}
          >
            Discard
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Discard this change?"
        description="The change is removed from this device and will not be sent. This cannot be undone."
        confirmLabel="Discard"
        onConfirm={() => {
          setConfirming(false);
          void discardIssue(db, issue);
        }}
      />
    </li>
  );
}

/** The rejected changes of this device: their content, the server's reason, Retry (after editing) or Discard. */
export function SyncIssuesList() {
  const db = useSyncDb();
  const loaded = useLiveQuery(async () => {
    const issues = await db.syncIssues.orderBy('createdAt').reverse().limit(SYNC_ISSUES_LIMIT).toArray();
    return { issues, names: await loadIssueNames(db, issues) };
  }, [db]);
  if (!loaded) return <p className="text-sm text-slate-500">Loading...</p>;
  const { issues, names } = loaded;
  if (issues.length === 0)
    return <p className="text-sm text-slate-600">No sync issues. Every change was accepted.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Sync issues">
      {issues.map((issue) => (
        <IssueItem key={issue.id} issue={issue} names={names} />
      ))}
    </ul>
  );
}

/** Memoised: the top bar's indicator renders again at every sync status change, the closed dialog need not. */
export const SyncIssuesDialog = memo(function SyncIssuesDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Sync issues"
        description="Changes the server did not accept. Fix and retry them, or discard them."
        className="max-w-2xl"
      >
        <SyncIssuesList />
      </DialogContent>
    </Dialog>
  );
});
