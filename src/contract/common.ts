import { z } from 'zod';
import { US_STATE_CODES } from '../domain/us-states';

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
