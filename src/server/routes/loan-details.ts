// One loan for the asset page (SPEC sections 3 and 7): its details with the parties' profiles, and
// its history. A loan the current organization holds no role on answers exactly like a missing one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { loanDetailsSchema, loanEventsSchema, loanIdParamsSchema } from '../../contract/loans';
import { PATHS } from '../../contract/paths';
import { LOAN_NOT_FOUND } from '../../domain/loan';
import { NotFoundError } from '../domain-errors';
import { toLoanDetails, toLoanEvent } from '../mappers';
import { requireMembership } from '../plugins/access';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const NOT_VISIBLE = 'Answers 404 when the loan does not exist or the current organization (x-participant-id) holds no role on it.';

export async function loanDetailsRoutes(app: FastifyInstance): Promise<void> {
  const loans = app.repositories.loanDetails;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    PATHS.loanDetailsPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['loans'],
        summary: "A loan's details, with each party's state, current value and participant profile",
        description: NOT_VISIBLE,
        params: loanIdParamsSchema,
        response: { 200: loanDetailsSchema, ...errors },
      },
    },
    async (request) => {
      const membership = requireMembership(request);
      const row = await loans.findLoanDetails(request.params.id.toLowerCase(), membership.participant.id);
      if (!row) throw new NotFoundError(LOAN_NOT_FOUND);
      return toLoanDetails(row);
    },
  );

  routes.get(
    PATHS.loanEventsPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['loans'],
        summary: "A loan's events, newest first (by when they were recorded)",
        description: NOT_VISIBLE,
        params: loanIdParamsSchema,
        response: { 200: loanEventsSchema, ...errors },
      },
    },
    async (request) => {
      const membership = requireMembership(request);
      const rows = await loans.listLoanEvents(request.params.id.toLowerCase(), membership.participant.id);
      if (!rows) throw new NotFoundError(LOAN_NOT_FOUND);
      return rows.map(toLoanEvent);
    },
  );
}
