// Its own module: the first-download gate shows it, and must not pull the logs screen's code along.

/** The five card-shaped placeholders shown while the logs load (spec 02 section 2). */
export function LogsSkeleton() {
  return (
    <>
      {[0, 1, 2, 3, 4].map((i) => (
        <LogCardSkeleton key={i} />
      ))}
    </>
  );
}

/** A grey placeholder in the shape of a card. */
function LogCardSkeleton() {
  return (
    <div
      data-testid="log-skeleton"
      aria-hidden="true"
      className="grid animate-pulse gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex gap-3">
        <div className="h-10 w-10 rounded-full bg-slate-200" />
        <div className="grid flex-1 gap-2">
          <div className="h-4 w-2/3 rounded bg-slate-200" />
          <div className="h-3 w-1/3 rounded bg-slate-200" />
        </div>
      </div>
      <div className="h-3 w-full rounded bg-slate-200" />
      <div className="h-3 w-5/6 rounded bg-slate-200" />
    </div>
  );
}
