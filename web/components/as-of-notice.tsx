import { format } from 'date-fns';
import { CloudOff } from 'lucide-react';
import { Button } from './ui/button.tsx';

/** "as of" text of a kept answer's time: the screen is no fresher than its oldest list. */
export const asOfText = (updatedAt: number) => format(new Date(updatedAt), 'MMM d, h:mm a');

/**
 * The line an office screen shows when it is offline (issue 12/13): the kept answers' time ("as of") when
 * there are some, and why writes that need the server are turned off.
 */
export function AsOfNotice({
  what,
  updatedAt,
  reason,
}: {
  /** What is shown, e.g. 'the lists', 'the figures'. */
  what: string;
  /** The oldest kept answer's time (ms); undefined or not finite when nothing was kept (the screen says so). */
  updatedAt?: number;
  /** Why writes are off, when the screen has any. */
  reason?: string;
}) {
  return (
    <div
      role="status"
      className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <CloudOff className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <div>
        {updatedAt !== undefined && Number.isFinite(updatedAt) && (
          <p className="font-semibold">
            Offline: showing {what} as of {asOfText(updatedAt)}.
          </p>
        )}
        {reason && <p>{reason}</p>}
      </div>
    </div>
  );
}

/** An office screen whose lists the server refused or failed: what, the server's words, and a retry. */
export function LoadFailed({
  what,
  message,
  onRetry,
}: {
  /** The sentence's subject, e.g. 'The financial figures'. */
  what: string;
  message: string;
  onRetry: () => void;
}) {
  return (
    <div
      role="alert"
      className="grid justify-items-start gap-2 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800"
    >
      <p className="font-semibold">{what} could not be loaded.</p>
      <p>{message}</p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
