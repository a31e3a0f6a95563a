// Session authentication: every route under a `/secure/` service prefix needs a live session
// (secure by default, so a new route cannot forget it); others may read it when they need to.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { IdentityRow } from '../db/identity-repository';
import { unauthorized } from '../http-errors';
import { sessionTokenHashOf } from '../identity/sessions';

/** 'required' (default on secure routes): 401 without a session; 'optional': resolve if present. */
export type AuthMode = 'required' | 'optional';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in identity, set on secure routes. */
    identity: IdentityRow | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

const SECURE_PREFIXES = ['/identity-broker/agent/secure/', '/service-dart/secure/', '/service-dart/figure/secure/'];

export const isSecureRoute = (routeUrl: string | undefined): boolean =>
  routeUrl !== undefined && SECURE_PREFIXES.some((prefix) => routeUrl.startsWith(prefix));

/** The identity of the request's session cookie, if it names a live session. */
export async function identityOf(request: FastifyRequest): Promise<IdentityRow | undefined> {
  const tokenHash = sessionTokenHashOf(request);
  return tokenHash ? request.server.repositories.identities.findSessionIdentity(tokenHash) : undefined;
}

/** The identity of a route that must have one (secure routes); a missing one is a server bug. */
export function requireIdentity(request: FastifyRequest): IdentityRow {
  if (!request.identity) throw unauthorized();
  return request.identity;
}

async function sessionPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('identity', null);
  // onRequest runs before the body is read: an anonymous caller costs one cookie check.
  app.addHook('onRequest', async (request) => {
    // The matched route pattern, not the raw URL, so encodings cannot slip past the check.
    if (!isSecureRoute(request.routeOptions.url)) return;
    const identity = await identityOf(request);
    if (identity) {
      request.identity = identity;
      return;
    }
    if ((request.routeOptions.config.auth ?? 'required') === 'required') throw unauthorized();
  });
}

export default fp(sessionPlugin, { name: 'session', fastify: '5.x', dependencies: ['@fastify/cookie', 'repositories'] });
