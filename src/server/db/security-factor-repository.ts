// Sign-in security data: the factors of an identity, the hosted pages' flows (identity_flows),
// recovery codes, a session's proof of presence, and the outbox rows they write. Data only; the
// writes take the transaction of services/security-factors.ts.
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from './database';
import { authenticationFactors, identities, identityFlows, outbox, recoveryCodes, sessions } from './schema';

export type FactorRow = typeof authenticationFactors.$inferSelect;
export type FlowRow = typeof identityFlows.$inferSelect;
export type FlowInsert = typeof identityFlows.$inferInsert;
type Executor = Database | Transaction;

export async function listFactors(db: Executor, identityId: string): Promise<FactorRow[]> {
  return db
    .select()
    .from(authenticationFactors)
    .where(eq(authenticationFactors.identityId, identityId))
    .orderBy(authenticationFactors.createdAt, authenticationFactors.id);
}

/** The factors an identity proved itself (a code, a WebAuthn registration): these ask for a second step at sign-in. */
export async function listEnrolledFactors(db: Executor, identityId: string): Promise<FactorRow[]> {
  return (await listFactors(db, identityId)).filter((factor) => factor.verifiedAt !== null);
}

export async function findFactorByCredentialId(db: Executor, credentialId: string): Promise<FactorRow | undefined> {
  const [row] = await db.select().from(authenticationFactors).where(eq(authenticationFactors.credentialId, credentialId)).limit(1);
  return row;
}

/** Locks the identity's row: its factor changes, sign-ins and password changes take turns. */
export async function lockIdentity(tx: Transaction, identityId: string) {
  const [row] = await tx.select().from(identities).where(eq(identities.id, identityId)).for('no key update');
  return row;
}

export async function findIdentityById(db: Executor, identityId: string) {
  const [row] = await db.select().from(identities).where(eq(identities.id, identityId)).limit(1);
  return row;
}

export async function insertFactor(tx: Transaction, factor: typeof authenticationFactors.$inferInsert): Promise<FactorRow> {
  const [row] = await tx.insert(authenticationFactors).values(factor).returning();
  if (!row) throw new Error('factor not inserted');
  return row;
}

export async function deleteFactor(tx: Transaction, identityId: string, factorId: string): Promise<boolean> {
  const deleted = await tx
    .delete(authenticationFactors)
    .where(and(eq(authenticationFactors.id, factorId), eq(authenticationFactors.identityId, identityId)))
    .returning({ id: authenticationFactors.id });
  return deleted.length > 0;
}

export async function updateSignCount(db: Executor, factorId: string, signCount: number): Promise<void> {
  await db.update(authenticationFactors).set({ signCount }).where(eq(authenticationFactors.id, factorId));
}

/** The WebAuthn user handle of an identity, made (random) at its first registration. */
export async function ensureWebauthnUserId(tx: Executor, identityId: string, fresh: string): Promise<string> {
  await tx
    .update(identities)
    .set({ webauthnUserId: fresh })
    .where(and(eq(identities.id, identityId), isNull(identities.webauthnUserId)));
  const [row] = await tx.select({ value: identities.webauthnUserId }).from(identities).where(eq(identities.id, identityId));
  return row?.value ?? fresh;
}

// ---------------------------------------------------------------------------------------------
// Proof of presence

/** When the session last proved its holder present, or undefined for no live session. */
export async function findSessionVerifiedAt(db: Executor, tokenHash: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ verifiedAt: sessions.verifiedAt })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  return row?.verifiedAt;
}

export async function markSessionPresence(db: Executor, tokenHash: string): Promise<void> {
  await db
    .update(sessions)
    .set({ verifiedAt: sql`now()` })
    .where(eq(sessions.tokenHash, tokenHash));
}

// ---------------------------------------------------------------------------------------------
// Flows

export async function insertFlow(tx: Executor, flow: FlowInsert): Promise<FlowRow> {
  const [row] = await tx.insert(identityFlows).values(flow).returning();
  if (!row) throw new Error('flow not inserted');
  return row;
}

/** A live flow (unused, unexpired) by its token's hash. */
export async function findLiveFlow(db: Executor, tokenHash: string, kinds: readonly string[]): Promise<FlowRow | undefined> {
  const [row] = await db
    .select()
    .from(identityFlows)
    .where(
      and(
        eq(identityFlows.tokenHash, tokenHash),
        inArray(identityFlows.kind, [...kinds]),
        isNull(identityFlows.usedAt),
        gt(identityFlows.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row;
}

/** The flow's row, locked, while it is live. */
export async function lockLiveFlow(tx: Transaction, flowId: string): Promise<FlowRow | undefined> {
  const [row] = await tx
    .select()
    .from(identityFlows)
    .where(and(eq(identityFlows.id, flowId), isNull(identityFlows.usedAt), gt(identityFlows.expiresAt, sql`now()`)))
    .for('update');
  return row;
}

export async function updateFlow(db: Executor, flowId: string, set: Partial<FlowInsert>): Promise<void> {
  await db.update(identityFlows).set(set).where(eq(identityFlows.id, flowId));
}

/** Uses the flow once: true for the one caller that did. */
export async function useFlow(db: Executor, flowId: string): Promise<boolean> {
  const used = await db
    .update(identityFlows)
    .set({ usedAt: sql`now()` })
    .where(and(eq(identityFlows.id, flowId), isNull(identityFlows.usedAt)))
    .returning({ id: identityFlows.id });
  return used.length > 0;
}

/** Counts a wrong code; answers the tries made so far. */
export async function countCodeAttempt(db: Executor, flowId: string): Promise<number> {
  const [row] = await db
    .update(identityFlows)
    .set({ codeAttempts: sql`${identityFlows.codeAttempts} + 1` })
    .where(eq(identityFlows.id, flowId))
    .returning({ attempts: identityFlows.codeAttempts });
  return row?.attempts ?? 0;
}

/** Flows past their end (kept a day for the record of what was tried), deleted by the purge. */
export async function purgeFlows(db: Executor): Promise<number> {
  const deleted = await db
    .delete(identityFlows)
    .where(sql`${identityFlows.expiresAt} < now() - interval '1 day'`)
    .returning({ id: identityFlows.id });
  return deleted.length;
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

export async function replaceRecoveryCodes(tx: Transaction, identityId: string, codeHashes: readonly string[]): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.identityId, identityId));
  if (codeHashes.length > 0) await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ identityId, codeHash })));
}

export async function countRecoveryCodes(db: Executor, identityId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.identityId, identityId), isNull(recoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/** Uses a recovery code once: true when an unused one of the identity had this hash. */
export async function useRecoveryCode(db: Executor, identityId: string, codeHash: string): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.identityId, identityId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Outbox

export async function insertOutboxMessage(
  tx: Transaction,
  message: { channel: 'email' | 'sms'; recipient: string; subject: string; body: string },
): Promise<string> {
  const [row] = await tx.insert(outbox).values(message).returning({ id: outbox.id });
  if (!row) throw new Error('outbox row not inserted');
  return row.id;
}

/** The latest outbox rows, newest first (the development mailbox). */
export async function listLatestOutbox(db: Executor, limit: number) {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit);
}
