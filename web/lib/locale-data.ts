import { whenIdle } from './idle.ts';

/**
 * The first `Intl` object a page makes loads the browser's locale data: 15-40 ms of main thread here, about
 * four times that on a phone-class core, once per page. The signed-in code makes its date and money
 * formats as it is evaluated, so on a first visit that cost landed inside the evaluation of the signed-in
 * chunk, the longest task of the visit (about 67 ms here, with 17-19 ms of it this load). Asked for while
 * that code is still downloading, the load is a task of its own in a moment the page is otherwise idle,
 * and the evaluation is that much shorter: input is answered between the two (budget B10's blocking time).
 */
export function loadLocaleDataWhenIdle(): void {
  if (typeof window === 'undefined' || typeof Intl === 'undefined') return;
  // A format the screens use (day and month in a zone): the locale, calendar and time zone data it loads
  // are what their own formats need next.
  const load = () =>
    void new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  whenIdle(load, 1_000);
}
