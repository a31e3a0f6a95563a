// Writing security events (table security_events, migration 0011). A write
// never fails the request it describes: an error is logged and the request goes on.
//
// What is recorded: sign-in success and failure (reason bad-password, unknown-email or throttled),
// sign-out, session expiry (recorded when the periodic or sign-in purge deletes the session, so
// every expired session is recorded once, whether or not its browser comes back; the event has no
// address), session revocation (reason session-cap or password-changed), password change, and
// every 403 the server answers (permission.refused, from an onResponse hook, after the answer has
// left: no round trip is added to any request, and none at all to a successful one).
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { SecurityEventInput, SecurityEventKind } from '../db/security-event-repository';

export interface SecurityEventFields {
  readonly identityId?: string | null;
  readonly email?: string | null;
  readonly detail?: Record<string, unknown>;
}

/** An event of this request: its address, and the signed-in identity unless told otherwise. */
export function requestEvent(request: FastifyRequest, kind: SecurityEventKind, fields: SecurityEventFields = {}): SecurityEventInput {
  return {
    kind,
    identityId: fields.identityId !== undefined ? fields.identityId : (request.identity?.id ?? null),
    email: fields.email !== undefined ? fields.email : (request.identity?.email ?? null),
    address: request.ip,
    detail: fields.detail,
  };
}

/** Stores the events; a failure is logged, never thrown. */
export async function recordSecurityEvents(
  app: Pick<FastifyInstance, 'repositories'>,
  log: FastifyBaseLogger,
  events: readonly SecurityEventInput[],
): Promise<void> {
  if (events.length === 0) return;
  try {
    await app.repositories.securityEvents.insertSecurityEvents(events);
  } catch (error) {
    log.error({ err: error, kinds: [...new Set(events.map((event) => event.kind))] }, 'security event not recorded');
  }
}

/** One event of this request (see requestEvent); a failure is logged, never thrown. */
export function recordRequestEvent(request: FastifyRequest, kind: SecurityEventKind, fields: SecurityEventFields = {}): Promise<void> {
  return recordSecurityEvents(request.server, request.log, [requestEvent(request, kind, fields)]);
}
