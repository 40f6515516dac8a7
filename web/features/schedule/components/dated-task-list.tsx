import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SyncDb, TaskRow } from '#sync/db.ts';
import { cn } from '#web/lib/cn.ts';
import { useTaskWindow } from '../hooks/use-schedule-data.ts';

/** Up to this many tasks are rendered as they are; beyond it only the visible ones (10,000 in a large company). */
export const PLAIN_LIST_LIMIT = 150;

/** The height of a long horizontal list (a Timeline card with a two-line title fits). */
const HORIZONTAL_HEIGHT = 300;

export interface DatedTaskListProps {
  db: SyncDb;
  /** Task ids in display order. */
  ids: readonly string[];
  horizontal?: boolean;
  /** An item's size along the list, in px (width when horizontal), for the virtual window. */
  itemSize: number;
  label: string;
  /** The item the list first shows at its start (then the user scrolls freely). */
  startIndex?: number;
  className?: string;
  renderItem: (task: TaskRow) => ReactNode;
}

/**
 * A long list of tasks read by key: short lists render whole; long ones render only the items in view
 * (TanStack Virtual) and read only those rows from the device database.
 */
export function DatedTaskList(props: DatedTaskListProps) {
  const { db, ids, horizontal = false, itemSize } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = ids.length > PLAIN_LIST_LIMIT;
  const virtualizer = useVirtualizer({
    count: ids.length,
    horizontal,
    enabled: virtual,
    getScrollElement: () => scroller.current,
    estimateSize: () => itemSize,
    overscan: 6,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const start = virtual ? (items[0]?.index ?? 0) : 0;
  const end = virtual ? (items[items.length - 1]?.index ?? -1) + 1 : ids.length;
  const rows = useTaskWindow(db, ids, start, end);
  const positioned = useRef(false);
  const { startIndex = 0 } = props;
  const rendered = virtual || rows !== undefined;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (positioned.current || !el || !rendered || startIndex <= 0) return;
    positioned.current = true;
    const offset = startIndex * itemSize;
    if (horizontal) el.scrollLeft = offset;
    else el.scrollTop = offset;
  }, [rendered, startIndex, itemSize, horizontal]);
  const byId = new Map((rows ?? []).map((t) => [t.id, t]));

  const listClass = horizontal ? 'flex gap-3' : 'flex flex-col gap-2';
  return (
    <div
      ref={scroller}
      role="region"
      aria-label={props.label}
      tabIndex={0}
      className={cn(
        'focus-visible:outline-2 focus-visible:outline-teal-600',
        horizontal ? 'overflow-x-auto pb-3' : 'max-h-[70vh] overflow-y-auto',
        props.className,
      )}
    >
      {virtual ? (
        <ul
          className="relative"
          style={
            horizontal
              ? // Items are positioned absolutely, so the row needs a height of its own.
                { width: virtualizer.getTotalSize(), height: HORIZONTAL_HEIGHT }
              : { height: virtualizer.getTotalSize() }
          }
        >
          {items.map((item) => {
            const task = byId.get(ids[item.index] ?? '');
            return (
              <li
                key={item.key}
                className="absolute top-0 left-0"
                style={
                  horizontal
                    ? { transform: `translateX(${item.start}px)`, width: itemSize - 12, height: '100%' }
                    : { transform: `translateY(${item.start}px)`, height: itemSize - 8, width: '100%' }
                }
              >
                {task ? props.renderItem(task) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <ul className={listClass}>
          {ids.map((id) => {
            const task = byId.get(id);
            return task ? (
              <li
                key={id}
                className={horizontal ? 'shrink-0' : undefined}
                style={horizontal ? { width: itemSize - 12 } : undefined}
              >
                {props.renderItem(task)}
              </li>
            ) : null;
          })}
        </ul>
      )}
    </div>
  );
}
