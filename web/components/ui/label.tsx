import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import * as L from '@radix-ui/react-label';
import { cn } from '#web/lib/cn.ts';

export const Label = forwardRef<HTMLLabelElement, ComponentPropsWithoutRef<typeof L.Root>>(function Label(
  { className, ...props },
  ref,
) {
  return <L.Root ref={ref} className={cn('text-sm font-medium text-slate-800', className)} {...props} />;
});

/** A field's error text; give it an id and point the field's aria-describedby at it. */
export function FieldError({ id, children }: { id?: string; children?: React.ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-600">
      {children}
    </p>
  );
}
