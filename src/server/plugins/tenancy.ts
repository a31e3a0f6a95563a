// Participant tenancy: product calls act for one organization, named by the x-participant-id
// header, which must be an active organization the caller belongs to.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PARTICIPANT_HEADER } from '../../domain/constants';
import { TEXTS } from '../../domain/texts';
import type { MembershipWithParticipant, UserRow } from '../db/user-repository';
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

async function tenancyPlugin(app: FastifyInstance): Promise<void> {
  const users = app.repositories.users;
  app.decorateRequest('registryUser', null);
  app.decorateRequest('membership', null);
  // Depends on the session plugin, whose hook runs first: the identity is known here.
  app.addHook('onRequest', async (request) => {
    const routeUrl = request.routeOptions.url;
    if (!routeUrl || !PRODUCT_PREFIXES.some((prefix) => routeUrl.startsWith(prefix)) || !request.identity) return;
    const mode = request.routeOptions.config.tenancy ?? 'required';
    const user = await users.findUserByIdentity(request.identity.id);
    request.registryUser = user ?? null;
    if (mode === 'none') return;

    const header = request.headers[PARTICIPANT_HEADER];
    const named = typeof header === 'string' && header.length > 0 ? header : undefined;
    if (mode === 'required' && (!user || (named !== undefined && !UUID_PATTERN.test(named)) || Array.isArray(header))) {
      throw invalidParticipant();
    }
    if (!user) return;
    const chosen = named && UUID_PATTERN.test(named) ? await users.findActiveMembership(user.id, named.toLowerCase()) : undefined;
    if (named && !chosen) throw invalidParticipant();
    request.membership = chosen ?? (await users.findDefaultMembership(user.id)) ?? null;
    if (!request.membership && mode === 'required') throw invalidParticipant();
  });
}

export default fp(tenancyPlugin, { name: 'tenancy', fastify: '5.x', dependencies: ['session', 'repositories'] });
