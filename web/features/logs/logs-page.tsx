import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** /logs: not built yet (its issue replaces this file with the screen). */
export default function LogsPage() {
  return <PlaceholderPage screen="logs" />;
}
