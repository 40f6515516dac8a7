import { z } from 'zod';

export const LoginSchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(1024),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const MIN_PASSWORD_LENGTH = 12;

export const ChangePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, 'Current password is required').max(1024),
  newPassword: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `New password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024),
});
