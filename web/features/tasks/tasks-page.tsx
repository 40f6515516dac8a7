import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** /tasks: not built yet (its issue replaces this file with the screen). */
export default function TasksPage() {
  return <PlaceholderPage screen="tasks" />;
}
