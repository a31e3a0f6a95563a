// Session authentication: every route under a `/secure/` service prefix needs a live session
// (secure by default, so a new route cannot forget it); others may read it when they need to.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { listenForCallerChanges } from '../db/caller-changes';
import type { IdentityRow, SessionCaller } from '../db/identity-repository';
import { poolOf } from '../db/pg-pool';
import { unauthorized } from '../http-errors';
import { CallerCache } from '../identity/caller-cache';
import { sessionTokenHashOf } from '../identity/sessions';
import { isProductRoute, participantHeaderOf } from './participant-header';

/** 'required' (default on secure routes): 401 without a session; 'optional': resolve if present. */
export type AuthMode = 'required' | 'optional';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in identity, set on secure routes. */
    identity: IdentityRow | null;
    /** The whole lookup behind `identity` (its user and named membership), for the tenancy hook. */
    sessionCaller: SessionCaller | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

const SECURE_PREFIXES = ['/identity-broker/agent/secure/', '/service-dart/secure/', '/service-dart/figure/secure/'];

export const isSecureRoute = (routeUrl: string | undefined): boolean =>
  routeUrl !== undefined && SECURE_PREFIXES.some((prefix) => routeUrl.startsWith(prefix));

/**
 * The caller of the request's session cookie, if it names a live session. On a product route the
 * organization of x-participant-id is looked up in the same round trip (the tenancy hook rules on it).
 */
async function sessionCallerOf(request: FastifyRequest, cache: CallerCache): Promise<SessionCaller | undefined> {
  const tokenHash = sessionTokenHashOf(request);
  if (!tokenHash) return undefined;
  const header = isProductRoute(request.routeOptions.url) ? participantHeaderOf(request) : undefined;
  const participantId = header?.kind === 'named' ? header.participantId : null;
  return cache.get(tokenHash, participantId, () => request.server.repositories.identities.findSessionCaller(tokenHash, participantId));
}

export interface SessionPluginOptions {
  /** How long a caller lookup is reused (CALLER_CACHE_MS); 0: every request asks the database. */
  readonly callerCacheMs: number;
}

/** Callers kept at most: one per live session and organization in use, a few hundred bytes each. */
const CALLER_CACHE_ENTRIES = 10_000;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The identity of a route that must have one (secure routes); a missing one is a server bug. */
export function requireIdentity(request: FastifyRequest): IdentityRow {
  if (!request.identity) throw unauthorized();
  return request.identity;
}

async function sessionPlugin(app: FastifyInstance, options: SessionPluginOptions): Promise<void> {
  app.decorateRequest('identity', null);
  app.decorateRequest('sessionCaller', null);
  const cache = new CallerCache({ ttlMs: options.callerCacheMs, maxEntries: CALLER_CACHE_ENTRIES });
  if (options.callerCacheMs > 0) {
    // Cached only while the database can tell this server of changes made by any server.
    const listener = listenForCallerChanges(poolOf(app.db).options, {
      onChange: () => cache.clear(),
      onListening: (listening) => cache.setEnabled(listening),
    });
    app.addHook('onClose', () => listener.close());
  }
  // A write of this server (sign-out, a membership change...) is seen by its next request, even
  // before the database's notification arrives: the cache is emptied before the answer leaves.
  app.addHook('onSend', async (request) => {
    if (!READ_METHODS.has(request.method)) cache.clear();
  });
  // onRequest runs before the body is read: an anonymous caller costs one cookie check.
  app.addHook('onRequest', async (request, reply) => {
    // The matched route pattern, not the raw URL, so encodings cannot slip past the check.
    if (!isSecureRoute(request.routeOptions.url)) return;
    // A signed-in caller's answers (and the 401 of a missing session) are never kept by a browser
    // or proxy cache; a route may narrow this (documents say 'private, no-store').
    reply.header('cache-control', 'no-store');
    const caller = await sessionCallerOf(request, cache);
    if (caller) {
      request.identity = caller.identity;
      request.sessionCaller = caller;
      return;
    }
    if ((request.routeOptions.config.auth ?? 'required') === 'required') throw unauthorized();
  });
}

export default fp(sessionPlugin, { name: 'session', fastify: '5.x', dependencies: ['@fastify/cookie', 'repositories'] });
