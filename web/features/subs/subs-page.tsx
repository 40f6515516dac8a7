import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** /subs: not built yet (its issue replaces this file with the screen). */
export default function SubsPage() {
  return <PlaceholderPage screen="subs" />;
}
