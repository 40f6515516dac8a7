/**
 * The Financial Health Dashboard (spec 01 sections 2 and 9; issue 12), headed by a 'Real-time
 * Monitoring' badge.
 *
 * Contract (seam between the dashboard and the finance work): the dashboard's Financial Health tab
 * renders `<FinancialHealthPanel />` (only for users whose role may see finance; the panel also says so
 * itself when the server refuses). Stub until the panel is built.
 */
export function FinancialHealthPanel() {
  return (
    <section aria-label="Financial Health">
      <p className="text-sm text-slate-600">Financial health is on its way.</p>
    </section>
  );
}
