// The asset list (SPEC section 7): GET v2 /loans as JSON pages or, with Accept: text/csv, every
// matching row as a streamed CSV; and the pool-asset CSV under the figure service prefix.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import pg from 'pg';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import {
  loanIdsSchema,
  loanListQuerySchema,
  loanListSchema,
  poolAssetsCsvQuerySchema,
  type FilterableRole,
  type LoanSortColumn,
  type SortDirection,
} from '../../contract/loans';
import { PATHS } from '../../contract/paths';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from '../../domain/loan';
import type { LoanListFilter } from '../db/loan-list-query';
import { poolOf } from '../db/pg-pool';
import { csvFileName, LOAN_CSV_HEADERS, loanCsvStream } from '../csv/loan-csv';
import {
  CSV_DOWNLOADS_BUSY,
  CSV_RETRY_AFTER_SECONDS,
  CSV_STREAMS_PER_IDENTITY,
  CSV_STREAMS_PER_SERVER,
  StreamSlots,
  TOO_MANY_CSV_DOWNLOADS,
} from '../csv/stream-slots';
import { NotFoundError } from '../domain-errors';
import { badRequest, serviceUnavailable, tooManyRequests } from '../http-errors';
import { requireIdentity } from '../plugins/session';
import { requireMembership } from '../plugins/access';
import { POOL_NOT_FOUND } from './pools';

export const POOL_CSV_SELECTION_REQUIRED = 'loanIds or poolDenomination is required';

const CSV_TYPE = 'text/csv; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const csvBody = z
  .string()
  .describe(`UTF-8 CSV (opening with a byte order mark, for spreadsheets) with a header row: ${LOAN_CSV_HEADERS.join(', ')}`);

/** One path, two representations: `limit`/`offset` page the JSON; the CSV holds every matching row. */
const loanQuerySchema = loanListQuerySchema.extend({ loanIds: loanIdsSchema.optional() });

/** An ISO date is the start of that day in UTC; a date-time keeps its offset. */
const toInstant = (value: string | undefined): string | undefined => (value && value.length === 10 ? `${value}T00:00:00Z` : value);

/**
 * CSV when the Accept header prefers text/csv over JSON (a higher quality, or the same and listed
 * first); JSON otherwise, including no Accept header and * / *.
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = { quality: 0, position: Infinity };
  let json = { quality: 0, position: Infinity };
  accept.split(',').forEach((range, position) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q ? Number(q.slice(2)) || 0 : 1;
    if (type === 'text/csv' && quality > csv.quality) csv = { quality, position };
    if ((type === 'application/json' || type === 'application/*' || type === '*/*') && quality > json.quality) json = { quality, position };
  });
  return csv.quality > 0 && (csv.quality > json.quality || (csv.quality === json.quality && csv.position < json.position));
}

interface FilterQuery {
  readonly query?: string | undefined;
  readonly oldestDateLastUpdated?: string | undefined;
  readonly participantRoles?: FilterableRole[] | undefined;
  readonly sortBy?: LoanSortColumn | undefined;
  readonly sortDirection?: SortDirection | undefined;
  readonly loanIds?: string[] | undefined;
}

function filterOf(participantId: string, query: FilterQuery): LoanListFilter {
  return {
    participantId,
    // A list of ids selects among every loan the organization may see, unless roles are named.
    roles: query.participantRoles ?? (query.loanIds ? [...FILTERABLE_ROLES] : [...DEFAULT_ROLE_FILTER]),
    query: query.query || undefined,
    updatedSince: toInstant(query.oldestDateLastUpdated),
    loanIds: query.loanIds,
    sortBy: query.sortBy,
    sortDirection: query.sortDirection,
  };
}

const CSV_LIMITS =
  `A caller streams at most ${CSV_STREAMS_PER_IDENTITY} CSVs at once (one more answers 429), and a server ` +
  `${CSV_STREAMS_PER_SERVER} (one more answers 503 with Retry-After).`;
const csvRefusals = {
  429: errorBodySchema.describe(`The caller already streams ${CSV_STREAMS_PER_IDENTITY} CSVs`),
  503: errorBodySchema.describe('The server streams as many CSVs as it may; try again after Retry-After seconds'),
};

/**
 * Streams the CSV of `filter` in one of the server's stream slots (csv/stream-slots.ts): 429 past
 * the caller's own limit, 503 with Retry-After when the server's slots are all taken.
 */
