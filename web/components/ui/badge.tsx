import type { HTMLAttributes } from 'react';
import { cn } from '#web/lib/cn.ts';

export type BadgeVariant =
  'default' | 'secondary' | 'outline' | 'destructive' | 'success' | 'warning' | 'info';

const variants: Record<BadgeVariant, string> = {
  default: 'bg-teal-700 text-white',
  secondary: 'bg-slate-100 text-slate-800',
  outline: 'border border-slate-300 text-slate-800',
  destructive: 'bg-red-100 text-red-800',
  success: 'bg-green-100 text-green-800',
  warning: 'bg-amber-100 text-amber-900',
  info: 'bg-blue-100 text-blue-800',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

/** The classes of a badge: for lists that render many and compute them once. */
export const badgeClass = (variant: BadgeVariant = 'default', className?: string): string =>
  cn(
    'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
    variants[variant],
    className,
  );

export function Badge({ className, variant = 'default', ...props }: BadgeProps) {
  return <span className={badgeClass(variant, className)} {...props} />;
}
