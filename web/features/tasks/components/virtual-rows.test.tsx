// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { VirtualRows } from './virtual-rows.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const ROW = 64;
const items = Array.from({ length: 1000 }, (_, i) => `Task ${i}`);

/** The 1,000 items as rows of 64 px, each a paragraph with the item's text. */
const renderRows = (label: string) =>
  render(
    <VirtualRows
      items={items}
      getKey={(t) => t}
      sizeOf={() => ROW}
      render={(t) => <p>{t}</p>}
      aria-label={label}
    />,
  );

it("mounts without reading the page's layout, then keeps to the rows near the viewport once it is read", () => {
  // The browser calls a ResizeObserver once layout is done; the test says when.
  const observers: (() => void)[] = [];
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly callback: () => void) {}
      observe() {
        observers.push(this.callback);
      }
      disconnect() {}
    },
  );
  const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');

  renderRows('Mount test');
  // No layout was forced while mounting: the list's top is not known yet, so it is taken as the page's top.
  expect(rect).not.toHaveBeenCalled();
  const before = screen.getAllByText(/^Task \d+$/).length;

  // Laid out 6 rows below the page's top (tiles and filters above it): 6 rows fewer are near the viewport.
  rect.mockReturnValue({ top: 6 * ROW } as DOMRect);
  act(() => observers.forEach((callback) => callback()));
  expect(rect).toHaveBeenCalled();
  expect(screen.getAllByText(/^Task \d+$/).length).toBe(before - 6);
  expect(screen.getByText('Task 0')).toBeTruthy();
});

it('mounts where the window already is without writing to its scroll, which would force a layout of the new screen', () => {
  vi.stubGlobal('ResizeObserver', undefined);
  // The window scrolled 10 rows down when the list mounts (a screen left scrolled, or a return to it).
  vi.stubGlobal('scrollY', 10 * ROW);
  const scrollTo = vi.fn();
  vi.stubGlobal('scrollTo', scrollTo);

  renderRows('Scroll test');
  // The rows are those near where the window is, and the window was not moved (nor told to stay).
  expect(scrollTo).not.toHaveBeenCalled();
  expect(screen.queryByText('Task 0')).toBeNull();
  expect(screen.getByText('Task 10')).toBeTruthy();
});

it('keeps the rows after the focused one rendered, so Tab never runs out of rows before the window scrolls', () => {
  vi.stubGlobal('ResizeObserver', undefined);
  render(
    <VirtualRows
      items={items}
      getKey={(t) => t}
      sizeOf={() => ROW}
      render={(t) => <button type="button">{t}</button>}
      aria-label="Focus test"
    />,
  );
  const shown = () => screen.getAllByRole('button').map((b) => b.textContent);
  const last = shown().at(-1)!;
  const lastIndex = Number(last.replace('Task ', ''));
  // Tab reaches the last rendered row; the window has not scrolled yet (a smooth scroll is on its way).
  act(() => screen.getByRole('button', { name: last }).focus());
  expect(shown()).toContain(`Task ${lastIndex + 1}`);
  expect(shown()).toContain(`Task ${lastIndex + 2}`);
  // The next Tab lands on the next row, and the one after it is there in turn.
  act(() => screen.getByRole('button', { name: `Task ${lastIndex + 1}` }).focus());
  expect(shown()).toContain(`Task ${lastIndex + 3}`);
  // Focus leaving the list: only the window's rows again.
  act(() => (document.activeElement as HTMLElement).blur());
  expect(shown().at(-1)).toBe(last);
});
