// The audit log (schema.ts auditLog): every write of the product (the loans' parties, events,
// deactivations, documents and transfers, answered messages, the administration) appends one row
// in the transaction of the write, as its last statement: the row's trigger locks the hash chain's
// head until the commit (decision record 0016), so the lock is held as briefly as it can be.
// Nothing here updates or deletes a row; the application role could not (database.ts APPEND_ONLY_TABLES).
import { and, count, desc, eq, gte, ilike, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from './database';
import { auditLog, participants } from './schema';

export type AuditRow = typeof auditLog.$inferSelect;

/** Who made a change and from where: the signed-in identity and registry user, and the request's client address. */
export interface AuditActor {
  readonly userId: string | null;
  readonly email: string | null;
  readonly clientAddress: string | null;
  readonly identityId?: string | null;
  /** The organization the caller acted for (x-participant-id); none for registry staff and the job runner. */
  readonly actingParticipantId?: string | null;
}

/** The job runner: a change no request made (a deactivation processed, or failed for good). */
export const SYSTEM_ACTOR: AuditActor = { userId: null, email: null, clientAddress: null };

export interface AuditEntry {
  readonly participantId: string | null;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  /** The loan the change concerns, if any. */
  readonly loanId?: string | null;
  /** The values before the change (null for a creation). */
  readonly before: unknown;
  /** The values after the change (null for a removal). */
  readonly after: unknown;
}

/** Appends one row; run it inside the transaction of the change it records. */
export async function appendAudit(tx: Database | Transaction, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    participantId: entry.participantId,
    identityId: actor.identityId ?? null,
    actorUserId: actor.userId,
    actorEmail: actor.email,
    actingParticipantId: actor.actingParticipantId ?? null,
    clientAddress: actor.clientAddress,
    loanId: entry.loanId ?? null,
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

/** An audit row with the name of the organization its caller acted for. */
export type AuditRowWithActing = AuditRow & { readonly actingParticipantName: string | null };

const actingName = sql<string | null>`(select p.name from ${participants} p where p.id = ${auditLog.actingParticipantId})`;

/** One loan's rows, newest first (the index audit_log_loan_idx), and how many there are. */
export async function listAuditOfLoan(
  db: Database,
  loanId: string,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ readonly rows: AuditRowWithActing[]; readonly totalCount: number }> {
  const where = eq(auditLog.loanId, loanId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: auditLog, actingParticipantName: actingName })
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.chainSeq))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(auditLog).where(where),
  ]);
  return { rows: rows.map(({ row, actingParticipantName }) => ({ ...row, actingParticipantName })), totalCount: total?.value ?? 0 };
}

/** What registry staff search the whole log by (every field optional; all given must match). */
export interface AuditFilter {
  /** The organization concerned or acted for. */
  readonly participantId?: string | undefined;
  /** The user: a user id, or part of the e-mail. */
  readonly user?: string | undefined;
  readonly targetType?: string | undefined;
  /** The entity's id, or the loan's. */
  readonly entityId?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

function conditionsOf(filter: AuditFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.participantId)
    conditions.push(or(eq(auditLog.participantId, filter.participantId), eq(auditLog.actingParticipantId, filter.participantId))!);
  if (filter.user) {
    const user = filter.user.trim();
    conditions.push(UUID.test(user) ? eq(auditLog.actorUserId, user.toLowerCase()) : ilike(auditLog.actorEmail, likeOf(user)));
  }
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
  if (filter.entityId) {
    const id = filter.entityId.trim();
    conditions.push(
      UUID.test(id) ? or(eq(auditLog.targetId, id.toLowerCase()), eq(auditLog.loanId, id.toLowerCase()))! : eq(auditLog.targetId, id),
    );
  }
  if (filter.from) conditions.push(gte(auditLog.occurredAt, filter.from));
  if (filter.to) conditions.push(lte(auditLog.occurredAt, filter.to));
  return conditions;
}

/** A page of the whole log's rows that match, newest first, and how many match. */
export async function searchAudit(
  db: Database,
  filter: AuditFilter,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ readonly rows: AuditRowWithActing[]; readonly totalCount: number }> {
  const where = and(...conditionsOf(filter));
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: auditLog, actingParticipantName: actingName })
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.chainSeq))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(auditLog).where(where),
  ]);
  return { rows: rows.map(({ row, actingParticipantName }) => ({ ...row, actingParticipantName })), totalCount: total?.value ?? 0 };
}

/** The matching rows in batches, newest first, for the CSV export: keyset paging on chain_seq. */
export async function* searchAuditInBatches(db: Database, filter: AuditFilter, batchSize = 1000): AsyncGenerator<AuditRowWithActing[]> {
  let before: number | undefined;
  for (;;) {
    const conditions = conditionsOf(filter);
    if (before !== undefined) conditions.push(lt(auditLog.chainSeq, before));
    const rows = await db
      .select({ row: auditLog, actingParticipantName: actingName })
      .from(auditLog)
      .where(and(...conditions))
      .orderBy(desc(auditLog.chainSeq))
      .limit(batchSize);
    if (rows.length > 0) yield rows.map(({ row, actingParticipantName }) => ({ ...row, actingParticipantName }));
    if (rows.length < batchSize) return;
    before = rows[rows.length - 1]!.row.chainSeq;
  }
}

/** A loan party as the audit log records it: the role, who holds it (id and name) and its state. */
export interface AuditedParty {
  readonly role: string;
  readonly participantId: string | null;
  readonly participantName: string | null;
  readonly state: string;
}

/** The loan's party in `role` as it is now in the transaction (for the before and after of a write). */
export async function auditedParty(tx: Transaction, loanId: string, role: string): Promise<AuditedParty | null> {
  const { rows } = await tx.execute<AuditedParty & Record<string, unknown>>(sql`
    select lp.role, lp.participant_id as "participantId", coalesce(p.name, lp.name) as "participantName", lp.state
    from loan_parties lp left join participants p on p.id = lp.participant_id
    where lp.loan_id = ${loanId} and lp.role = ${role}`);
  return rows[0] ?? null;
}

/** The loan's status as the audit log records a deactivation's before and after. */
export async function auditedLoanStatus(
  tx: Transaction,
  loanId: string,
): Promise<{ uli: string; status: string; deactivated: boolean } | null> {
  const { rows } = await tx.execute<{ uli: string; status: string; deactivated: boolean }>(sql`
    select uli, status, deactivated from loans where id = ${loanId}`);
  return rows[0] ?? null;
}

/** Whether the organization may see the loan, as the asset page decides it (it holds a role, or is asked to take one). */
export async function loanVisibleTo(db: Database, loanId: string, participantId: string): Promise<boolean> {
  const { rows } = await db.execute<{ visible: boolean }>(sql`
    select exists (select 1 from loan_parties held where held.loan_id = ${loanId} and held.participant_id = ${participantId})
      or exists (select 1 from role_requests asked where asked.receiver_participant_id = ${participantId}
        and asked.loan_id = ${loanId} and asked.state = 'PENDING') as visible`);
  return rows[0]?.visible === true;
}
