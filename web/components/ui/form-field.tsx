import type { ReactNode } from 'react';
import { FieldError, Label } from '#web/components/ui/label.tsx';

/** Ids and ARIA wiring of one form control: its label, and its error text when it has one. */
export function fieldProps(id: string, error: string | undefined) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as const;
}

export function FormField({
  id,
  label,
  required,
  error,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>
        {label}
        {required && (
          <span className="text-red-600" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </Label>
      {children}
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

/** The message above a form: a failed save, or 'Please fill in: ...'. */
export function FormAlert({ title, message }: { title?: string; message: string | undefined | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {title && <p className="font-semibold">{title}</p>}
      <p>{message}</p>
    </div>
  );
}
