import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from '#shared/schemas/auth.ts';
import { useSession } from '#web/app/session.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { FieldError, Label } from '#web/components/ui/label.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { apiRequest, serverMessage } from '#web/lib/api.ts';

/** Checks the form before sending; returns the field errors. */
export function validateNewPassword(v: {
  current: string;
  next: string;
  confirm: string;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.current) errors.current = 'Current password is required';
  const problem = newPasswordProblem(v.next, v.current);
  if (problem) errors.next = problem;
  if (v.confirm !== v.next) errors.confirm = 'The two new passwords do not match';
  return errors;
}

/** A user with a one-time password sets a new one before anything else (DECISIONS.md). */
export default function ChangePasswordPage() {
  const { refresh, signOut } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const change = useMutation({
    // As on sign-in: offline, fail at once rather than pause with the form waiting.
    networkMode: 'always',
    mutationFn: () =>
      apiRequest('POST', '/api/auth/change-password', { currentPassword: current, newPassword: next }),
    onSuccess: async () => {
      toast({ title: 'Password changed', description: 'Your new password is set.' });
      await refresh();
    },
    onError: (err) => {
      const message = serverMessage(err);
      if (/current password/i.test(message)) setErrors({ current: message });
      else toast({ title: 'Could not change the password', description: message, variant: 'destructive' });
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateNewPassword({ current, next, confirm });
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate();
  };

  const field = (
    id: string,
    label: string,
    value: string,
    set: (v: string) => void,
    autoComplete: string,
  ) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        required
        autoComplete={autoComplete}
        value={value}
        aria-invalid={errors[id] ? true : undefined}
        aria-describedby={errors[id] ? `${id}-error` : undefined}
        onChange={(e) => set(e.target.value)}
      />
      <FieldError id={`${id}-error`}>{errors[id]}</FieldError>
    </div>
  );

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <KeyRound className="h-10 w-10 text-teal-700" aria-hidden="true" />
          <h1 className="text-2xl font-semibold text-slate-900">Set a new password</h1>
          <CardDescription>
            Your administrator gave you a one-time password. Choose your own to continue (at least{' '}
            {MIN_PASSWORD_LENGTH} characters).
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
            {field('current', 'Current password', current, setCurrent, 'current-password')}
            {field('next', 'New password', next, setNext, 'new-password')}
            {field('confirm', 'Confirm new password', confirm, setConfirm, 'new-password')}
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Set new password'}
            </Button>
            <Button variant="ghost" onClick={() => void signOut()}>
              Sign Out
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
