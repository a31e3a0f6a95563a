// Identities and their sessions (the identity broker's data).
import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import type { Database } from './database';
import { preparedPerDatabase } from './prepared-statement';
import { identities, memberships, participants, sessions, users } from './schema';
import type { MembershipWithParticipant, ParticipantContact, UserRow } from './user-repository';
import { writeTransaction } from './write-transaction';

export type IdentityRow = typeof identities.$inferSelect;

/** Who is calling: a live session's identity, its registry user and its membership of the named organization. */
export interface SessionCaller {
  readonly identity: IdentityRow;
  /**
   * When the session ends unless it is used again: the earlier of its absolute end and its last
   * recorded use plus the idle timeout. A cached caller is not used past it.
   */
  readonly sessionExpiresAt: Date;
  /** Null for an identity without a registry user. */
  readonly user: UserRow | null;
  /** The user's membership of the organization asked for, when it is active; null otherwise or when none was named. */
  readonly namedMembership: MembershipWithParticipant | null;
  /** That organization's additional contacts (its profile, in users/me), read in the same round trip. */
  readonly namedContacts: readonly ParticipantContact[];
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

/** A PostgreSQL interval parameter of `ms` milliseconds. */
const interval = (ms: number) => `${Math.max(0, Math.floor(ms))} milliseconds`;

/** A session ended by the server, for its security event. */
export interface EndedSession {
  readonly identityId: string;
  readonly createdAt: Date;
}

export interface NewSession {
  readonly tokenHash: string;
  readonly identityId: string;
  readonly expiresAt: Date;
  /** The hash the password was checked against: if it changed since (a password reset), no session. */
  readonly verifiedPasswordHash: string;
  /** A stronger hash of the same password to store (defect 6's rehash), in the same transaction. */
  readonly rehashedPasswordHash?: string;
  /** Live sessions the identity may have, this one included; the oldest beyond it are ended. */
  readonly maxSessions: number;
}

/**
 * Starts a session in one transaction: the identity's row is locked (its sign-ins and password
 * changes take turns), the password must still be the one checked, the session is inserted and
 * the identity's oldest sessions beyond `maxSessions` are deleted, and the user's last sign-in is recorded. Undefined when the password
 * changed meanwhile; otherwise the sessions it ended.
 */
export async function startSession(db: Database, session: NewSession): Promise<{ readonly evicted: EndedSession[] } | undefined> {
  return writeTransaction(db, async (tx) => {
    const [current] = await tx
      .select({ passwordHash: identities.passwordHash })
      .from(identities)
      .where(eq(identities.id, session.identityId))
      .for('no key update');
    if (!current || current.passwordHash !== session.verifiedPasswordHash) return undefined;
    if (session.rehashedPasswordHash) {
      await tx.update(identities).set({ passwordHash: session.rehashedPasswordHash }).where(eq(identities.id, session.identityId));
    }
    await tx.insert(sessions).values({ tokenHash: session.tokenHash, identityId: session.identityId, expiresAt: session.expiresAt });
    // The administration's user list shows each user's last sign-in.
    await tx
      .update(users)
      .set({ lastSignInAt: sql`now()` })
      .where(eq(users.identityId, session.identityId));
    const evicted = await tx.execute<{ identity_id: string; created_at: string }>(sql`
      DELETE FROM sessions WHERE token_hash IN (
        SELECT token_hash FROM sessions
        WHERE identity_id = ${session.identityId} AND token_hash <> ${session.tokenHash}
        ORDER BY created_at DESC, token_hash DESC
        OFFSET ${Math.max(0, session.maxSessions - 1)}
      )
      RETURNING identity_id, created_at`);
    return { evicted: evicted.rows.map((row) => ({ identityId: row.identity_id, createdAt: new Date(row.created_at) })) };
  });
}

/**
 * A password change: the new hash is stored and every session of the identity
 * deleted, in one transaction, provided the password is still the one checked. Undefined when it
 * changed meanwhile; otherwise the sessions it ended.
 */
export async function changePassword(
  db: Database,
  change: { identityId: string; verifiedPasswordHash: string; newPasswordHash: string },
): Promise<{ readonly ended: EndedSession[] } | undefined> {
  return writeTransaction(db, async (tx) => {
    const [current] = await tx
      .select({ passwordHash: identities.passwordHash })
      .from(identities)
      .where(eq(identities.id, change.identityId))
      .for('no key update');
    if (!current || current.passwordHash !== change.verifiedPasswordHash) return undefined;
    await tx.update(identities).set({ passwordHash: change.newPasswordHash }).where(eq(identities.id, change.identityId));
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.identityId, change.identityId))
      .returning({ identityId: sessions.identityId, createdAt: sessions.createdAt });
    return { ended };
  });
}

