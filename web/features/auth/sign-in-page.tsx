import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { returnPathFrom } from '#web/app/app-paths.ts';
import { readSessionEnded } from '#web/app/session-ended.ts';
import { useSession } from '#web/app/session.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { apiJson, isNetworkError } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/session-user.ts';
import { SIGN_IN_ERROR_TITLE, signInErrorMessage } from './sign-in-errors.ts';
import { SignInForm } from './sign-in-form.tsx';

/** What a user whose session ended on its own reads above the form (web/app/session-ended.ts). */
export function sessionEndedNotice(waiting: number): string {
  const what = waiting === 1 ? '1 change' : `${waiting} changes`;
  const kept = waiting === 1 ? 'it is kept' : 'they are kept';
  return waiting > 0
    ? `Your session has ended. Sign in again to send the ${what} waiting on this device; ${kept} until then.`
    : 'Your session has ended. Sign in again to continue.';
}

/** Spec 01 section 2: email and password (both required), 'Signing in...' while pending, Back to Landing. */
export default function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { signedIn } = useSession();
  const [ended] = useState(readSessionEnded);
  const [email, setEmail] = useState(ended?.email ?? '');
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
    <SignInForm
      notice={ended && sessionEndedNotice(ended.waiting)}
      email={email}
      password={password}
      error={error}
      pending={login.isPending}
      onEmailChange={setEmail}
      onPasswordChange={setPassword}
      onSubmit={onSubmit}
      onBack={() => navigate('/')}
      passwordRef={passwordField}
    />
  );
}
