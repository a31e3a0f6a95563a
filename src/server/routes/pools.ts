// Pools (SPEC section 7): the list (GET v1 /pools?state=COMPLETE) and one pool with a page of its
// assets (GET v1 /pools/{poolId}), paged like the asset list by the same repository code.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { PATHS } from '../../contract/paths';
import { poolDetailQuerySchema, poolDetailSchema, poolIdParamsSchema, poolListQuerySchema, poolListSchema } from '../../contract/pools';
import { FILTERABLE_ROLES } from '../../domain/loan';
import { NotFoundError } from '../domain-errors';
import { requireMembership } from '../plugins/access';

export const POOL_NOT_FOUND = 'Pool not found';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export async function poolRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    PATHS.pools,
    {
      config: { access: 'member' },
      schema: {
        tags: ['pools'],
        summary: 'The pools the organization may see',
        description:
          'A pool is visible to the organization that owns it and to any organization holding a role on one of its loans. ' +
          '`count` and `totalAmount` cover the loans the organization may see. Newest completion first.',
        querystring: poolListQuerySchema,
        response: { 200: poolListSchema, ...errors },
      },
    },
    async (request) => {
      const membership = requireMembership(request);
      const { state, completedAfter } = request.query;
      // A date-time counts by its own calendar date: pools carry a completion date, not an instant.
      return app.repositories.pools.listVisiblePools(membership.participant.id, {
        state,
        completedOnOrAfter: completedAfter?.slice(0, 10),
      });
    },
  );

  routes.get(
    PATHS.poolPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['pools'],
        summary: 'A pool and one page of its assets',
        description: 'A pool the organization may not see answers 404 exactly like a missing one.',
        params: poolIdParamsSchema,
        querystring: poolDetailQuerySchema,
        response: { 200: poolDetailSchema, ...errors },
      },
    },
    async (request) => {
      const participantId = requireMembership(request).participant.id;
      const pool = await app.repositories.pools.findVisiblePool(participantId, request.params.poolId.toLowerCase());
      if (!pool) throw new NotFoundError(POOL_NOT_FOUND);
      const { limit, offset } = request.query;
      const page = await app.repositories.loanList.listLoanPage(
        { participantId, roles: [...FILTERABLE_ROLES], poolId: pool.id },
        { limit, offset },
      );
      return { pool, ...page };
    },
  );
}
