/** Business rules of both specs as pure functions (DESIGN.md section 9). No I/O; `now` is always passed in. */
export * from './dates.ts';
export * from './financial-health.ts';
export * from './project-health-label.ts';
export * from './overview-metrics.ts';
export * from './dashboard-selections.ts';
export * from './due-date-text.ts';
export * from './progress-colour.ts';
export * from './risk.ts';
export * from './health-bands.ts';
export * from './project-health.ts';
export * from './company-domain.ts';
export * from './subs-board.ts';
export * from './timeline.ts';
export * from './gantt.ts';
export * from './calendar-month.ts';
export * from './crew-day.ts';
export * from './log-filters.ts';
