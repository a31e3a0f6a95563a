// The paged lists of SPEC section 7: a page query (`limit` of SPEC's page sizes, `offset`) with
// the list's own filters beside it, and a page answer (the items under the list's own name, and
// how many match in all). Every paged list builds its schemas with these.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../domain/constants';
import { wholeNumberParam } from './common';

/** `limit` of a paged list: one of SPEC's page sizes. */
export const pageLimitSchema = wholeNumberParam()
  .refine((value) => (PAGE_SIZES as readonly number[]).includes(value), { message: `must be one of ${PAGE_SIZES.join(', ')}` })
  .default(DEFAULT_PAGE_SIZE)
  .describe(`Page size: one of ${PAGE_SIZES.join(', ')} (default ${DEFAULT_PAGE_SIZE})`);
export const pageOffsetSchema = wholeNumberParam({ min: 0, max: 100_000_000 })
  .default(0)
  .describe('Rows to skip: digits, 0 to 100000000 (default 0)');

/** A list query's paging pair. */
export const pageQuerySchema = z.object({ limit: pageLimitSchema, offset: pageOffsetSchema });

/** The query of a paged list: its paging, then its filters. */
export const pageQueryOf = <Filters extends z.ZodRawShape>(filters: Filters) => pageQuerySchema.extend(filters);

/** The answer of a paged list: the page's items under `key` (`messages`, `loans`), and `totalCount` of the whole view. */
export const pageAnswerOf = <Key extends string, Item extends z.ZodType>(key: Key, item: Item, totalDescription: string) =>
  z.object({
    ...({ [key]: z.array(item) } as { [K in Key]: z.ZodArray<Item> }),
    totalCount: z.number().int().min(0).describe(totalDescription),
  });
