// The identity broker's factor calls (SPEC section 7: .../self/authentication/factors).
import { z } from 'zod';
import { FACTOR_TYPES } from '../domain/security-factors';

export const factorTypeSchema = z.enum(FACTOR_TYPES);

export const authenticationFactorSchema = z.object({
  type: factorTypeSchema,
  /** Masked for display: an address's first letter and domain, a phone's last four digits, a key's name. */
  value: z.string(),
  editable: z.boolean(),
  required: z.boolean(),
  /** The factor's ids (the DELETE path takes one). */
  ids: z.array(z.uuid()).min(1),
});
export type AuthenticationFactor = z.infer<typeof authenticationFactorSchema>;

export const factorListSchema = z.object({
  factors: z.array(authenticationFactorSchema),
  requireAtLeastOneOf: z.array(factorTypeSchema),
  /** Ours: whether the password can be changed here (SPEC section 6: a manageable account). */
  passwordManageable: z.boolean(),
});
export type FactorList = z.infer<typeof factorListSchema>;

/** The app's random state for one round trip through the hosted pages; the server takes each once. */
export const externalStateNonceSchema = z
  .string({ error: 'externalStateNonce is required' })
  .regex(/^[A-Za-z0-9_-]{16,128}$/, 'externalStateNonce must be 16 to 128 letters, digits, - or _');

export const addFactorQuerySchema = z.object({
  type: factorTypeSchema,
  externalStateNonce: externalStateNonceSchema,
});
export type AddFactorQuery = z.infer<typeof addFactorQuerySchema>;

export const factorParamsSchema = z.object({ id: z.uuid('The factor id must be a UUID') });
export const removeFactorQuerySchema = z.object({ externalStateNonce: externalStateNonceSchema });

/** The hosted factor page: GET ?flow=..., POST its form. */
export const factorPageQuerySchema = z.object({ flow: z.string().max(128).optional() });
export const factorPageFormSchema = z.object({
  flow: z.string().max(128),
  action: z.enum(['send', 'verify', 'resend', 'remove', 'webauthn']),
  password: z.string().max(1024).optional(),
  destination: z.string().max(320).optional(),
  code: z.string().max(64).optional(),
  credential: z.string().max(16_384).optional(),
});
export type FactorPageForm = z.infer<typeof factorPageFormSchema>;

/** The sign-in's second step: send a code, verify it, answer with an authenticator, or use a recovery code. */
export const secondStepFormSchema = z.object({
  flow: z.string().max(128),
  action: z.enum(['send', 'verify', 'webauthn', 'recovery']),
  factorId: z.string().max(64).optional(),
  code: z.string().max(64).optional(),
  credential: z.string().max(16_384).optional(),
  recoveryCode: z.string().max(64).optional(),
});
