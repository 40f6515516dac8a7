import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { ToggleGroup as T } from 'radix-ui';
import { cn } from '#web/lib/cn.ts';

/** A single-choice toggle (e.g. Cards/List). Give it an aria-label. */
export const ToggleGroup = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof T.Root>>(
  function ToggleGroup({ className, ...props }, ref) {
    return (
      <T.Root
        ref={ref}
        className={cn(
          'inline-flex items-center rounded-md border border-slate-300 bg-white p-0.5',
          className,
        )}
        {...props}
      />
    );
  },
);

export const ToggleGroupItem = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof T.Item>>(
  function ToggleGroupItem({ className, ...props }, ref) {
    return (
      <T.Item
        ref={ref}
        className={cn(
          'inline-flex h-11 min-w-11 items-center justify-center md:h-8 md:min-w-0 gap-1.5 rounded px-3 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 data-[state=on]:bg-teal-700 data-[state=on]:text-white',
          className,
        )}
        {...props}
      />
    );
  },
);
