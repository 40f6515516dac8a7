// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import Dexie, { type Table } from 'dexie';
import { useLiveQuery as libraryLiveQuery } from 'dexie-react-hooks';
import { useLiveQuery } from './live-query.ts';

// These tests use React's real scheduler, not act(): act() flushes every update at once, which hides
// whether a render yields.
declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

interface Item {
  id: number;
  label: string;
}

class ItemsDb extends Dexie {
  items!: Table<Item, number>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ items: 'id' });
  }
}

const ROWS = 120;
/** Each row takes this long to render: a phone at 4x slowdown renders a dashboard card in about as long. */
const ROW_MS = 1;

let db: ItemsDb;
let root: Root;
let container: HTMLElement;
let log: string[];
let actEnvironment: boolean | undefined;

function SlowRow({ label }: { label: string }) {
  log.push(`render ${label}`);
  const until = performance.now() + ROW_MS;
  while (performance.now() < until) {
    // Stands in for the work of a real row.
  }
  return <li>{label}</li>;
}

function List({ hook }: { hook: typeof useLiveQuery }) {
  const items = hook(() => db.items.toArray(), []);
  return (
    <ul>
      {items?.map((item) => (
        <SlowRow key={item.id} label={item.label} />
      ))}
    </ul>
  );
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}

const rows = (label: string) => Array.from({ length: ROWS }, (_, id) => ({ id, label: `${label}${id}` }));

/**
 * Runs `change` while a ticker runs between macrotasks, waits until the first row reads `b0`, and returns
 * how many ticks ran between the first and the last row rendered for the change (all rows become `b*`).
 */
async function ticksWhile(change: () => Promise<unknown> | void): Promise<number> {
  log = [];
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    log.push('tick');
    setTimeout(tick, 0);
  };
  tick();
  await change();
  await until(() => container.querySelector('li')?.textContent === 'b0');
  ticking = false;
  const first = log.indexOf('render b0');
  const last = log.lastIndexOf(`render b${ROWS - 1}`);
  expect(first).toBeGreaterThanOrEqual(0);
  return log.slice(first, last).filter((entry) => entry === 'tick').length;
}

/** Renders the list, then replaces every row in the table (as a pulled page does); see `ticksWhile`. */
async function ticksDuringRender(hook: typeof useLiveQuery): Promise<number> {
  await db.items.bulkPut(rows('a'));
  flushSync(() => root.render(<List hook={hook} />));
  await until(() => container.querySelectorAll('li').length === ROWS);
  return ticksWhile(() => db.items.bulkPut(rows('b')));
}

describe('useLiveQuery (web/lib/live-query.ts)', () => {
  beforeEach(() => {
    actEnvironment = globalThis.IS_REACT_ACT_ENVIRONMENT;
    globalThis.IS_REACT_ACT_ENVIRONMENT = false;
    db = new ItemsDb(`live-query-${Math.random()}`);
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    log = [];
  });

  afterEach(async () => {
    root.unmount();
    container.remove();
    await db.delete();
    globalThis.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
  });

  it('renders a changed result in slices: other tasks run while its rows render (budget B10)', async () => {
    // 120 rows of 1 ms: React's transition yields every 5 ms, so the ticker runs many times in between.
    expect(await ticksDuringRender(useLiveQuery)).toBeGreaterThanOrEqual(5);
  });

  it("(the comparison) dexie-react-hooks' own hook renders the same change as one blocking task", async () => {
    expect(await ticksDuringRender(libraryLiveQuery)).toBe(0);
  });

  it('renders the first result at once, in one task: it is what the user just opened (budget B13)', async () => {
    await db.items.bulkPut(rows('b'));
    // Mounted with the ticker running: the first answer's rows render with no tick in between.
    const ticks = await ticksWhile(() => flushSync(() => root.render(<List hook={useLiveQuery} />)));
    expect(ticks).toBe(0);
  });

  it('answers with the rows, then with the rows after a write, like the library hook', async () => {
    await db.items.bulkPut([{ id: 1, label: 'first' }]);
    flushSync(() => root.render(<List hook={useLiveQuery} />));
    await until(() => container.textContent === 'first');
    await db.items.put({ id: 2, label: 'second' });
    await until(() => container.textContent === 'firstsecond');
  });
});
