import {
  forwardRef,
  useLayoutEffect,
  useRef,
  type ComponentPropsWithoutRef,
  type HTMLAttributes,
  type ReactNode,
} from 'react';
import * as D from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;

export const dialogOverlayClasses = 'fixed inset-0 z-50 bg-black/50';
/** Marks a modal's overlay, which covers the page while it is open (styles.css: no restyle of the page). */
export const pageCover = { 'data-page-cover': '' } as const;
// A dialog is centred in the screen above the toast band (styles.css) and never taller than what is left,
// so a toast can never cover its Close, Cancel or action buttons. A dialog sets no height of its own.
export const dialogPanelClasses =
  'fixed top-[calc(50%-var(--toast-band)/2)] left-1/2 z-50 grid max-h-[calc(100dvh-var(--toast-band)-1rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border border-slate-200 bg-white p-6 shadow-lg focus:outline-none';

export interface DialogContentProps extends Omit<ComponentPropsWithoutRef<typeof D.Content>, 'title'> {
  /** The dialog's heading, read as its accessible name. */
  title: ReactNode;
  /** A sentence under the title, read as its accessible description (visually hidden when `hideDescription`). */
  description?: ReactNode;
  hideDescription?: boolean;
  /** Hides the corner close button. */
  hideClose?: boolean;
}

/**
 * The focus target of each open dialog, in the order they opened. A dialog opened from inside another one
 * (Edit Task from a task's details) often mounts after that one's button is gone, with focus on <body>:
 * it gives focus back where the dialog before it would have.
 */
const openDialogs: { target: Element | null }[] = [];

/**
 * The button that opened the popover `el` sits in (Sync issues in the sync status popover): the popover is
 * gone by the time a dialog opened from it closes, so focus goes back to what opened the popover.
 */
function popoverTrigger(el: Element | null): Element | null {
  const popover = el?.closest('[data-radix-popper-content-wrapper] [role=dialog]');
  if (!popover?.id) return null;
  return (
    [...document.querySelectorAll('[aria-controls]')].find(
      (e) => e.getAttribute('aria-controls') === popover.id,
    ) ?? null
  );
}

/**
 * Focus goes back to what opened a dialog when it closes (DESIGN.md section 8). Radix does this only for a
 * `Trigger`: a dialog opened from state (a card's button setting a state) would leave focus on <body>.
 * Returns the two auto-focus handlers for a Radix Content: the opener is read when the content mounts,
 * before focus moves into it.
 */
export function useReturnFocus(handlers: {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const opener = useRef<Element | null>(null);
  const entry = useRef<{ target: Element | null } | null>(null);
  const { onOpenAutoFocus, onCloseAutoFocus } = handlers;
  return {
    onOpenAutoFocus(event: Event) {
      const active = document.activeElement;
      opener.current = active;
      const fromPage =
        active && active !== document.body && !active.closest('[role=dialog],[role=alertdialog]');
      entry.current = {
        target: fromPage ? active : (popoverTrigger(active) ?? openDialogs.at(-1)?.target ?? null),
      };
      openDialogs.push(entry.current);
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus(event: Event) {
      const at = entry.current ? openDialogs.indexOf(entry.current) : -1;
      if (at >= 0) openDialogs.splice(at, 1);
      onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const el = [opener.current, entry.current?.target].find(
        (e) => e instanceof HTMLElement && e.isConnected && e !== document.body,
      );
      if (el instanceof HTMLElement) {
        event.preventDefault();
        el.focus();
      }
    },
  };
}

/**
 * Takes the focus off a closing dialog just before React removes it. Chromium removing a subtree that holds
 * the focused element styles and lays out the page inside the removal (traced on B7's Save: about 6 ms of
 * the tap at 4x CPU, with the removal itself about 3 times slower); a blur first costs about 1 ms. The
 * focus still goes back to what opened the dialog (`useReturnFocus`, after the removal). Rendered inside
 * the dialog's content, whose removal comes after this component's cleanup.
 */
export function BlurOnClose() {
  const marker = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const content = marker.current?.parentElement;
    return () => {
      const active = document.activeElement;
      if (content && active instanceof HTMLElement && content.contains(active)) active.blur();
    };
  }, []);
  return <span ref={marker} hidden />;
}

/** A modal dialog with a title (its accessible name) and an optional description. */
export const DialogContent = forwardRef<HTMLDivElement, DialogContentProps>(function DialogContent(
  {
    className,
    title,
    description,
    hideDescription,
    hideClose,
    children,
    onOpenAutoFocus,
    onCloseAutoFocus,
    ...props
  },
  ref,
) {
  const focus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <D.Portal>
      <D.Overlay className={dialogOverlayClasses} {...pageCover} />
      <D.Content
        ref={ref}
        className={cn(dialogPanelClasses, className)}
        {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        {...props}
        onOpenAutoFocus={focus.onOpenAutoFocus}
        onCloseAutoFocus={focus.onCloseAutoFocus}
      >
        <div className="flex flex-col gap-1.5 pr-8">
          <D.Title className="text-lg font-semibold text-slate-900">{title}</D.Title>
          {description !== undefined && (
            <D.Description className={hideDescription ? 'sr-only' : 'text-sm text-slate-600'}>
              {description}
            </D.Description>
          )}
        </div>
        {children}
        <BlurOnClose />
        {!hideClose && (
          <D.Close
            className="absolute top-2 right-2 flex h-11 w-11 items-center justify-center rounded-md text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600"
            aria-label="Close"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </D.Close>
        )}
      </D.Content>
    </D.Portal>
  );
});

export function DialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}
