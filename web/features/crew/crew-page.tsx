import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** /crew: not built yet (its issue replaces this file with the screen). */
export default function CrewPage() {
  return <PlaceholderPage screen="crew" />;
}
