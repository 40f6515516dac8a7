import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';

export interface VirtualRowsProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /** A first guess of an item's height in px; real heights are measured once rendered. */
  estimateSize: (item: T) => number;
  render: (item: T) => ReactNode;
  'aria-label'?: string;
}

/**
 * Renders only the items near the viewport (10,000 tasks would otherwise be 10,000 rows in the DOM), on
 * the page's own scroll so the sticky filter bar and the shell keep working.
 */
export function VirtualRows<T>({ items, getKey, estimateSize, render, ...aria }: VirtualRowsProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  // The list starts below the tiles and toolbar, whose height changes (filter panel, bulk bar, wrapping).
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top + window.scrollY;
    if (Math.abs(top - margin) > 1) setMargin(top);
  });
  // Stable per list of items: the virtualizer recomputes every item's offset (10,000 of them) whenever
  // these functions change, and a scroll re-renders this component many times a second.
  const sizeRef = useRef(estimateSize);
  sizeRef.current = estimateSize;
  const keyRef = useRef(getKey);
  keyRef.current = getKey;
  const size = useCallback((i: number) => sizeRef.current(items[i]!), [items]);
  const key = useCallback((i: number) => keyRef.current(items[i]!), [items]);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: size,
    getItemKey: key,
    overscan: 6,
    scrollMargin: margin,
  });
  return (
    <div
      ref={ref}
      role="region"
      {...aria}
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((v) => (
        <div
          key={v.key}
          data-index={v.index}
          ref={virtualizer.measureElement}
          className="absolute top-0 left-0 w-full"
          style={{ transform: `translateY(${v.start - margin}px)` }}
        >
          {render(items[v.index]!)}
        </div>
      ))}
    </div>
  );
}
