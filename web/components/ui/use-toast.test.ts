// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  dismissToast,
  resetToasts,
  toast,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  useToast,
} from './use-toast.ts';
import { renderHook, act } from '@testing-library/react';

afterEach(() => {
  resetToasts();
  vi.useRealTimers();
});

describe('toasts (spec 01 section 9)', () => {
  it('keeps one toast at a time: the newest replaces the older', () => {
    const { result } = renderHook(() => useToast());
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', variant: 'destructive' });
    });
    expect(TOAST_LIMIT).toBe(1);
    expect(result.current.toasts.map((t) => [t.title, t.variant])).toEqual([['Second', 'destructive']]);
  });

  it('removes a dismissed toast after 1,000,000 ms', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useToast());
    act(() => {
      toast({ title: 'Saved' });
    });
    act(() => dismissToast());
    expect(result.current.toasts[0]?.open).toBe(false);
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1));
    expect(result.current.toasts).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.toasts).toHaveLength(0);
  });
});
