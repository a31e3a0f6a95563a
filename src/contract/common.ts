import { z } from 'zod';
import { US_STATE_CODES } from '../domain/us-states';

export const NUL_CHARACTER_MESSAGE = 'must not contain a NUL character (U+0000)';

/**
 * Free text a caller sends. PostgreSQL's text cannot hold U+0000, so it is refused here, as a 400
 * that names the field, instead of by the database as a 500.
 */
export const inputText = (params?: Parameters<typeof z.string>[0], nulMessage = NUL_CHARACTER_MESSAGE) =>
  z.string(params).refine((value) => !value.includes('\u0000'), nulMessage);

export const YEAR_ZERO_MESSAGE = 'must be in year 0001 or later';

/** ISO 8601 writes 1 BC as year 0000, which zod's ISO checks take; PostgreSQL has no year 0 and fails the statement. */
const notYearZero = (value: string) => !value.startsWith('0000');

/** An ISO date (`2026-01-15`) the database can hold: a 400 naming the field, never a 500 from SQL. */
export const isoDateInput = () => z.iso.date().refine(notYearZero, YEAR_ZERO_MESSAGE);

/** An ISO date (`2026-01-15`) or date-time with offset (`2026-01-15T00:00:00-05:00`), from year 0001. */
export const isoInstantInput = () => z.union([z.iso.datetime({ offset: true }), z.iso.date()]).refine(notYearZero, YEAR_ZERO_MESSAGE);

export const WHOLE_NUMBER_MESSAGE = 'must be a whole number written in the digits 0-9';

/**
 * A whole number of a query string: decimal digits only. `z.coerce.number()` also took '1e1',
 * '0x14', ' 10' and '' (as 0). A typed caller may pass the number itself; the URL carries its digits.
 */
export const wholeNumberParam = (bounds: { readonly min?: number; readonly max?: number } = {}) =>
  z.preprocess(
    (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value),
    z
      .string()
      .regex(/^\d{1,15}$/, WHOLE_NUMBER_MESSAGE)
      .transform(Number)
      .pipe(
        z
          .number()
          .min(bounds.min ?? 0)
          .max(bounds.max ?? Number.MAX_SAFE_INTEGER),
      ),
  );

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
