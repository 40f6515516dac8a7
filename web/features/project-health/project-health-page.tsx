import PlaceholderPage from '#web/features/placeholder/placeholder-page.tsx';

/** Project Health (spec 02 section 2; issue 12). Stub until the screen is built. */
export default function ProjectHealthPage() {
  return <PlaceholderPage screen="projectHealth" />;
}
