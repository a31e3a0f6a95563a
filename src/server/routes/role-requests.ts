// Role transfers (our additions to SPEC section 7): GET v1 /participants/directory lists
// the active organizations a transfer can be addressed to; POST v1 /loans/{loanId}/role-requests
// asks one of them to take over a role. The receiver answers through its actionable message
// (PATCH v1 /messages with `response`, which calls answerMessage of services/role-transfers.ts).
import { auditActorOf } from '../audit/audit-actor';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { PATHS } from '../../contract/paths';
import { directorySchema, roleRequestBodySchema, roleRequestParamsSchema, roleRequestSchema } from '../../contract/role-requests';
import { requireMembership } from '../plugins/access';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export async function roleRequestRoutes(app: FastifyInstance): Promise<void> {
  const roleRequests = app.repositories.roleRequests;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    PATHS.participantDirectory,
    {
      config: { access: 'member' },
      schema: {
        tags: ['participants'],
        summary: 'The directory of active organizations (id and name), by name',
        description:
          'Our addition to SPEC section 7: the organizations a role transfer can be addressed to. Any signed-in user may ' +
          'read it, for a current organization (x-participant-id) it belongs to.',
        response: { 200: directorySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      requireMembership(request);
      return roleRequests.listDirectory();
    },
  );

  routes.post(
    PATHS.loanRoleRequestsPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['loans'],
        summary: 'Asks another organization to take over a role on a loan',
        description:
          'Our addition to SPEC section 7. Only the organization (x-participant-id) that holds the role may ask, or the ' +
          'owner for SERVICER and SUB_SERVICER; the receiver is an active organization of GET v1 /participants/directory. ' +
          "201: the role's state is PENDING (its current value unchanged), a Requested event of the role's transfer is in " +
          "the loan's history, and the receiver has an actionable message (REQUEST_EXECUTE_CONTRACT, targetId the loan) " +
          'that it answers with PATCH v1 /messages `response`. 404: a loan that does not exist or that the organization ' +
          'may not see. 400: not allowed to transfer the role, no party in that role, an unknown or inactive receiver, or ' +
          'one that holds the role already. 409: the role has a pending transfer, or the loan is deactivated or has a deactivation pending. Refusals ' +
          'are never 403 (SPEC section 8: a 403 means an invalid participant).',
        params: roleRequestParamsSchema,
        body: roleRequestBodySchema,
        response: { 201: roleRequestSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const membership = requireMembership(request);
      // Refusals are domain errors, never 403 (SPEC section 8: a 403 means an invalid participant).
      const created = await app.services.roleTransfers.requestRoleTransfer(
        {
          loanId: request.params.loanId.toLowerCase(),
          role: request.body.role,
          receiverId: request.body.participantId.toLowerCase(),
          participantId: membership.participant.id,
          participantName: membership.participant.name,
          userId: request.registryUser?.id ?? null,
        },
        auditActorOf(request),
      );
      return reply.code(201).send({
        id: created.id,
        loanId: created.loanId,
        role: created.role,
        state: created.state,
        receiver: created.receiver,
        created: created.createdAt.toISOString(),
      });
    },
  );
}
