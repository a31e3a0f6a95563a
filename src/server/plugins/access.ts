// Route access: every route declares who may call it (`config: { access }`, src/domain/access.ts)
// and this one hook enforces it before the body is read. A route that declares none fails at
// start, so a new route cannot forget it. Product calls act for one organization, named by the
// x-participant-id header (or the caller's default one); refusing it answers SPEC section 8's 403
// 'Invalid participant', while a missing role answers 403 with one of PERMISSION_REFUSALS, so the
// web client can tell the two apart (src/contract/http-error.ts).
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { isOrganizationAdmin, isRouteAccess, PERMISSION_REFUSALS, type RouteAccess, USER_NOT_FOUND } from '../../domain/access';
import { isRegistryAdmin } from '../../domain/roles';
import { TEXTS } from '../../domain/texts';
import type { MembershipWithParticipant, UserRow } from '../db/user-repository';
import { forbidden, notFound, unauthorized } from '../http-errors';
import { isProductRoute, participantHeaderOf, UUID_PATTERN } from './participant-header';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's registry user (routes that read the session); null for an identity without one. */
    registryUser: UserRow | null;
    /** The organization the call acts for, with the caller's roles there. */
    membership: MembershipWithParticipant | null;
    /** Registry staff ('org-admin-or-registry-staff' routes): every organization, not only those it administers. */
    registryStaff: boolean;
  }
  interface FastifyContextConfig {
    /** Who may call the route (required: a route without it fails at start). */
    access: RouteAccess;
  }
}

/** Routes under these prefixes need a session: none of them may be declared 'public'. */
const SECURE_PREFIXES = ['/identity-broker/agent/secure/', '/service-dart/secure/', '/service-dart/figure/secure/'];

export const isSecureRoute = (routeUrl: string | undefined): boolean =>
  routeUrl !== undefined && SECURE_PREFIXES.some((prefix) => routeUrl.startsWith(prefix));

/** Levels that act for an organization, hence only on product routes. */
const ORGANIZATION_LEVELS: ReadonlySet<RouteAccess> = new Set(['member', 'org-admin']);

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

const invalidParticipant = () => forbidden(TEXTS.invalidParticipantBody);

/** The organization of a member or org-admin route; absent means the hook did not run (a bug). */
export function requireMembership(request: FastifyRequest): MembershipWithParticipant {
  if (!request.membership) throw invalidParticipant();
  return request.membership;
}

/** The route's `:participantId`, lower-cased; 'malformed' when it is no UUID; undefined when the route has none. */
function namedParticipantOf(request: FastifyRequest): string | 'malformed' | undefined {
  const named = (request.params as { participantId?: unknown } | undefined)?.participantId;
  if (typeof named !== 'string') return undefined;
  return UUID_PATTERN.test(named) ? named.toLowerCase() : 'malformed';
}

/** Why a declaration cannot stand, or undefined when it can. */
export function accessProblem(url: string, access: unknown): string | undefined {
  if (!isRouteAccess(access)) return `declares no access (config.access: ${String(access)})`;
  if (access === 'public' && isSecureRoute(url)) return "is under a /secure/ prefix but declared 'public'";
  if (ORGANIZATION_LEVELS.has(access) && !isProductRoute(url)) return `declares '${access}' but is not a product call`;
  return undefined;
}

/**
 * Declares `access` for the routes a third-party plugin registers under `prefix` (it cannot pass
 * our config), unless they declare one. Added where the plugin is registered: later routes only.
 */
export function defaultAccess(instance: FastifyInstance, access: RouteAccess, prefix: string): void {
  instance.addHook('onRoute', (route) => {
    if (route.url.startsWith(prefix)) route.config = { ...route.config, access: route.config?.access ?? access };
  });
}

