import type { FormEvent, Ref } from 'react';
import { ArrowLeft, HardHat } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';

export interface SignInFormProps {
  email: string;
  password: string;
  /** The last failed sign-in's message, read with the fields it describes. */
  error: string | null;
  pending: boolean;
  onEmailChange(value: string): void;
  onPasswordChange(value: string): void;
  onSubmit(e: FormEvent): void;
  onBack(): void;
  passwordRef?: Ref<HTMLInputElement>;
  /**
   * Rendered into the page by the server before the app's code arrives (ADR 029): the same markup, with
   * the form inert until the app replaces it, so nothing typed there is lost and nothing is submitted
   * without the app (a plain form would put the password in the address).
   */
  prepaint?: boolean;
  /** Why the user is here, above the form (a session that ended with work waiting on the device). */
  notice?: string | null;
}

/** Spec 01 section 2: the sign-in card. What it shows, with no state of its own (sign-in-page.tsx has it). */
export function SignInForm(props: SignInFormProps) {
  const { error, pending } = props;
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <HardHat className="h-10 w-10 text-teal-700" aria-hidden="true" />
          <h1 className="text-2xl font-semibold text-slate-900">Sign in to SiteCommand</h1>
          <CardDescription>Use the email and password your company gave you.</CardDescription>
        </CardHeader>
        <CardContent>
          {props.notice && (
            <p
              role="status"
              className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
            >
              {props.notice}
            </p>
          )}
          <form onSubmit={props.onSubmit} className="flex flex-col gap-4" inert={props.prepaint}>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="email">Email</Label>
              <Input
                id="email"
                type="email"
                autoComplete="username"
                required
                aria-invalid={error !== null || undefined}
                aria-describedby={error !== null ? 'sign-in-error' : undefined}
                value={props.email}
                onChange={(e) => props.onEmailChange(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="password">Password</Label>
              <Input
                id="password"
                type="password"
                autoComplete="current-password"
                required
                ref={props.passwordRef}
                aria-invalid={error !== null || undefined}
                aria-describedby={error !== null ? 'sign-in-error' : undefined}
                value={props.password}
                onChange={(e) => props.onPasswordChange(e.target.value)}
              />
            </div>
            {/* Read with the fields it describes when focus lands on the password; the toast may be gone. */}
            {error !== null && (
              <p id="sign-in-error" className="text-sm text-red-700">
                {error}
              </p>
            )}
            <Button type="submit" disabled={pending} className="w-full">
              {pending ? 'Signing in...' : 'Sign In'}
            </Button>
            <Button variant="ghost" className="w-full" onClick={props.onBack}>
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back to Landing
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
