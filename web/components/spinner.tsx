import { Loader2 } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

/** A spinning icon with a visible label, announced politely to screen readers. */
export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn('flex items-center justify-center gap-3 text-slate-600', className)}
    >
      <Loader2 className="h-6 w-6 animate-spin text-teal-700" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** The whole-screen spinner while the session loads (spec 02 section 2). */
export function FullScreenSpinner({ label }: { label: string }) {
  return <Spinner label={label} className="min-h-screen flex-col" />;
}
