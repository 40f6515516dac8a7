import { useSyncExternalStore } from 'react';

/** Spec 01 section 9: at most one toast at a time; a dismissed toast is removed after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** Display time of a toast. */
export const TOAST_DURATION_MS = 5_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

type Listener = () => void;

let items: ToastItem[] = [];
let counter = 0;
const listeners = new Set<Listener>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  const timer = setTimeout(() => {
    removeTimers.delete(id);
    emit(items.filter((t) => t.id !== id));
  }, TOAST_REMOVE_DELAY_MS);
  removeTimers.set(id, timer);
}

/** Closes a toast (or all of them); it is removed from the list after the removal delay. */
export function dismissToast(id?: string) {
  for (const t of items) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  emit(items.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

/** Shows a toast; the newest replaces older ones (TOAST_LIMIT). Returns its id and a dismiss function. */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  emit([{ ...input, variant: input.variant ?? 'default', id, open: true }, ...items].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(l: Listener) {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}

const getSnapshot = () => items;

/** The current toasts, and the toast functions. */
export function useToast() {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts, toast, dismiss: dismissToast };
}

/** Test helper: forgets every toast and timer. */
export function resetToasts() {
  for (const t of removeTimers.values()) clearTimeout(t);
  removeTimers.clear();
  emit([]);
}
