import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** /photos: not built yet (its issue replaces this file with the screen). */
export default function PhotosPage() {
  return <PlaceholderPage screen="photos" />;
}
