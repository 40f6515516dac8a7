import { z } from 'zod';

export const LoginSchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(1024),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const MIN_PASSWORD_LENGTH = 12;

/** What is wrong with a password someone sets (`name` starts the sentence), or null. */
export function passwordProblem(value: string, name = 'Password'): string | null {
  if (value.length < MIN_PASSWORD_LENGTH) return `${name} must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (value.trim() === '') return `${name} must not be only spaces`;
  return null;
}

/**
 * What is wrong with a new password in place of `current`, or null: the one rule of the Set a new password
 * form and of the server. A one-time password "changed" to itself is still the one the administrator knows.
 */
export function newPasswordProblem(next: string, current: string): string | null {
  return (
    passwordProblem(next, 'New password') ??
    (next === current ? 'Choose a password different from the current one' : null)
  );
}

export const ChangePasswordSchema = z
  .strictObject({
    currentPassword: z.string().min(1, 'Current password is required').max(1024),
    newPassword: z.string().max(1024),
  })
  .superRefine((v, ctx) => {
    const problem = newPasswordProblem(v.newPassword, v.currentPassword);
    if (problem) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: problem });
  });
