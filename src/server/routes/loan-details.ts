// One loan for the asset page (SPEC sections 3 and 7): its details with the parties' profiles, and
// its history. A loan the current organization holds no role on answers exactly like a missing one
// (404), unless the organization took part in it before (its role moved on): then 410, saying so.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { loanDetailsSchema, loanEventsSchema, loanIdParamsSchema } from '../../contract/loans';
import { PATHS } from '../../contract/paths';
import { LOAN_NOT_FOUND } from '../../domain/loan';
import { ASSET_PAGE_TEXTS } from '../../domain/asset-texts';
import { NoLongerHeldError, NotFoundError } from '../domain-errors';
import { toLoanDetails, toLoanEvent } from '../mappers';
import { requireMembership } from '../plugins/access';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 410: errorBodySchema };
const NOT_VISIBLE =
  'Answers 404 when the loan does not exist or the current organization (x-participant-id) holds no role on it; ' +
  '410 instead when the organization took part in the loan before (a role request, or its history names it) but holds no role now.';

export async function loanDetailsRoutes(app: FastifyInstance): Promise<void> {
  const loans = app.repositories.loanDetails;
  /** Why the loan is not shown: 410 to an organization whose role has moved on, else 404 (no more said). */
  const refusal = async (loanId: string, participantId: string) =>
    (await loans.tookPartBefore(loanId, participantId))
      ? new NoLongerHeldError(ASSET_PAGE_TEXTS.noLongerHeldBody)
      : new NotFoundError(LOAN_NOT_FOUND);
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
      const loanId = request.params.id.toLowerCase();
      const row = await loans.findLoanDetails(loanId, membership.participant.id);
      if (!row) throw await refusal(loanId, membership.participant.id);
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
      const loanId = request.params.id.toLowerCase();
      const rows = await loans.listLoanEvents(loanId, membership.participant.id);
      if (!rows) throw await refusal(loanId, membership.participant.id);
      return rows.map(toLoanEvent);
    },
  );
}
