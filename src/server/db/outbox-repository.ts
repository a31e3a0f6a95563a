// The outbox (schema.ts outbox): mail written in the transaction of the change that causes it,
// sent later by the outbox job (jobs/outbox-job.ts). Rows are claimed with SKIP LOCKED, so two
// servers' jobs never send the same row.
import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from './database';
import { outbox } from './schema';

export type OutboxRow = typeof outbox.$inferSelect;

/** A row is given up after this many failed sends (it stays, with its last error, for the mailbox page). */
export const OUTBOX_MAX_ATTEMPTS = 10;

/** Unsent rows of the channels that have a transport (mail, SMS), oldest first, locked for this transaction; rows another transaction holds are skipped. */
export async function claimUnsent(tx: Transaction, limit: number, channels: readonly string[] = ['email']): Promise<OutboxRow[]> {
  return tx
    .select()
    .from(outbox)
    .where(and(isNull(outbox.sentAt), lt(outbox.attempts, OUTBOX_MAX_ATTEMPTS), inArray(outbox.channel, [...channels])))
    .orderBy(asc(outbox.createdAt), asc(outbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markSent(tx: Transaction, id: string): Promise<void> {
  await tx
    .update(outbox)
    .set({ sentAt: sql`now()`, attempts: sql`${outbox.attempts} + 1`, lastError: null })
    .where(eq(outbox.id, id));
}

export async function markFailed(tx: Transaction, id: string, error: string): Promise<void> {
  await tx
    .update(outbox)
    .set({ attempts: sql`${outbox.attempts} + 1`, lastError: error.slice(0, 1000) })
    .where(eq(outbox.id, id));
}

/** Every row to one recipient, newest first (the development mailbox and tests). */
export async function listOutboxOf(db: Database, recipient: string): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outbox)
    .where(sql`lower(${outbox.recipient}) = lower(${recipient})`)
    .orderBy(sql`${outbox.createdAt} DESC`);
}
