import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  defaultRangeExtractor,
  useWindowVirtualizer,
  windowScroll,
  type Range,
  type VirtualItem,
} from '@tanstack/react-virtual';

type Key = VirtualItem['key'];

/**
 * Items rendered beyond each edge of the viewport: they cover the compositor scrolling ahead of the main
 * thread, which renders a scroll's new rows in a task of their own after the scroll's frame (see
 * `useFlushSync` below); each one is a row more to build on mount and refill per keystroke.
 */
export const OVERSCAN = 3;

/** Items kept rendered on each side of the one holding the keyboard focus (see `rangeExtractor`). */
const KEEP_NEAR_FOCUS = 2;

export interface VirtualRowsProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /**
   * The height of an item in px at a 16 px root font; rendered multiplied by the root font size over 16
   * (larger text, WCAG 1.4.4), as the items' rem-sized CSS grows. The row's CSS gives each kind of item
   * exactly this height, so nothing is measured: a measured size re-lays out the offsets of every item after
   * it (10,000 of them) and each read forces a layout while scrolling.
   */
  sizeOf: (item: T) => number;
  render: (item: T) => ReactNode;
  'aria-label'?: string;
}

/**
 * The slot (React key) of each rendered item: an item that stays in view keeps its slot, and one that
 * scrolls in takes a slot an item that scrolled out left free. React then refills a row's DOM nodes (a few
 * texts and attributes) instead of removing one row and building another (elements, attributes, a select
 * with its options); a keystroke that changes the list does the same over every slot. New slots are made
 * only when the window holds more items than before (a taller screen).
 */
function assignSlots(previous: ReadonlyMap<Key, number>, keys: readonly Key[]): Map<Key, number> {
  const next = new Map<Key, number>();
  const taken = new Set<number>();
  for (const key of keys) {
    const slot = previous.get(key);
    if (slot !== undefined) {
      next.set(key, slot);
      taken.add(slot);
    }
  }
  const free: number[] = [];
  let made = 0;
  for (const slot of previous.values()) {
    if (!taken.has(slot)) free.push(slot);
    made = Math.max(made, slot + 1);
  }
  free.reverse();
  for (const key of keys) if (!next.has(key)) next.set(key, free.pop() ?? made++);
  return next;
}

/** The document top of each list (by its label) when last shown: a return to the screen renders it right. */
const lastTops = new Map<string, number>();
/** The root font size over 16 px when last seen (the same for every list). */
let lastTextScale = 1;

/**
 * Renders only the items near the viewport (10,000 tasks would otherwise be 10,000 rows in the DOM), on
 * the page's own scroll so the sticky filter bar and the shell keep working.
 */
