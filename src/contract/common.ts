import { z } from 'zod';
import { US_STATE_CODES } from '../domain/us-states';

export const NUL_CHARACTER_MESSAGE = 'must not contain a NUL character (U+0000)';

/**
 * Free text a caller sends. PostgreSQL's text cannot hold U+0000, so it is refused here, as a 400
 * that names the field, instead of by the database as a 500.
 */
export const inputText = (params?: Parameters<typeof z.string>[0], nulMessage = NUL_CHARACTER_MESSAGE) =>
  z.string(params).refine((value) => !value.includes('\u0000'), nulMessage);

/** Every 4xx/5xx body the server sends. */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const addressSchema = z.object({
  street: z.string(),
  street2: z.string().nullable().optional(),
  city: z.string(),
  state: z.enum(US_STATE_CODES as [string, ...string[]]),
  zip: z.string().max(10),
});
export type Address = z.infer<typeof addressSchema>;

/** GET /healthz */
export const healthSchema = z.object({ status: z.literal('ok') });
