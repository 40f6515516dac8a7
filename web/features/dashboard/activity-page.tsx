/** The full activity list behind Recent Activity's 'View all' (DECISIONS.md; issue 12). Stub. */
export default function ActivityPage() {
  return (
    <section className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-semibold text-slate-900">Recent Activity</h1>
    </section>
  );
}