export function VirtualRows<T>({ items, getKey, sizeOf, render, ...aria }: VirtualRowsProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const { top: margin, textScale } = useDocumentTop(ref, aria['aria-label'] ?? '');
  // Stable per list of items and size rule: the virtualizer lays out every item again when these change.
  const sizeRef = useRef(sizeOf);
  sizeRef.current = sizeOf;
  const keyRef = useRef(getKey);
  keyRef.current = getKey;
  const size = useCallback(
    (i: number) => Math.round(sizeRef.current(items[i]!) * textScale),
    [items, textScale],
  );
  // A new key function is what tells the virtualizer to lay the items out again, so it changes with the
  // size rule too (a phone turned sideways crosses a breakpoint; the text is made larger).
  const key = useCallback((i: number) => keyRef.current(items[i]!), [items, sizeOf, textScale]);
  // Where the window is as the list is first rendered: the virtualizer starts from it (as by default).
  const [initialOffset] = useState(() => (typeof window === 'undefined' ? 0 : window.scrollY));
  // The item holding the keyboard focus. It and the items next to it stay rendered wherever the window is:
  // Tab moves to the next row in the DOM before the (smooth) scroll that brings the focused row into view
  // has moved the window, so with only the window's rows rendered, a quick Tab left the list for <body>.
  const [focus, setFocus] = useState<{ key: Key; index: number } | null>(null);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (!focus || focus.index >= range.count || key(focus.index) !== focus.key) return indexes;
      const near = new Set(indexes);
      for (let i = focus.index - KEEP_NEAR_FOCUS; i <= focus.index + KEEP_NEAR_FOCUS; i++) {
        if (i >= 0 && i < range.count) near.add(i);
      }
      return near.size === indexes.length ? indexes : [...near].sort((a, b) => a - b);
    },
    [focus, key],
  );
  const attached = useRef(false);
  const virtualizer = useWindowVirtualizer({
    initialOffset,
    // As the virtualizer attaches to the window (a layout effect of the mount) it writes its offset back
    // to the window: the offset it read from the window a moment before, so the write moves nothing. A
    // write makes the browser style and lay out the whole new screen there and then, inside the task that
    // mounted it, and the frame after lays it out again (about 40 ms at 4x CPU when /tasks opens over
    // 10,000 tasks). That one write is skipped; every later one (a jump, a scroll adjustment) is made.
    scrollToFn: (offset, options, instance) => {
      const first = !attached.current;
      attached.current = true;
      if (first && offset === initialOffset && !options.adjustments && !options.behavior) return;
      windowScroll(offset, options, instance);
    },
    count: items.length,
    estimateSize: size,
    getItemKey: key,
    overscan: OVERSCAN,
    // A scroll's new rows are rendered in a task of their own, not inside the scroll event. The scroll
    // event runs in the frame's own task, so rendering there put React's work (about 3 ms at 1x CPU for a
    // step of nine rows) and the frame's style, layout and paint (about 10 ms) in one task: over 50 ms at
    // 4x for most wheel steps over 10,000 tasks (B13). The page's scrolling is the compositor's either way:
    // a finger's scroll moves a few px per frame, which the overscan covers; a mouse wheel's step of 600 px
    // can show the list's empty background below the rows for a frame before they come, as it could while
    // the frame waited for them.
    useFlushSync: false,
    rangeExtractor,
    scrollMargin: margin,
    // The window's size from the start: measured only after mounting, the first render showed the
    // overscan alone and the measurement rendered every row again, synchronously, in the same task.
    initialRect:
      typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
  });
  const shown = virtualizer.getVirtualItems();
  // Recomputed from the last render's slots, so a render React throws away leaves them consistent.
  const slotsRef = useRef<Map<Key, number>>(new Map());
  const slots = assignSlots(
    slotsRef.current,
    shown.map((v) => v.key),
  );
  slotsRef.current = slots;
  // A recycled slot that held the focus now shows another item: the focus leaves it, as it left an
  // unmounted row before, so Enter or Space never acts on a task the user did not pick.
  const focused = useRef<{ slot: HTMLElement; item: string } | null>(null);
  useLayoutEffect(() => {
    const f = focused.current;
    if (!f) return;
    const active = document.activeElement;
    if (f.slot.dataset.item !== f.item && active instanceof HTMLElement && f.slot.contains(active)) {
      focused.current = null;
      active.blur();
    }
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
      onFocus={(e) => {
        const slot = (e.target as HTMLElement).closest<HTMLElement>('[data-item]');
        focused.current = slot ? { slot, item: slot.dataset.item! } : null;
        const item = slot && shown.find((v) => String(v.key) === slot.dataset.item);
        setFocus((prev) =>
          !item
            ? null
            : prev?.key === item.key && prev.index === item.index
              ? prev
              : { key: item.key, index: item.index },
        );
      }}
      onBlur={(e) => {
        // Focus leaving the list: the window alone decides what is rendered again.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocus(null);
      }}
    >
      {shown.map((v) => (
        <div
          key={slots.get(v.key)}
          data-item={String(v.key)}
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
 * bulk bar, wrapping). Read only in a ResizeObserver callback, which comes once layout is done (its first
 * one in the frame after mounting, before that frame is painted), so reading it never forces a layout:
 * per render, that was a layout per scroll step (about 100 ms tasks at 4x CPU throttle with 10,000 tasks);
 * at mount, in a layout effect, it forced the style and layout of the whole new screen inside the task that
 * rendered it (20 of the 49 ms of a first visit's longest task, Lighthouse mobile on /tasks). It starts
 * from the value this list had when last shown, so a return to the screen is right at once. A first mount
 * starts from 0: the rows' places do not depend on it (each is placed within the list), only the choice of
 * rows near the viewport does, so at the top of the page, where a screen opens, that first frame renders
 * the rows above the fold plus as many as the list is far from the page's top, and the next one the
 * right ones.
 */
function useDocumentTop(
  ref: React.RefObject<HTMLElement | null>,
  name: string,
): { top: number; textScale: number } {
  const [top, setTop] = useState(() => lastTops.get(name) ?? 0);
  // The root font size, read in the same callback for the same reason (styles are clean there): text made
  // larger (a browser or phone setting, 200% text) grows the page, and the callback comes.
  const [textScale, setTextScale] = useState(lastTextScale);
  useEffect(() => {
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => {
      const el = ref.current;
      if (!el) return;
      const next = Math.round(el.getBoundingClientRect().top + window.scrollY);
      lastTops.set(name, next);
      setTop((prev) => (Math.abs(prev - next) > 1 ? next : prev));
      const scale = parseFloat(getComputedStyle(document.documentElement).fontSize) / 16 || 1;
      lastTextScale = scale;
      setTextScale((prev) => (Math.abs(prev - scale) > 0.01 ? scale : prev));
    });
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref, name]);
  return { top, textScale };
}
