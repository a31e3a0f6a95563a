// Participant tenancy: product calls act for one organization, named by the x-participant-id
// header, which must be an active organization the caller belongs to.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TEXTS } from '../../domain/texts';
import type { MembershipWithParticipant, UserRow } from '../db/user-repository';
import { forbidden } from '../http-errors';
import { isProductRoute, participantHeaderOf } from './participant-header';

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

const invalidParticipant = () => forbidden(TEXTS.invalidParticipantBody);

/** The organization of a route with tenancy 'required'; absent means the hook did not run (a bug). */
export function requireMembership(request: FastifyRequest): MembershipWithParticipant {
  if (!request.membership) throw invalidParticipant();
  return request.membership;
}

async function tenancyPlugin(app: FastifyInstance): Promise<void> {
  const users = app.repositories.users;
  app.decorateRequest('registryUser', null);
  app.decorateRequest('membership', null);
  // Depends on the session plugin, whose hook runs first: the identity, its user and the named
  // organization's membership are known here (one round trip); only a call without the header
  // asks for the default organization.
  app.addHook('onRequest', async (request) => {
    const caller = request.sessionCaller;
    if (!isProductRoute(request.routeOptions.url) || !caller) return;
    const mode = request.routeOptions.config.tenancy ?? 'required';
    const user = caller.user;
    request.registryUser = user;
    if (mode === 'none') return;

    const header = participantHeaderOf(request);
    if (mode === 'required' && (!user || header.kind === 'malformed' || header.kind === 'repeated')) throw invalidParticipant();
    if (!user) return;
    if (header.kind === 'named' || header.kind === 'malformed') {
      if (!caller.namedMembership) throw invalidParticipant();
      request.membership = caller.namedMembership;
      return;
    }
    request.membership = (await users.findDefaultMembership(user.id)) ?? null;
    if (!request.membership && mode === 'required') throw invalidParticipant();
  });
}

export default fp(tenancyPlugin, { name: 'tenancy', fastify: '5.x', dependencies: ['session', 'repositories'] });
