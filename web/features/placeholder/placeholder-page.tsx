import { Construction } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { PLACEHOLDER_SCREENS, type PlaceholderKey } from './screens.ts';

/** A screen that is not built yet: its title and what it will hold. The route guard decides who sees it. */
export default function PlaceholderPage({ screen }: { screen: PlaceholderKey }) {
  const info = PLACEHOLDER_SCREENS[screen];

  return (
    <section className="mx-auto max-w-3xl p-6">
      <h1 className="mb-4 text-2xl font-semibold text-slate-900">{info.title}</h1>
      <Card>
        <CardHeader>
          <div className="flex items-center gap-2">
            <Construction className="h-5 w-5 text-amber-600" aria-hidden="true" />
            <CardTitle>This screen is on its way</CardTitle>
          </div>
          <CardDescription>{info.summary}</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="mb-2 text-sm font-medium text-slate-700">What you will find here:</p>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            {info.upcoming.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </section>
  );
}
