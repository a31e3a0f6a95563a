// Expired sessions (past their absolute end, or unused for the idle timeout) are deleted, and each
// is recorded as a session.expired security event: at every sign-in and every few minutes on a
// timer of each server (plugins/session.ts). Stale rows of the sign-in throttle go too, and security
// events past their retention (SECURITY_EVENT_RETENTION_DAYS), so the audit table does not grow forever.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { recordSecurityEvents } from './security-events';

export async function purgeExpiredSessions(
  app: Pick<FastifyInstance, 'repositories'>,
  log: FastifyBaseLogger,
  idleTimeoutMs: number,
): Promise<number> {
  const expired = await app.repositories.identities.deleteExpiredSessions(idleTimeoutMs);
  await recordSecurityEvents(
    app,
    log,
    expired.map((session) => ({
      kind: 'session.expired' as const,
      identityId: session.identityId,
      detail: { reason: session.reason, endedAt: session.endedAt.toISOString(), createdAt: session.createdAt.toISOString() },
    })),
  );
  return expired.length;
}

export interface PurgeOptions {
  readonly idleTimeoutMs: number;
  readonly securityEventRetentionDays: number;
}

/** The timer's round: sessions, the throttle's passed windows, old security events; a failure is logged, never thrown. */
export async function purgeRound(app: Pick<FastifyInstance, 'repositories'>, log: FastifyBaseLogger, options: PurgeOptions): Promise<void> {
  try {
    const purged = await purgeExpiredSessions(app, log, options.idleTimeoutMs);
    await app.repositories.signInThrottle.deleteStaleSignInAttempts();
    if (purged > 0) log.info({ purged }, 'expired sessions deleted');
    const events = await app.repositories.securityEvents.deleteOlderThan(options.securityEventRetentionDays);
    if (events > 0) log.info({ events }, 'security events past their retention deleted');
  } catch (error) {
    log.warn({ err: error }, 'expired sessions not purged');
  }
}
