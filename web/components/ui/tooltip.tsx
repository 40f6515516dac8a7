import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import * as T from '@radix-ui/react-tooltip';
import { cn } from '#web/lib/cn.ts';

/** Spec 01 section 9: open delay 700 ms, skip-delay window 300 ms. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <T.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </T.Provider>
  );
}

export const Tooltip = T.Root;

/**
 * Radix opens a tooltip on any focus. When a dialog closes it gives focus back to the button that opened it,
 * and on a phone that tooltip then sat over the card until the next tap. Only keyboard focus (the browser's
 * :focus-visible) opens it; hover still does.
 */
export const TooltipTrigger = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof T.Trigger>>(
  function TooltipTrigger({ onFocus, ...props }, ref) {
    return (
      <T.Trigger
        ref={ref}
        onFocus={(event) => {
          onFocus?.(event);
          if (!focusVisible(event.currentTarget)) event.preventDefault();
        }}
        {...props}
      />
    );
  },
);

function focusVisible(el: Element): boolean {
  try {
    return el.matches(':focus-visible');
  } catch {
    return true; // A browser without the selector keeps the old behaviour.
  }
}

export const TooltipContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof T.Content>>(
  function TooltipContent({ className, sideOffset = 4, ...props }, ref) {
    return (
      <T.Portal>
        <T.Content
          ref={ref}
          sideOffset={sideOffset}
          className={cn('z-50 rounded-md bg-slate-900 px-3 py-1.5 text-xs text-white shadow-md', className)}
          {...props}
        />
      </T.Portal>
    );
  },
);

/** Wraps one control with a tooltip text (the control still needs its own accessible name). */
export function WithTooltip({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