async function accessPlugin(app: FastifyInstance): Promise<void> {
  const users = app.repositories.users;
  const organizations = app.repositories.organizations;
  app.decorateRequest('registryUser', null);
  app.decorateRequest('membership', null);
  app.decorateRequest('registryStaff', false);

  // Checked once every route is in (a plugin's own routes get theirs from defaultAccess, whose
  // onRoute hook runs after this one): a route without a valid declaration fails the start.
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  app.addHook('onReady', async () => {
    const problems = routes.flatMap((route) => {
      const problem = accessProblem(route.url, route.config?.access);
      return problem ? [`${String(route.method)} ${route.url} ${problem}`] : [];
    });
    if (problems.length > 0) throw new Error(`Route access: ${problems.join('; ')}`);
  });

  /** The organization a product call acts for (signed-in: the header may be left out; member: it must be valid). */
  async function actingMembership(request: FastifyRequest, required: boolean): Promise<MembershipWithParticipant | null> {
    const caller = request.sessionCaller;
    const user = caller?.user ?? null;
    const header = participantHeaderOf(request);
    if (required && (!user || header.kind === 'malformed' || header.kind === 'repeated')) throw invalidParticipant();
    if (!user) return null;
    if (header.kind === 'named' || header.kind === 'malformed') {
      if (!caller?.namedMembership) throw invalidParticipant();
      return caller.namedMembership;
    }
    const membership = (await users.findDefaultMembership(user.id)) ?? null;
    if (!membership && required) throw invalidParticipant();
    return membership;
  }

  // onRequest runs before the body is read: an anonymous or refused caller costs no upload.
  app.addHook('onRequest', async (request, reply) => {
    // Undefined: no route matched (the not-found handler answers).
    const access = request.routeOptions.config.access as RouteAccess | undefined;
    if (access === undefined || access === 'public') return;
    // A signed-in caller's answers (and the 401 of a missing session) are never kept by a browser
    // or proxy cache; a route may narrow this (documents say 'private, no-store').
    reply.header('cache-control', 'no-store');
    const product = isProductRoute(request.routeOptions.url);
    const header = product ? participantHeaderOf(request) : undefined;
    const caller = await app.readSession(request, header?.kind === 'named' ? header.participantId : null);
    if (!caller) {
      if (access === 'session-if-any') return;
      throw unauthorized();
    }
    request.registryUser = caller.user;
    switch (access) {
      case 'session-if-any':
        return;
      case 'signed-in':
        if (product) request.membership = await actingMembership(request, false);
        return;
      case 'member':
        request.membership = await actingMembership(request, true);
        return;
      case 'org-admin':
        request.membership = await actingMembership(request, true);
        if (!isOrganizationAdmin(request.membership?.roles ?? [])) throw forbidden(PERMISSION_REFUSALS['org-admin']);
        return;
      case 'registry-staff':
        if (!isRegistryAdmin(caller.identity.roles)) throw forbidden(PERMISSION_REFUSALS['registry-staff']);
        return;
      case 'self-or-registry-staff': {
        if (isRegistryAdmin(caller.identity.roles)) return;
        // An identity without a registry user is told so, as users/me tells it.
        if (!caller.user) throw notFound(USER_NOT_FOUND);
        // An id that is no UUID is left to the route's params schema (400 naming it).
        const named = (request.params as { userId?: unknown }).userId;
        if (typeof named === 'string' && (!UUID_PATTERN.test(named) || named.toLowerCase() === caller.user.id)) return;
        throw forbidden(PERMISSION_REFUSALS['self-or-registry-staff']);
      }
      case 'org-admin-or-registry-staff': {
        if (isRegistryAdmin(caller.identity.roles)) {
          request.registryStaff = true;
          return;
        }
        const refused = forbidden(PERMISSION_REFUSALS['org-admin-or-registry-staff']);
        if (!caller.user) throw refused;
        const named = (request.params as { participantId?: unknown }).participantId;
        if (typeof named === 'string') {
          // An id that is no UUID is left to the route's params schema (400 naming it).
          if (!UUID_PATTERN.test(named)) return;
          const participantId = named.toLowerCase();
          // The organization the session acts for (the header) is already known: no query for it.
          const acting = caller.namedMembership?.participant.id === participantId ? caller.namedMembership : undefined;
          request.membership = acting ? adminRoleOf(acting, refused) : await adminMembership(caller.user.id, participantId, refused);
          return;
        }
        if (SAFE_METHODS.has(request.method)) {
          request.membership = await actingMembership(request, true);
          if (!isOrganizationAdmin(request.membership?.roles ?? [])) throw refused;
          return;
        }
        // The organization is in the body (not read yet): one this caller administers is checked
        // once it is validated (preHandler below); a caller administering none is refused now.
        const memberships = await users.listActiveMemberships(caller.user.id);
        if (!memberships.some((membership) => isOrganizationAdmin(membership.roles))) throw refused;
        return;
      }
      case 'organization-viewer': {
        if (isRegistryAdmin(caller.identity.roles)) return;
        const named = namedParticipantOf(request);
        if (named === 'malformed') return;
        // Unknown and not one's own look alike: the refusal, never a 404 that would confirm an id.
        if (!caller.user || !named || !(await organizations.mayViewOrganization(caller.user.id, named)))
          throw forbidden(PERMISSION_REFUSALS['organization-viewer']);
        return;
      }
    }
  });

  /** The caller's membership of `participantId` when it is active and holds ORG_ADMIN; else `refused`. */
  function adminRoleOf(membership: MembershipWithParticipant | undefined, refused: Error): MembershipWithParticipant {
    if (!membership || !isOrganizationAdmin(membership.roles)) throw refused;
    return membership;
  }

  async function adminMembership(userId: string, participantId: string, refused: Error): Promise<MembershipWithParticipant> {
    return adminRoleOf(await users.findActiveMembership(userId, participantId), refused);
  }

  // The body's organization of an 'org-admin-or-registry-staff' write without :participantId.
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.access !== 'org-admin-or-registry-staff' || request.registryStaff || request.membership) return;
    const user = request.registryUser;
    const named = (request.body as { participantId?: unknown } | undefined)?.participantId;
    const refused = forbidden(PERMISSION_REFUSALS['org-admin-or-registry-staff']);
    if (!user || typeof named !== 'string') throw refused;
    request.membership = await adminMembership(user.id, named.toLowerCase(), refused);
  });
}

export default fp(accessPlugin, { name: 'access', fastify: '5.x', dependencies: ['session', 'repositories'] });
