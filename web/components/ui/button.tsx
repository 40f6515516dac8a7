import { forwardRef, type ButtonHTMLAttributes } from 'react';
import * as Slot from '@radix-ui/react-slot';
import { cn } from '#web/lib/cn.ts';

export type ButtonVariant = 'default' | 'outline' | 'destructive' | 'ghost' | 'secondary' | 'link';
export type ButtonSize = 'default' | 'sm' | 'lg' | 'icon';

const variants: Record<ButtonVariant, string> = {
  default: 'bg-teal-700 text-white hover:bg-teal-800',
  outline: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
  destructive: 'bg-red-600 text-white hover:bg-red-700',
  ghost: 'text-slate-700 hover:bg-slate-100',
  secondary: 'bg-slate-100 text-slate-900 hover:bg-slate-200',
  link: 'text-teal-700 underline-offset-4 hover:underline',
};

// Phones first (DESIGN.md section 8): every size is at least 44x44 px below the md breakpoint; desktops,
// driven by a pointer, keep the denser sizes.
const sizes: Record<ButtonSize, string> = {
  default: 'h-11 min-w-11 px-4 py-2 text-sm md:h-10',
  sm: 'h-11 min-w-11 px-3 text-sm md:h-8 md:min-w-0',
  lg: 'h-12 min-w-12 px-6 text-base',
  icon: 'h-11 w-11 md:h-10 md:w-10',
};

/** The class list of a button, for links styled as buttons. */
export function buttonClasses(
  variant: ButtonVariant = 'default',
  size: ButtonSize = 'default',
  className?: string,
) {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600',
    'disabled:pointer-events-none disabled:opacity-50',
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Renders the child element (e.g. a router Link) with the button's styles. */
  asChild?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { className, variant = 'default', size = 'default', asChild = false, type, ...props },
  ref,
) {
  const Comp = asChild ? Slot.Root : 'button';
  return (
    <Comp
      ref={ref}
      type={asChild ? undefined : (type ?? 'button')}
      className={buttonClasses(variant, size, className)}
      {...props}
    />
  );
});
