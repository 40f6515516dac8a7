import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** Dashboard (spec 01 section 2; issue 12). Stub until the dashboard is built. */
export default function DashboardPage() {
  return <PlaceholderPage screen="dashboard" />;
}
