import { z } from 'zod';

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
  email: z.string().trim().min(1, 'Email is required').max(320),
  password: z.string().min(1, 'Password is required').max(1024),
  returnTo: z.string().max(2048).optional(),
});
export type SignInForm = z.infer<typeof signInFormSchema>;
