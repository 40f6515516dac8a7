import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** /rbac: not built yet (its issue replaces this file with the screen). */
export default function RbacPage() {
  return <PlaceholderPage screen="rbacAdmin" />;
}
