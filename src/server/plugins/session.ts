// Session authentication: every route under a `/secure/` service prefix needs a live session
// (secure by default, so a new route cannot forget it); others may read it when they need to.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { listenForCallerChanges } from '../db/caller-changes';
import type { IdentityRow, SessionCaller } from '../db/identity-repository';
import { poolOf } from '../db/pg-pool';
import { unauthorized } from '../http-errors';
import { CallerCache } from '../identity/caller-cache';
import { recordRequestEvent } from '../identity/security-events';
import { SessionActivity, touchIntervalFor } from '../identity/session-activity';
import { purgeRound } from '../identity/session-purge';
import { sessionTokenHashOf } from '../identity/sessions';
import { isProductRoute, participantHeaderOf } from './participant-header';
import { runPeriodically } from './periodic-task';

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
function sessionCallerOf(
  request: FastifyRequest,
  tokenHash: string,
  cache: CallerCache,
  idleTimeoutMs: number,
): Promise<SessionCaller | undefined> {
  const header = isProductRoute(request.routeOptions.url) ? participantHeaderOf(request) : undefined;
  const participantId = header?.kind === 'named' ? header.participantId : null;
  return cache.get(tokenHash, participantId, () =>
    request.server.repositories.identities.findSessionCaller(tokenHash, participantId, idleTimeoutMs),
  );
}

export interface SessionPluginOptions {
  /** How long a caller lookup is reused (CALLER_CACHE_MS); 0: every request asks the database. */
  readonly callerCacheMs: number;
  /** The session cookie is Secure and named `__Host-registry_session` (sessionCookieName). */
  readonly cookieSecure: boolean;
  /** A session unused this long is dead (SESSION_IDLE_TIMEOUT_MS); each authenticated request slides it. */
  readonly idleTimeoutMs: number;
  /** How often expired sessions are deleted (SESSION_PURGE_INTERVAL_MS), and security events past their retention. */
  readonly purgeIntervalMs: number;
  /** Days a security event is kept (SECURITY_EVENT_RETENTION_DAYS). */
  readonly securityEventRetentionDays: number;
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
  const activity = new SessionActivity({ everyMs: touchIntervalFor(options.idleTimeoutMs), maxEntries: CALLER_CACHE_ENTRIES });
  const identities = app.repositories.identities;

  // Expired sessions are deleted every purgeIntervalMs by every server (a DELETE ... RETURNING:
  // each row, and its session.expired event, goes once).
  runPeriodically(app, options.purgeIntervalMs, () => purgeRound(app, app.log, options));

  // Every 403 is a security event (defect 8), written after the answer has left.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode === 403) {
      void recordRequestEvent(request, 'permission.refused', {
        detail: { method: request.method, route: request.routeOptions.url ?? request.url.slice(0, 200) },
      });
    }
    done();
  });
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
    const tokenHash = sessionTokenHashOf(request, { secure: options.cookieSecure });
    const caller = tokenHash ? await sessionCallerOf(request, tokenHash, cache, options.idleTimeoutMs) : undefined;
    if (tokenHash && caller) {
      request.identity = caller.identity;
      request.sessionCaller = caller;
      // The idle timeout slides: the use is written at most once a minute per session, without
      // announcing a caller change (see identity/session-activity.ts).
      if (activity.claim(tokenHash)) {
        await identities.touchSession(tokenHash, touchIntervalFor(options.idleTimeoutMs), options.idleTimeoutMs).catch((error: unknown) => {
          activity.forget(tokenHash);
          request.log.warn({ err: error }, 'session use not recorded');
        });
      }
      return;
    }
    if ((request.routeOptions.config.auth ?? 'required') === 'required') throw unauthorized();
  });
}

export default fp(sessionPlugin, { name: 'session', fastify: '5.x', dependencies: ['@fastify/cookie', 'repositories'] });
