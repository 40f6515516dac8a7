import { forwardRef, type ComponentPropsWithoutRef, type ComponentType } from 'react';
import * as T from '@radix-ui/react-toggle-group';
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

export interface ViewChoice<V extends string> {
  value: V;
  label: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
}

/**
 * A screen's view switch (Cards/List, Canvas/List, Grid/List): one choice always on. `compact` hides
 * the words on a phone (the icons stay, the buttons keep their names).
 */
export function ViewToggle<V extends string>({
  choices,
  value,
  onChange,
  compact = false,
}: {
  choices: readonly ViewChoice<V>[];
  value: V;
  onChange: (value: V) => void;
  compact?: boolean;
}) {
  return (
    <ToggleGroup
      type="single"
      aria-label="View"
      value={value}
      onValueChange={(v) => {
        const choice = choices.find((c) => c.value === v);
        if (choice) onChange(choice.value);
      }}
    >
      {choices.map(({ value: v, label, icon: Icon }) => (
        <ToggleGroupItem key={v} value={v} aria-label={label}>
          <Icon className="h-4 w-4" aria-hidden="true" />
          {compact ? <span className="sr-only sm:not-sr-only">{label}</span> : label}
        </ToggleGroupItem>
      ))}
    </ToggleGroup>
  );
}
