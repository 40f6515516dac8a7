import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { cn } from '#web/lib/cn.ts';
import { fieldClasses } from './input.tsx';

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(
  function Textarea({ className, rows = 3, ...props }, ref) {
    return <textarea ref={ref} rows={rows} className={cn(fieldClasses, 'min-h-20', className)} {...props} />;
  },
);
