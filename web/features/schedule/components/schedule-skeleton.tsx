/**
 * The Schedule screen's loading skeleton (spec 02 section 2): shown only until the device's first download
 * completes (web/app/first-download.tsx), never when the device already holds data, offline included.
 */
export function ScheduleSkeleton() {
  const block = 'animate-pulse rounded-md bg-slate-200';
  return (
    <div aria-hidden="true" data-testid="schedule-skeleton" className="flex flex-col gap-4">
      <div className={`${block} h-8 w-56`} />
      <div className={`${block} h-11 w-full max-w-md`} />
      <div className="grid gap-4 lg:grid-cols-2">
        {[0, 1].map((card) => (
          <div key={card} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
            <div className={`${block} h-5 w-40`} />
            {[0, 1, 2, 3].map((row) => (
              <div key={row} className={`${block} h-14 w-full`} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
