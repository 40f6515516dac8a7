import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import * as S from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

export const Select = S.Root;
export const SelectGroup = S.Group;
export const SelectValue = S.Value;

/**
 * One choice of a list that opens (a select's option, a menu's radio item), with room for a tick on the
 * left. The one keyboard focus is on wears the app's focus ring: the grey alone (1.1:1 on white) is not
 * seen (WCAG 2.4.7).
 */
export const CHOICE_ITEM_CLASSES =
  'relative flex min-h-11 w-full cursor-default items-center rounded-sm py-1.5 pr-2 pl-8 md:min-h-0 text-sm outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-slate-100 data-[highlighted]:outline-2 data-[highlighted]:-outline-offset-2 data-[highlighted]:outline-teal-600 data-[highlighted]:outline-solid';

/** The closed select. Give it `id` (for a Label's htmlFor) or `aria-label`. */
export const SelectTrigger = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof S.Trigger>>(
  function SelectTrigger({ className, children, ...props }, ref) {
    return (
      <S.Trigger
        ref={ref}
        className={cn(
          'flex h-11 w-full items-center md:h-10 justify-between rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600 disabled:opacity-50 data-[placeholder]:text-slate-500',
          className,
        )}
        {...props}
      >
        {children}
        <S.Icon asChild>
          <ChevronDown className="h-4 w-4 opacity-60" aria-hidden="true" />
        </S.Icon>
      </S.Trigger>
    );
  },
);

export const SelectContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof S.Content>>(
  function SelectContent({ className, children, position = 'popper', ...props }, ref) {
    return (
      <S.Portal>
        <S.Content
          ref={ref}
          position={position}
          className={cn(
            'relative z-50 max-h-72 min-w-[8rem] overflow-hidden rounded-md border border-slate-200 bg-white text-slate-900 shadow-md',
            position === 'popper' && 'w-[var(--radix-select-trigger-width)] translate-y-1',
            className,
          )}
          {...props}
        >
          <S.Viewport className="p-1">{children}</S.Viewport>
        </S.Content>
      </S.Portal>
    );
  },
);

export const SelectItem = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof S.Item>>(
  function SelectItem({ className, children, ...props }, ref) {
    return (
      <S.Item ref={ref} className={cn(CHOICE_ITEM_CLASSES, className)} {...props}>
        <span className="absolute left-2 flex h-4 w-4 items-center justify-center">
          <S.ItemIndicator>
            <Check className="h-4 w-4" aria-hidden="true" />
          </S.ItemIndicator>
        </span>
        <S.ItemText>{children}</S.ItemText>
      </S.Item>
    );
  },
);
