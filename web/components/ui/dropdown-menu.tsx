import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import * as M from '@radix-ui/react-dropdown-menu';
import { Check } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { CHOICE_ITEM_CLASSES } from './select.tsx';

export const DropdownMenu = M.Root;
export const DropdownMenuTrigger = M.Trigger;
export const DropdownMenuRadioGroup = M.RadioGroup;

/** The open menu, in a portal, styled as the app's select lists (select.tsx). */
export const DropdownMenuContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof M.Content>>(
  function DropdownMenuContent({ className, sideOffset = 4, ...props }, ref) {
    return (
      <M.Portal>
        <M.Content
          ref={ref}
          sideOffset={sideOffset}
          className={cn(
            'z-50 min-w-[var(--radix-dropdown-menu-trigger-width)] overflow-hidden rounded-md border border-slate-200 bg-white p-1 text-slate-900 shadow-md',
            className,
          )}
          {...props}
        />
      </M.Portal>
    );
  },
);

/** One choice of a radio group in a menu: a tick beside the current one, as in the app's selects. */
export const DropdownMenuRadioItem = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof M.RadioItem>>(
  function DropdownMenuRadioItem({ className, children, ...props }, ref) {
    return (
      <M.RadioItem ref={ref} className={cn(CHOICE_ITEM_CLASSES, className)} {...props}>
        <span className="absolute left-2 flex h-4 w-4 items-center justify-center">
          <M.ItemIndicator>
            <Check className="h-4 w-4" aria-hidden="true" />
          </M.ItemIndicator>
        </span>
        {children}
      </M.RadioItem>
    );
  },
);
