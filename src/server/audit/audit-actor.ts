// Who a request's audit rows name: the signed-in identity and its registry user (their ids and
// e-mail written as plain values, so they stay when the user is removed), the organization the
// call acts for, and the client address.
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../db/audit-repository';

export const auditActorOf = (request: FastifyRequest): AuditActor => ({
  identityId: request.identity?.id ?? null,
  userId: request.registryUser?.id ?? null,
  email: request.identity?.email ?? request.registryUser?.email ?? null,
  actingParticipantId: request.membership?.participant.id ?? null,
  clientAddress: request.ip,
});