/**
 * The caller of a request in one round trip, by unique keys only (session token, user's identity,
 * membership's (user, organization)): every product call asks this first, so it is a named
 * prepared statement, planned once per connection.
 */
const sessionCallerStatement = preparedPerDatabase((db) =>
  db
    .select({
      identity: identities,
      sessionExpiresAt: sql`least(${sessions.expiresAt}, ${sessions.lastSeenAt} + ${sql.placeholder('idle')}::interval)`.mapWith(
        sessions.expiresAt,
      ),
      user: users,
      participant: participants,
      roles: memberships.roles,
      isDefault: memberships.isDefault,
      // In listParticipantContacts' order; none unless the named membership's organization is active.
      contacts: sql<ParticipantContact[] | null>`(SELECT json_agg(json_build_object('type', c.type, 'name', c.name,
        'email', c.email, 'phoneNumber', c.phone_number) ORDER BY c.type, c.name)
        FROM participant_contacts c WHERE c.participant_id = ${participants.id})`,
    })
    .from(sessions)
    .innerJoin(identities, eq(identities.id, sessions.identityId))
    .leftJoin(users, eq(users.identityId, identities.id))
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.participantId, sql.placeholder('participantId'))))
    .leftJoin(participants, and(eq(participants.id, memberships.participantId), eq(participants.isActive, true)))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastSeenAt, sql`now() - ${sql.placeholder('idle')}::interval`),
      ),
    )
    .limit(1)
    .prepare('find_session_caller'),
);

/**
 * The caller of a live session (before its absolute end, used within `idleTimeoutMs`), or
 * undefined; `participantId` null names no organization.
 */
export async function findSessionCaller(
  db: Database,
  tokenHash: string,
  participantId: string | null,
  idleTimeoutMs: number,
): Promise<SessionCaller | undefined> {
  const [row] = await sessionCallerStatement(db).execute({ tokenHash, participantId, idle: interval(idleTimeoutMs) });
  if (!row) return undefined;
  const namedMembership =
    row.participant && row.roles && row.isDefault !== null
      ? { participant: row.participant, roles: row.roles, isDefault: row.isDefault }
      : null;
  return {
    identity: row.identity,
    sessionExpiresAt: row.sessionExpiresAt,
    user: row.user,
    namedMembership,
    namedContacts: namedMembership ? (row.contacts ?? []) : [],
  };
}

export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

const touchSessionStatement = preparedPerDatabase((db) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        // Another server may have written it moments ago; a dead session is not revived.
        lte(sessions.lastSeenAt, sql`now() - ${sql.placeholder('every')}::interval`),
        gt(sessions.lastSeenAt, sql`now() - ${sql.placeholder('idle')}::interval`),
      ),
    )
    .prepare('touch_session'),
);

/**
 * Records a session's use (the idle timeout slides), unless it was recorded within `everyMs`.
 * Only last_seen_at changes, which the sessions trigger of migration 0011 does not announce, so
 * no server's caller cache is emptied by it.
 */
export async function touchSession(db: Database, tokenHash: string, everyMs: number, idleTimeoutMs: number): Promise<void> {
  await touchSessionStatement(db).execute({ tokenHash, every: interval(everyMs), idle: interval(idleTimeoutMs) });
}

/** A session that ran out: past its absolute end, or unused for the idle timeout. */
export interface ExpiredSession extends EndedSession {
  readonly reason: 'absolute' | 'idle';
  readonly endedAt: Date;
}

/** Deletes every expired session (absolute or idle) and says which ended and why. */
export async function deleteExpiredSessions(db: Database, idleTimeoutMs: number): Promise<ExpiredSession[]> {
  const idleBound = sql`now() - ${interval(idleTimeoutMs)}::interval`;
  const rows = await db
    .delete(sessions)
    .where(or(lte(sessions.expiresAt, sql`now()`), lte(sessions.lastSeenAt, idleBound)))
    .returning({
      identityId: sessions.identityId,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
    });
  return rows.map((row) => {
    const idleEnd = row.lastSeenAt.getTime() + idleTimeoutMs;
    const absolute = row.expiresAt.getTime() <= idleEnd;
    return {
      identityId: row.identityId,
      createdAt: row.createdAt,
      reason: absolute ? 'absolute' : 'idle',
      endedAt: new Date(absolute ? row.expiresAt.getTime() : idleEnd),
    };
  });
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
