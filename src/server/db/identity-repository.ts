// Identities and their sessions (the identity broker's data).
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from './database';
import { identities, sessions } from './schema';

export type IdentityRow = typeof identities.$inferSelect;

export async function findIdentityByEmail(db: Database, email: string): Promise<IdentityRow | undefined> {
  // The unique index is on lower(email), so this lookup uses it.
  const [row] = await db
    .select()
    .from(identities)
    .where(sql`lower(${identities.email}) = lower(${email})`)
    .limit(1);
  return row;
}

export async function createSession(db: Database, session: { tokenHash: string; identityId: string; expiresAt: Date }): Promise<void> {
  await db.insert(sessions).values(session);
}

/** The identity of a live (unexpired) session, or undefined. */
export async function findSessionIdentity(db: Database, tokenHash: string): Promise<IdentityRow | undefined> {
  const [row] = await db
    .select({ identity: identities })
    .from(sessions)
    .innerJoin(identities, eq(identities.id, sessions.identityId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  return row?.identity;
}

export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteExpiredSessions(db: Database): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
}

/** Which of these emails have an identity (to tell whether demo accounts exist). */
export async function existingIdentityEmails(db: Database, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const lowered = emails.map((email) => email.toLowerCase());
  const rows = await db
    .select({ email: identities.email })
    .from(identities)
    .where(inArray(sql`lower(${identities.email})`, lowered));
  return new Set(rows.map((row) => row.email.toLowerCase()));
}
