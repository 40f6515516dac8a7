import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import * as T from '@radix-ui/react-tabs';
import { cn } from '#web/lib/cn.ts';

export const Tabs = T.Root;

export const TabsList = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof T.List>>(function TabsList(
  { className, ...props },
  ref,
) {
  return (
    <T.List
      ref={ref}
      className={cn('inline-flex items-center gap-1 rounded-md bg-slate-100 p-1 text-slate-700', className)}
      {...props}
    />
  );
});

export const TabsTrigger = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof T.Trigger>>(
  function TabsTrigger({ className, ...props }, ref) {
    return (
      <T.Trigger
        ref={ref}
        className={cn(
          'inline-flex min-h-11 min-w-11 items-center justify-center rounded px-3 py-1.5 text-sm font-medium md:min-h-0 md:min-w-0 focus-visible:outline-2 focus-visible:outline-teal-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm',
          className,
        )}
        {...props}
      />
    );
  },
);

export const TabsContent = T.Content;
