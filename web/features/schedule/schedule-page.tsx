import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** /schedule: not built yet (its issue replaces this file with the screen). */
export default function SchedulePage() {
  return <PlaceholderPage screen="schedule" />;
}
