import { z } from 'zod';
import { inputText } from './common';

export const figureInfoSchema = z.object({
  identityUuid: z.uuid(),
  email: z.email(),
  name: z.string(),
  /** Roles keyed by service, e.g. { 'service-dart': ['ROLE_DART_ADMIN'], 'lead-portal': [...] }. */
  roles: z.record(z.string(), z.array(z.string())),
});
export type FigureInfo = z.infer<typeof figureInfoSchema>;

export const loginQuerySchema = z.object({
  returnTo: z.string().max(2048).optional(),
});

export const signInFormSchema = z.object({
  email: inputText({ error: 'Email is required' }, 'Email must not contain a NUL character (U+0000)')
    .trim()
    .min(1, 'Email is required')
    .max(320, 'Email is too long'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024, 'Password is too long'),
  returnTo: z.string().max(2048).optional(),
});
export type SignInForm = z.infer<typeof signInFormSchema>;

/** At least this many characters in a new password. */
export const MIN_PASSWORD_LENGTH = 12;

/** The hosted password page's form (the current password is checked by the server). */
export const passwordChangeFormSchema = z
  .object({
    currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(1024),
    newPassword: z
      .string({ error: 'New password is required' })
      .min(MIN_PASSWORD_LENGTH, `The new password must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024, 'The new password must be at most 1024 characters'),
    confirmPassword: z.string({ error: 'Confirm the new password' }).max(1024),
  })
  .refine((form) => form.confirmPassword === form.newPassword, {
    message: 'The new password and its confirmation do not match',
    path: ['confirmPassword'],
  })
  .refine((form) => form.newPassword !== form.currentPassword, {
    message: 'The new password must differ from the current one',
    path: ['newPassword'],
  });
export type PasswordChangeForm = z.infer<typeof passwordChangeFormSchema>;
