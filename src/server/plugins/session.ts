// Session authentication: the caller of the request's session cookie, read by the access hook
// (plugins/access.ts) for every route whose declared access is not 'public'; sessions slide, are
// cached per caller and are purged here.
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
import { runPeriodically } from './periodic-task';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in identity, set by the access hook on every route that reads the session. */
    identity: IdentityRow | null;
    /** The whole lookup behind `identity` (its user and named membership), for the access hook. */
    sessionCaller: SessionCaller | null;
  }
  interface FastifyInstance {
    /**
     * The caller of the request's session cookie, if it names a live session (then set on
     * `request.identity` and `request.sessionCaller`). `participantId`, the organization a product
     * call names, is looked up in the same round trip.
     */
    readSession(request: FastifyRequest, participantId: string | null): Promise<SessionCaller | undefined>;
  }
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

/** The identity of a route whose access needs a session; a missing one is a server bug. */
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
  app.decorate('readSession', async (request: FastifyRequest, participantId: string | null) => {
    const tokenHash = sessionTokenHashOf(request, { secure: options.cookieSecure });
    if (!tokenHash) return undefined;
    const caller = await cache.get(tokenHash, participantId, () =>
      identities.findSessionCaller(tokenHash, participantId, options.idleTimeoutMs),
    );
    if (!caller) return undefined;
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
    return caller;
  });
}

export default fp(sessionPlugin, { name: 'session', fastify: '5.x', dependencies: ['@fastify/cookie', 'repositories'] });
