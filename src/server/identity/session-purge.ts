// Expired sessions (past their absolute end, or unused for the idle timeout) are deleted, and each
// is recorded as a session.expired security event: at every sign-in and every few minutes on a
// timer of each server (plugins/session.ts). Stale rows of the sign-in throttle go too.
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

/** The timer's round: sessions and the throttle's passed windows; a failure is logged, never thrown. */
export async function purgeRound(app: Pick<FastifyInstance, 'repositories'>, log: FastifyBaseLogger, idleTimeoutMs: number): Promise<void> {
  try {
    const purged = await purgeExpiredSessions(app, log, idleTimeoutMs);
    await app.repositories.signInThrottle.deleteStaleSignInAttempts();
    if (purged > 0) log.info({ purged }, 'expired sessions deleted');
  } catch (error) {
    log.warn({ err: error }, 'expired sessions not purged');
  }
}
