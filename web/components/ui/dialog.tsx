import { forwardRef, type ComponentPropsWithoutRef, type HTMLAttributes, type ReactNode } from 'react';
import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;

export const dialogOverlayClasses = 'fixed inset-0 z-50 bg-black/50';
export const dialogPanelClasses =
  'fixed top-1/2 left-1/2 z-50 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border border-slate-200 bg-white p-6 shadow-lg focus:outline-none';

export interface DialogContentProps extends Omit<ComponentPropsWithoutRef<typeof D.Content>, 'title'> {
  /** The dialog's heading, read as its accessible name. */
  title: ReactNode;
  /** A sentence under the title, read as its accessible description (visually hidden when `hideDescription`). */
  description?: ReactNode;
  hideDescription?: boolean;
  /** Hides the corner close button. */
  hideClose?: boolean;
}

/** A modal dialog with a title (its accessible name) and an optional description. */
export const DialogContent = forwardRef<HTMLDivElement, DialogContentProps>(function DialogContent(
  { className, title, description, hideDescription, hideClose, children, ...props },
  ref,
) {
  return (
    <D.Portal>
      <D.Overlay className={dialogOverlayClasses} />
      <D.Content
        ref={ref}
        className={cn(dialogPanelClasses, className)}
        {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        {...props}
      >
        <div className="flex flex-col gap-1.5 pr-6">
          <D.Title className="text-lg font-semibold text-slate-900">{title}</D.Title>
          {description !== undefined && (
            <D.Description className={hideDescription ? 'sr-only' : 'text-sm text-slate-600'}>
              {description}
            </D.Description>
          )}
        </div>
        {children}
        {!hideClose && (
          <D.Close
            className="absolute top-4 right-4 rounded-sm p-1 text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600"
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
