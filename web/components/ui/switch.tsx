import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import * as S from '@radix-ui/react-switch';
import { cn } from '#web/lib/cn.ts';

/**
 * An on/off switch (Radix: role="switch", Space toggles); label it with a <Label htmlFor>. The button is a
 * 44 px tap target on phones (DESIGN.md section 8) around the usual 24 px track.
 */
export const Switch = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof S.Root>>(function Switch(
  { className, ...props },
  ref,
) {
  return (
    <S.Root
      ref={ref}
      className={cn(
        'group inline-flex h-11 w-14 shrink-0 cursor-pointer items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 disabled:cursor-not-allowed disabled:opacity-50 md:h-6 md:w-11',
        className,
      )}
      {...props}
    >
      <span className="inline-flex h-6 w-11 items-center rounded-full bg-slate-300 transition-colors group-data-[state=checked]:bg-teal-700">
        <S.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
      </span>
    </S.Root>
  );
});
