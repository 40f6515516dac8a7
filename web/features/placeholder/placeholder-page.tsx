import { Construction, ShieldAlert } from 'lucide-react';
import { useSession } from '#web/app/session.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { isAdmin } from '#web/lib/session-user.ts';
import { PLACEHOLDER_SCREENS, type PlaceholderKey } from './screens.ts';

/** A screen that is not built yet: its title, what it will hold, or why this user cannot open it. */
export default function PlaceholderPage({ screen }: { screen: PlaceholderKey }) {
  const { user } = useSession();
  const info = PLACEHOLDER_SCREENS[screen];
  const allowed =
    screen === 'rbacAdmin'
      ? !!user && (isAdmin(user) || user.permissions.rbacAdmin)
      : !!user?.permissions[screen];

  if (!allowed) {
    return (
      <section className="mx-auto max-w-3xl p-6">
        <Card>
          <CardHeader>
            <div className="flex items-center gap-2 text-red-700">
              <ShieldAlert className="h-5 w-5" aria-hidden="true" />
              <h1 className="text-xl font-semibold">Access Denied</h1>
            </div>
            <CardDescription>
              {screen === 'rbacAdmin'
                ? 'RBAC Administration requires admin privileges.'
                : `Your role does not include the ${info.title} screen.`}
            </CardDescription>
          </CardHeader>
        </Card>
      </section>
    );
  }

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
