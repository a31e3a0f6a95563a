// The administration's audit log (schema.ts auditLog): every write of an organization, its users,
// invitations and contact profile appends one row in the transaction of the write. Nothing here
// updates or deletes a row; the application role could not (database.ts APPEND_ONLY_TABLES).
import { and, count, desc, eq, lt, or } from 'drizzle-orm';
import type { Database, Transaction } from './database';
import { auditLog } from './schema';

export type AuditRow = typeof auditLog.$inferSelect;

/** Who made a change and from where: the signed-in registry user and the request's client address. */
export interface AuditActor {
  readonly userId: string | null;
  readonly email: string | null;
  readonly clientAddress: string | null;
}

export interface AuditEntry {
  readonly participantId: string | null;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  /** The values before the change (null for a creation). */
  readonly before: unknown;
  /** The values after the change (null for a removal). */
  readonly after: unknown;
}

/** Appends one row; run it inside the transaction of the change it records. */
export async function appendAudit(tx: Database | Transaction, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    participantId: entry.participantId,
    actorUserId: actor.userId,
    actorEmail: actor.email,
    clientAddress: actor.clientAddress,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** One organization's rows, newest first (the index audit_log_participant_idx), and how many there are. */
export async function listAuditOfParticipant(
  db: Database,
  participantId: string,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ readonly rows: AuditRow[]; readonly totalCount: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(eq(auditLog.participantId, participantId))
      .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(auditLog).where(eq(auditLog.participantId, participantId)),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}

/**
 * One organization's rows in batches, newest first, for the CSV export: keyset paging on
 * (occurred_at, id), so a long history is never held whole.
 */
export async function* auditOfParticipantInBatches(db: Database, participantId: string, batchSize = 1000): AsyncGenerator<AuditRow[]> {
  let after: { readonly occurredAt: Date; readonly id: number } | undefined;
  for (;;) {
    const cursor = after;
    const rows = await db
      .select()
      .from(auditLog)
      .where(
        cursor
          ? and(
              eq(auditLog.participantId, participantId),
              or(lt(auditLog.occurredAt, cursor.occurredAt), and(eq(auditLog.occurredAt, cursor.occurredAt), lt(auditLog.id, cursor.id))),
            )
          : eq(auditLog.participantId, participantId),
      )
      .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
      .limit(batchSize);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { occurredAt: last.occurredAt, id: last.id };
  }
}
