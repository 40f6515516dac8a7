import { useCurrentUser } from '#web/app/session.tsx';
import { FinancialHealth } from './financial-health.tsx';

/**
 * The Financial Health Dashboard (spec 01 sections 2 and 9; issue 12), headed by a 'Real-time
 * Monitoring' badge.
 *
 * Contract (seam between the dashboard and the finance work): the dashboard's Financial Health tab
 * renders `<FinancialHealthPanel />` (only for users whose role may see finance; the panel also says
 * access is denied itself, and the server refuses the lists with 403).
 */
export function FinancialHealthPanel() {
  return <FinancialHealth user={useCurrentUser()} />;
}