async function sendCsv(
  app: FastifyInstance,
  { slots, pool }: { readonly slots: StreamSlots; readonly pool: pg.Pool },
  request: FastifyRequest,
  reply: FastifyReply,
  filter: LoanListFilter,
  filePrefix: string,
) {
  const release = slots.acquire(requireIdentity(request).id);
  if (release === 'identity') throw tooManyRequests(TOO_MANY_CSV_DOWNLOADS);
  if (release === 'server') {
    reply.header('retry-after', String(CSV_RETRY_AFTER_SECONDS));
    throw serviceUnavailable(CSV_DOWNLOADS_BUSY);
  }
  let rows: Readable;
  try {
    rows = await app.repositories.loanList.streamLoanCsvRows(filter, pool);
  } catch (error) {
    release();
    throw error;
  }
  // The slot comes back with the connection, when the rows end (streamLoanCsvRows), and at the
  // latest on 'close', which also follows a failure or a client that hung up. 'close' alone came a
  // round trip after the answer had ended (the cursor's close), so a caller's next download could
  // still meet its own finished one (429).
  rows.once('end', release);
  rows.once('close', release);
  return reply
    .type(CSV_TYPE)
    .header('content-disposition', `attachment; filename="${csvFileName(filePrefix)}"`)
    .header('cache-control', 'no-store')
    .send(loanCsvStream(rows));
}

export async function loanRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const csvSlots = new StreamSlots({ perServer: CSV_STREAMS_PER_SERVER, perIdentity: CSV_STREAMS_PER_IDENTITY });
  // The CSV streams' own connections, one per slot: a stream holds its cursor's connection while
  // its client reads, and the main pool is sized for short calls (config.ts, DATABASE_POOL_SIZE).
  const csvPool = new pg.Pool({ ...poolOf(app.db).options, max: CSV_STREAMS_PER_SERVER });
  // An idle client that loses its server must not crash the process; the next stream reports it.
  csvPool.on('error', () => undefined);
  app.addHook('onClose', () => csvPool.end());
  const csv = { slots: csvSlots, pool: csvPool };

  routes.get(
    PATHS.loans,
    {
      config: { access: 'member' },
      schema: {
        tags: ['loans'],
        summary: "The organization's assets: a page as JSON, or every matching row as CSV (Accept: text/csv)",
        description:
          'Loans on which the current organization holds one of `participantRoles`. JSON (the default) answers one page ' +
          '(`limit`, `offset`) and the exact `totalCount`; with `Accept: text/csv` the answer is every matching row as a streamed ' +
          'CSV attachment (`limit` and `offset` unused), or with `loanIds` those of the given loans the organization may see. ' +
          'Without `sortBy` the most recently updated loans come first. ' +
          CSV_LIMITS,
        querystring: loanQuerySchema,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'A page of assets (JSON) or all of them (CSV)',
            content: { 'application/json': { schema: loanListSchema }, 'text/csv': { schema: csvBody } },
          },
          ...errors,
          ...csvRefusals,
        },
      },
    },
    async (request, reply) => {
      const membership = requireMembership(request);
      const filter = filterOf(membership.participant.id, request.query);
      // JSON or CSV by Accept: a cache between must not answer one with the other.
      reply.header('vary', 'Accept');
      if (prefersCsv(request.headers.accept)) return sendCsv(app, csv, request, reply, filter, 'assets');
      const { limit, offset } = request.query;
      // PostgreSQL writes the page in loanListSchema's shape (tested against it): sent as it is,
      // and kept for the next caller of this organization asking the same (plugins/loan-page-cache.ts).
      const page = await app.loanPages.get(JSON.stringify([filter, limit, offset]), () =>
        app.repositories.loanList.listLoanPageJson(filter, { limit, offset }),
      );
      return reply.type(JSON_TYPE).send(page);
    },
  );

  routes.get(
    PATHS.poolAssetsCsv,
    {
      config: { access: 'member' },
      schema: {
        tags: ['pools'],
        summary: 'The assets of a pool, or of a list of loans, as CSV',
        description:
          "`poolDenomination` (a pool id) gives the pool's assets the organization may see; a pool it may not see answers 404 " +
          'like a missing one. `loanIds` gives those of the given loans the organization may see; the others are left out. ' +
          CSV_LIMITS,
        querystring: poolAssetsCsvQuerySchema,
        produces: ['text/csv'],
        response: { 200: { description: 'CSV attachment', content: { 'text/csv': { schema: csvBody } } }, ...errors, ...csvRefusals },
      },
    },
    async (request, reply) => {
      const membership = requireMembership(request);
      const { loanIds, poolDenomination } = request.query;
      if (!loanIds && !poolDenomination) throw badRequest(`querystring: ${POOL_CSV_SELECTION_REQUIRED}`);
      const participantId = membership.participant.id;
      if (poolDenomination && !(await app.repositories.pools.findVisiblePool(participantId, poolDenomination.toLowerCase()))) {
        throw new NotFoundError(POOL_NOT_FOUND);
      }
      const filter: LoanListFilter = { participantId, roles: [...FILTERABLE_ROLES], loanIds, poolId: poolDenomination?.toLowerCase() };
      return sendCsv(app, csv, request, reply, filter, 'pool-assets');
    },
  );
}
