// Security events: an append-only record of sign-ins, sign-outs, session ends
// and permission refusals, kept SECURITY_EVENT_RETENTION_DAYS (identity/session-purge.ts). Written
// through src/server/identity/security-events.ts, which never lets a failed write fail the request.
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from './database';
import { securityEvents } from './schema';

export const SECURITY_EVENT_KINDS = [
  'sign-in.success',
  'sign-in.failure',
  'sign-out',
  'session.expired',
  'session.revoked',
  'password.changed',
  'password.change-refused',
  'permission.refused',
  'factor.enrolled',
  'factor.removed',
  'factor.code-sent',
  'factor.code-failed',
  'presence.confirmed',
  'presence.refused',
  'sign-in.second-step',
  'recovery-code.used',
  'password.reset-requested',
  'password.reset',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

export interface SecurityEventInput {
  readonly kind: SecurityEventKind;
  readonly identityId?: string | null;
  /** As typed (trimmed), or the identity's. */
  readonly email?: string | null;
  /** The client address (request.ip). */
  readonly address?: string | null;
  /** A few small facts (reason, route, method); never a password or a token. */
  readonly detail?: Record<string, unknown>;
}

export type SecurityEventRow = typeof securityEvents.$inferSelect;

const MAX_EMAIL = 320;
const MAX_ADDRESS = 64;
const MAX_DETAIL_CHARS = 1000;

function boundedDetail(detail: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!detail) return {};
  return JSON.stringify(detail).length <= MAX_DETAIL_CHARS ? detail : { truncated: true };
}

export async function insertSecurityEvents(db: Database, events: readonly SecurityEventInput[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(securityEvents).values(
    events.map((event) => ({
      kind: event.kind,
      identityId: event.identityId ?? null,
      email: event.email ? event.email.trim().slice(0, MAX_EMAIL) : null,
      address: event.address ? event.address.slice(0, MAX_ADDRESS) : null,
      detail: boundedDetail(event.detail),
    })),
  );
}

/** The newest events of one identity first (support, tests). */
export async function listSecurityEventsOfIdentity(db: Database, identityId: string, limit = 100): Promise<SecurityEventRow[]> {
  return db
    .select()
    .from(securityEvents)
    .where(eq(securityEvents.identityId, identityId))
    .orderBy(desc(securityEvents.occurredAt), desc(securityEvents.id))
    .limit(limit);
}

/** Rows one purge round deletes at most, so a round stays short after a long pause (the next takes the rest). */
export const SECURITY_EVENT_PURGE_BATCH = 10_000;

/** Deletes the oldest events past `retentionDays` (at most SECURITY_EVENT_PURGE_BATCH); how many went. */
export async function deleteOlderThan(db: Database, retentionDays: number, batch = SECURITY_EVENT_PURGE_BATCH): Promise<number> {
  const result = await db.execute(sql`
    delete from security_events where id in (
      select id from security_events where occurred_at < now() - make_interval(days => ${retentionDays}::int)
      order by occurred_at limit ${batch}::int)`);
  return result.rowCount ?? 0;
}
