import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';

/** Items rendered beyond each edge of the viewport, so a fast wheel or fling shows no blank band. */
export const OVERSCAN = 6;

export interface VirtualRowsProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /**
   * The height of an item in px. The row's CSS gives each kind of item exactly this height, so nothing is
   * measured: a measured size re-lays out the offsets of every item after it (10,000 of them) and each read
   * forces a layout while scrolling.
   */
  sizeOf: (item: T) => number;
  render: (item: T) => ReactNode;
  'aria-label'?: string;
}

/**
 * Renders only the items near the viewport (10,000 tasks would otherwise be 10,000 rows in the DOM), on
 * the page's own scroll so the sticky filter bar and the shell keep working.
 */
export function VirtualRows<T>({ items, getKey, sizeOf, render, ...aria }: VirtualRowsProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const margin = useDocumentTop(ref);
  // Stable per list of items and size rule: the virtualizer lays out every item again when these change.
  const sizeRef = useRef(sizeOf);
  sizeRef.current = sizeOf;
  const keyRef = useRef(getKey);
  keyRef.current = getKey;
  const size = useCallback((i: number) => sizeRef.current(items[i]!), [items]);
  // A new key function is what tells the virtualizer to lay the items out again, so it changes with the
  // size rule too (a phone turned sideways crosses a breakpoint).
  const key = useCallback((i: number) => keyRef.current(items[i]!), [items, sizeOf]);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: size,
    getItemKey: key,
    overscan: OVERSCAN,
    scrollMargin: margin,
  });
  return (
    <div
      ref={ref}
      role="region"
      {...aria}
      className="relative w-full"
      // Sizes are known, so the browser may lay out and paint the list and each item on their own: a
      // scroll step that mounts a few rows restyles and lays out those rows, not the page.
      style={{ height: virtualizer.getTotalSize(), contain: 'size layout style' }}
    >
      {virtualizer.getVirtualItems().map((v) => (
        <div
          key={v.key}
          className="absolute top-0 left-0 w-full"
          style={{ height: v.size, transform: `translateY(${v.start - margin}px)`, contain: 'strict' }}
        >
          {render(items[v.index]!)}
        </div>
      ))}
    </div>
  );
}

/**
 * The element's top in the document, which moves when the content above it changes height (filter panel,
 * bulk bar, wrapping). Read once when mounted and then only when the page's size changes, in a
 * ResizeObserver callback where layout is already done: reading it on every render forced a layout per
 * scroll step (about 100 ms tasks at 4x CPU throttle with 10,000 tasks).
 */
function useDocumentTop(ref: React.RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  const read = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const next = Math.round(el.getBoundingClientRect().top + window.scrollY);
    setTop((prev) => (Math.abs(prev - next) > 1 ? next : prev));
  }, [ref]);
  useLayoutEffect(read, [read]);
  useEffect(() => {
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(read);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [read]);
  return top;
}
