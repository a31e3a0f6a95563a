// Pools (deals) of SPEC sections 3 and 7.
import { z } from 'zod';
import { isoInstantSchema, loanListItemSchema, pageQuerySchema } from './loans';

export const POOL_STATES = ['PENDING', 'IN_PROGRESS', 'COMPLETE'] as const;

/** GET v1 /pools?state=COMPLETE, optionally completed on or after a date. */
export const poolListQuerySchema = z.object({
  state: z
    .enum(POOL_STATES)
    .optional()
    .describe(`Pool state: ${POOL_STATES.join(', ')}`),
  completedAfter: isoInstantSchema.optional().describe('Only pools completed on or after this date (ISO date or date-time with offset)'),
});
export type PoolListQuery = z.input<typeof poolListQuerySchema>;

export const poolSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  count: z.number().int().min(0),
  totalAmount: z.number(),
  dateCompleted: z.iso.date().nullable(),
});
export type Pool = z.infer<typeof poolSchema>;
export const poolListSchema = z.array(poolSchema);

export const poolIdParamsSchema = z.object({ poolId: z.uuid() });

/** GET v1 /pools/{poolId}: the pool and one page of its loans (paged like the asset list). */
export const poolDetailQuerySchema = pageQuerySchema;
export const poolDetailSchema = z.object({
  pool: z.object({ id: z.uuid(), name: z.string() }),
  loans: z.array(loanListItemSchema),
  totalCount: z.number().int().min(0),
});
export type PoolDetail = z.infer<typeof poolDetailSchema>;
