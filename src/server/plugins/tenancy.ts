// Participant tenancy: product calls act for one organization, named by the x-participant-id
// header, which must be an active organization the caller belongs to.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PARTICIPANT_HEADER } from '../../domain/constants';
import { TEXTS } from '../../domain/texts';
import type { Database } from '../db/database';
import { findActiveMembership, findDefaultMembership, findUserByIdentity, type MembershipWithParticipant, type UserRow } from '../db/user-repository';
import { forbidden } from '../http-errors';

/**
 * 'required' (default on product routes): a valid header, or the default membership when the
 * header is absent, else 403 'Invalid participant'.
 * 'optional': the header may be left out (then the default membership, if any), but a header
 * that names no active organization of the caller is 403 'Invalid participant' all the same.
 * 'none': the route does not act for an organization.
 */
export type TenancyMode = 'required' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's registry user (product routes); null for an identity without one. */
    registryUser: UserRow | null;
    /** The organization the call acts for, with the caller's roles there. */
    membership: MembershipWithParticipant | null;
  }
  interface FastifyContextConfig {
    tenancy?: TenancyMode;
  }
}

const PRODUCT_PREFIXES = ['/service-dart/secure/', '/service-dart/figure/secure/'];
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalidParticipant = () => forbidden(TEXTS.invalidParticipantBody);

/** The organization of a route with tenancy 'required'; absent means the hook did not run (a bug). */
export function requireMembership(request: FastifyRequest): MembershipWithParticipant {
  if (!request.membership) throw invalidParticipant();
  return request.membership;
}

export function registerTenancy(app: FastifyInstance, options: { db: Database }): void {
  const { db } = options;
  app.decorateRequest('registryUser', null);
  app.decorateRequest('membership', null);
  // Registered after the session hook, so the identity is known here.
  app.addHook('onRequest', async (request) => {
    const routeUrl = request.routeOptions.url;
    if (!routeUrl || !PRODUCT_PREFIXES.some((prefix) => routeUrl.startsWith(prefix)) || !request.identity) return;
    const mode = request.routeOptions.config.tenancy ?? 'required';
    const user = await findUserByIdentity(db, request.identity.id);
    request.registryUser = user ?? null;
    if (mode === 'none') return;

    const header = request.headers[PARTICIPANT_HEADER];
    const named = typeof header === 'string' && header.length > 0 ? header : undefined;
    if (mode === 'required' && (!user || (named !== undefined && !UUID_PATTERN.test(named)) || Array.isArray(header))) {
      throw invalidParticipant();
    }
    if (!user) return;
    const chosen = named && UUID_PATTERN.test(named) ? await findActiveMembership(db, user.id, named.toLowerCase()) : undefined;
    if (named && !chosen) throw invalidParticipant();
    request.membership = chosen ?? (await findDefaultMembership(db, user.id)) ?? null;
    if (!request.membership && mode === 'required') throw invalidParticipant();
  });
}
