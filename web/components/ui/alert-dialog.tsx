import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import * as A from '@radix-ui/react-alert-dialog';
import { cn } from '#web/lib/cn.ts';
import { buttonClasses, type ButtonVariant } from './button.tsx';
import {
  BlurOnClose,
  dialogOverlayClasses,
  dialogPanelClasses,
  pageCover,
  useReturnFocus,
} from './dialog.tsx';

export const AlertDialog = A.Root;
export const AlertDialogTrigger = A.Trigger;

export interface AlertDialogContentProps extends Omit<ComponentPropsWithoutRef<typeof A.Content>, 'title'> {
  title: ReactNode;
  description: ReactNode;
}

/** A confirm dialog: title, description (may hold lists), then the footer with Cancel and the action. */
export const AlertDialogContent = forwardRef<HTMLDivElement, AlertDialogContentProps>(
  function AlertDialogContent(
    { className, title, description, children, onOpenAutoFocus, onCloseAutoFocus, ...props },
    ref,
  ) {
    const focus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
    return (
      <A.Portal>
        <A.Overlay className={dialogOverlayClasses} {...pageCover} />
        <A.Content
          ref={ref}
          className={cn(dialogPanelClasses, className)}
          {...props}
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
        >
          <div className="flex flex-col gap-2">
            <A.Title className="text-lg font-semibold text-slate-900">{title}</A.Title>
            <A.Description asChild>
              <div className="text-sm text-slate-600">{description}</div>
            </A.Description>
          </div>
          {children}
          <BlurOnClose />
        </A.Content>
      </A.Portal>
    );
  },
);

export function AlertDialogFooter({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}

export const AlertDialogCancel = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof A.Cancel>>(
  function AlertDialogCancel({ className, ...props }, ref) {
    return <A.Cancel ref={ref} className={buttonClasses('outline', 'default', className)} {...props} />;
  },
);

export interface AlertDialogActionProps extends ComponentPropsWithoutRef<typeof A.Action> {
  variant?: ButtonVariant;
}

export const AlertDialogAction = forwardRef<HTMLButtonElement, AlertDialogActionProps>(
  function AlertDialogAction({ className, variant = 'destructive', ...props }, ref) {
    return <A.Action ref={ref} className={buttonClasses(variant, 'default', className)} {...props} />;
  },
);

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  variant?: ButtonVariant;
  onConfirm: () => void;
}

/** A ready-made confirm prompt: "Cancel" closes it, the action runs `onConfirm` and closes it. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  variant = 'destructive',
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent title={title} description={description}>
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction variant={variant} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
