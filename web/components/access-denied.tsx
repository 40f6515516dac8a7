import { ShieldAlert } from 'lucide-react';
import { Card, CardDescription, CardHeader } from './ui/card.tsx';

/** The screen a user sees at an address their role does not include. */
export function AccessDenied({ reason }: { reason: string }) {
  return (
    <section className="mx-auto max-w-3xl p-6">
      <Card>
        <CardHeader>
          <div className="flex items-center gap-2 text-red-700">
            <ShieldAlert className="h-5 w-5" aria-hidden="true" />
            <h1 className="text-xl font-semibold">Access Denied</h1>
          </div>
          <CardDescription>{reason}</CardDescription>
        </CardHeader>
      </Card>
    </section>
  );
}
