import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { Switch as S } from 'radix-ui';
import { cn } from '#web/lib/cn.ts';

/**
 * An on/off switch (Radix: role="switch", Space toggles). Label it with a <Label htmlFor>; put both in a
 * row at least 44 px high so the label is the phone's tap target (DESIGN.md section 8).
 */
export const Switch = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof S.Root>>(function Switch(
  { className, ...props },
  ref,
) {
  return (
    <S.Root
      ref={ref}
      className={cn(
        'inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-teal-700',
        className,
      )}
      {...props}
    >
      <S.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
    </S.Root>
  );
});
