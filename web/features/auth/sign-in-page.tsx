import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { ArrowLeft, HardHat } from 'lucide-react';
import { returnPathFrom } from '#web/app/app-paths.ts';
import { useSession } from '#web/app/session.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { apiJson, isNetworkError } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/session-user.ts';
import { SIGN_IN_ERROR_TITLE, signInErrorMessage } from './sign-in-errors.ts';

/** Spec 01 section 2: email and password (both required), 'Signing in...' while pending, Back to Landing. */
export default function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { signedIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const passwordField = useRef<HTMLInputElement>(null);

  const login = useMutation({
    // Offline, React Query would pause the call and leave 'Signing in...' up until the signal returns;
    // sent at once, it fails at once with the "cannot reach the server" message.
    networkMode: 'always',
    mutationFn: (body: { email: string; password: string }) =>
      apiJson<SessionUser>('POST', '/api/auth/login', body),
    onSuccess: (user) => {
      signedIn(user);
      // Back to the bookmarked screen that sent the user here (DECISIONS.md), else the dashboard.
      navigate(returnPathFrom(location.search) ?? '/dashboard', { replace: true });
    },
    onError: (err) => {
      // No answer at all reads as "cannot reach the server" (spec: message containing 'server').
      const text = isNetworkError(err)
        ? 'Unable to reach the server'
        : err instanceof Error
          ? err.message
          : String(err);
      const message = signInErrorMessage(text);
      setError(message);
      toast({ title: SIGN_IN_ERROR_TITLE, description: message, variant: 'destructive' });
      // The Sign In button was disabled while pending, which drops focus to <body>: put it back where the
      // user retypes, selected, so a wrong password is replaced rather than appended to.
      passwordField.current?.focus();
      passwordField.current?.select();
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    login.mutate({ email, password });
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <HardHat className="h-10 w-10 text-teal-700" aria-hidden="true" />
          <h1 className="text-2xl font-semibold text-slate-900">Sign in to SiteCommand</h1>
          <CardDescription>Use the email and password your company gave you.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="flex flex-col gap-4">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="email">Email</Label>
              <Input
                id="email"
                type="email"
                autoComplete="username"
                required
                aria-invalid={error !== null || undefined}
                aria-describedby={error !== null ? 'sign-in-error' : undefined}
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="password">Password</Label>
              <Input
                id="password"
                type="password"
                autoComplete="current-password"
                required
                ref={passwordField}
                aria-invalid={error !== null || undefined}
                aria-describedby={error !== null ? 'sign-in-error' : undefined}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
            {/* Read with the fields it describes when focus lands on the password; the toast may be gone. */}
            {error !== null && (
              <p id="sign-in-error" className="text-sm text-red-700">
                {error}
              </p>
            )}
            <Button type="submit" disabled={login.isPending} className="w-full">
              {login.isPending ? 'Signing in...' : 'Sign In'}
            </Button>
            <Button variant="ghost" className="w-full" onClick={() => navigate('/')}>
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back to Landing
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
