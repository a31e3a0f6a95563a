// Identities and their sessions (the identity broker's data).
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from './database';
import { identities, memberships, participants, sessions, users } from './schema';
import type { MembershipWithParticipant, UserRow } from './user-repository';

export type IdentityRow = typeof identities.$inferSelect;

/** Who is calling: a live session's identity, its registry user and its membership of the named organization. */
export interface SessionCaller {
  readonly identity: IdentityRow;
  /** When the session ends: a cached caller is not used past it. */
  readonly sessionExpiresAt: Date;
  /** Null for an identity without a registry user. */
  readonly user: UserRow | null;
  /** The user's membership of the organization asked for, when it is active; null otherwise or when none was named. */
  readonly namedMembership: MembershipWithParticipant | null;
}

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

/**
 * The caller of a request in one round trip, by unique keys only (session token, user's identity,
 * membership's (user, organization)): every product call asks this first, so it is a named
 * prepared statement, planned once per connection.
 */
function sessionCallerStatement(db: Database) {
  return db
    .select({
      identity: identities,
      sessionExpiresAt: sessions.expiresAt,
      user: users,
      participant: participants,
      roles: memberships.roles,
      isDefault: memberships.isDefault,
    })
    .from(sessions)
    .innerJoin(identities, eq(identities.id, sessions.identityId))
    .leftJoin(users, eq(users.identityId, identities.id))
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.participantId, sql.placeholder('participantId'))))
    .leftJoin(participants, and(eq(participants.id, memberships.participantId), eq(participants.isActive, true)))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('find_session_caller');
}

const sessionCallerStatements = new WeakMap<Database, ReturnType<typeof sessionCallerStatement>>();

/** The caller of a live (unexpired) session, or undefined; `participantId` null names no organization. */
export async function findSessionCaller(db: Database, tokenHash: string, participantId: string | null): Promise<SessionCaller | undefined> {
  let statement = sessionCallerStatements.get(db);
  if (!statement) {
    statement = sessionCallerStatement(db);
    sessionCallerStatements.set(db, statement);
  }
  const [row] = await statement.execute({ tokenHash, participantId });
  if (!row) return undefined;
  const namedMembership =
    row.participant && row.roles && row.isDefault !== null
      ? { participant: row.participant, roles: row.roles, isDefault: row.isDefault }
      : null;
  return { identity: row.identity, sessionExpiresAt: row.sessionExpiresAt, user: row.user, namedMembership };
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
