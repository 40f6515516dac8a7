import * as T from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { TOAST_DURATION_MS, useToast } from './use-toast.ts';

/** Spec 01 section 9: swipe right past 50 px dismisses; F8 (Radix default hotkey) focuses the region. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;

/** Renders the toasts of `toast()`; mount once near the root. */
export function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <T.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}>
      {toasts.map((t) => (
        <T.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismiss(t.id);
          }}
          className={cn(
            'pointer-events-auto relative flex w-full items-start justify-between gap-3 rounded-md border p-4 pr-11 shadow-lg',
            // Within the bottom band (--toast-band: 7.5rem less the viewport's padding): a long message
            // scrolls inside the toast rather than reach down over a dialog.
            'max-h-28 overflow-y-auto sm:max-h-26 max-sm:p-3 max-sm:pr-11',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
            t.variant === 'destructive'
              ? 'border-red-700 bg-red-600 text-white'
              : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          <div className="grid gap-1">
            {t.title && <T.Title className="text-sm font-semibold">{t.title}</T.Title>}
            {t.description && <T.Description className="text-sm">{t.description}</T.Description>}
          </div>
          <T.Close
            aria-label="Close"
            className="absolute top-0 right-0 flex h-11 w-11 items-center justify-center rounded opacity-70 hover:opacity-100"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </T.Close>
        </T.Root>
      ))}
      {/* At the bottom, below where dialogs end and clear of the top bar's controls: across a phone, at the
          bottom right of a wider screen, above the home indicator. The empty viewport lets taps through. */}
      <T.Viewport className="pointer-events-none fixed right-0 bottom-0 z-[100] flex max-h-screen w-full flex-col gap-2 px-2 pb-[calc(env(safe-area-inset-bottom,0px)+0.5rem)] sm:max-w-[420px] sm:px-4 sm:pb-[calc(env(safe-area-inset-bottom,0px)+1rem)]" />
    </T.Provider>
  );
}
