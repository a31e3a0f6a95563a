// The users of an organization (memberships with their roles), the registry's user directory,
// invitations and the outbox: data only. The writes take a transaction from the service
// (services/organization-users.ts), which decides; the reads use the search and order indexes of
// users (users_search_idx, users_name_order_idx) and memberships_participant_idx.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Invitation, OrganizationUser } from '../../contract/organization-users';
import type { User } from '../../contract/users';
import { ORG_ADMIN_ROLE } from '../../domain/access';
import type { Database, Transaction } from './database';
import { pageSql } from './paging';
import { poolOf } from './pg-pool';
import { identities, invitations, memberships, outbox, participants, users } from './schema';

type Executor = Database | Transaction;

export type UserRow = typeof users.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;

/** The expression users_search_idx indexes (schema.ts): a search must use it exactly to use the index. */
const USER_SEARCH_EXPRESSION = `lower(u.first_name || ' ' || u.last_name || ' ' || u.email)`;

/** `%text%` for LIKE, the text's own wildcards and escapes taken literally. */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

const fullNameOf = (row: { first_name: string; middle_name: string | null; last_name: string }) =>
  [row.first_name, row.middle_name, row.last_name].filter(Boolean).join(' ');

interface DirectoryRow {
  id: string;
  email: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
}

const toUser = (row: DirectoryRow, roles: string[]): User => ({
  id: row.id,
  userId: row.id,
  fullName: fullNameOf(row),
  email: row.email,
  firstName: row.first_name,
  middleName: row.middle_name,
  lastName: row.last_name,
  roles,
});

export interface UserSearch {
  /** Any substring of the name or the email; empty lists every user. */
  readonly query?: string | undefined;
  readonly limit: number;
  readonly offset: number;
}

/**
 * GET v2 /users: the registry's users by name (last, first), matching `query` anywhere in the name
 * or email. A search reads its matches once through users_search_idx (a trigram bitmap scan),
 * materialized so the planner cannot walk users_name_order_idx instead, filtering row by row: the
 * matches of a last name are adjacent in that order, and a walk that meets them late read 160,000
 * rows for 10 (450 ms at 200,000 users). The total and the page come from the same matches.
 * Roles are per organization, so the directory carries none.
 */
export async function searchUsers(db: Database, search: UserSearch): Promise<{ users: User[]; totalCount: number }> {
  const query = search.query?.trim() ?? '';
  const order = {
    columns: { name: ['lower(u.last_name)', 'lower(u.first_name)'] },
    sort: { column: 'name', direction: 'asc' },
    tieBreaker: 'u.id',
  } as const;
  const paged = pageSql(order, search, 2);
  const matched = query
    ? `SELECT u.id, u.email, u.first_name, u.middle_name, u.last_name FROM users u WHERE ${USER_SEARCH_EXPRESSION} LIKE $1`
    : `SELECT u.id, u.email, u.first_name, u.middle_name, u.last_name FROM users u WHERE $1::text IS NULL`;
  const { rows } = await poolOf(db).query<(DirectoryRow & { total: number }) | { id: null; total: number }>({
    name: query ? 'users_directory_search' : 'users_directory_all',
    text: `WITH matched AS ${query ? 'MATERIALIZED' : 'NOT MATERIALIZED'} (${matched})
      SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM matched) t
      LEFT JOIN LATERAL (SELECT * FROM matched u ${paged.sql}) p ON true`,
    values: [query ? containsPattern(query) : null, ...paged.values],
  });
  return {
    users: rows.filter((row): row is DirectoryRow & { total: number } => row.id !== null).map((row) => toUser(row, [])),
    totalCount: rows[0]?.total ?? 0,
  };
}

/** `text%` for LIKE, the text's own wildcards and escapes taken literally. */
const prefixPattern = (text: string): string => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The first string past every string that starts with `prefix`, in code point order (the C.UTF-8 collation's). */
export function prefixUpperBound(prefix: string): string {
  const points = [...prefix];
  const last = points.pop();
  return last === undefined ? '\u{10FFFF}' : points.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}

/**
 * GET v2 /users/suggestions: up to `limit` users whose last name, first name or email starts with
 * `query`, by name. Each of the three is a range scan of its own index in that index's order that
 * stops after `limit` rows (users_name_order_idx, users_first_name_order_idx, users_email_key), so
 * a common start ('mar' at 200,000 users: thousands of names) costs what a rare one does; counting
 * or sorting every match of a contains-search cost 20 to 50 ms. The range finds the rows by the
 * collation's order and LIKE keeps exactly the prefix's. A query of several words ('ada love')
 * matches names and emails that hold it anywhere (users_search_idx), a small set.
 */
export async function suggestUsers(db: Database, text: string, limit: number): Promise<User[]> {
  const query = text.trim().toLowerCase();
  const range = (column: string, order: string) =>
    `(SELECT u.id FROM users u WHERE ${column} >= $1 AND ${column} < $2 AND ${column} LIKE $3 ORDER BY ${order} LIMIT $4)`;
  const branches = [
    range('lower(u.last_name)', 'lower(u.last_name), lower(u.first_name), u.id'),
    range('lower(u.first_name)', 'lower(u.first_name), u.id'),
    range('lower(u.email)', 'lower(u.email)'),
    `(SELECT u.id FROM users u WHERE $5::boolean AND ${USER_SEARCH_EXPRESSION} LIKE $6 LIMIT $4)`,
  ];
  const { rows } = await poolOf(db).query<DirectoryRow>({
    name: 'users_suggestions',
    text: `WITH hits AS (${branches.join(' UNION ')})
      SELECT u.id, u.email, u.first_name, u.middle_name, u.last_name FROM users u JOIN hits ON hits.id = u.id
      ORDER BY lower(u.last_name), lower(u.first_name), u.id LIMIT $4`,
    values: [query, prefixUpperBound(query), prefixPattern(query), limit, /\s/.test(query), containsPattern(query)],
  });
  return rows.map((row) => toUser(row, []));
}

export type OrganizationUserSort = 'name' | 'email' | 'lastSignInAt';

export interface OrganizationUserPageRequest {
  readonly query?: string | undefined;
  readonly sort: OrganizationUserSort;
  readonly direction: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

interface MemberRow extends DirectoryRow {
  roles: string[];
  last_sign_in_at: Date | null;
  invitation_id: string | null;
  invitation_created_at: Date | null;
  invitation_expires_at: Date | null;
}

/** The name order is memberships_name_order_idx's (names kept by triggers): a large organization's first page reads 10 entries. */
const MEMBER_SORTS: Readonly<Record<OrganizationUserSort, string | readonly string[]>> = {
  name: ['m.sort_last_name', 'm.sort_first_name'],
  email: 'lower(u.email)',
  lastSignInAt: 'u.last_sign_in_at',
};

/** The newest invitation of a member that is neither accepted nor revoked (expired ones included: the list offers a resend). */
const PENDING_INVITATION = `LEFT JOIN LATERAL (
    SELECT i.id, i.created_at, i.expires_at FROM invitations i
    WHERE i.participant_id = m.participant_id AND i.user_id = m.user_id AND i.accepted_at IS NULL AND i.revoked_at IS NULL
    ORDER BY i.created_at DESC, i.id DESC LIMIT 1
  ) inv ON true`;

const MEMBER_COLUMNS = `u.id, u.email, u.first_name, u.middle_name, u.last_name, u.last_sign_in_at, m.roles,
  inv.id AS invitation_id, inv.created_at AS invitation_created_at, inv.expires_at AS invitation_expires_at`;

export function invitationOf(row: { id: string; createdAt: Date; expiresAt: Date }, now = new Date()): Invitation {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() <= now.getTime(),
  };
}

const toOrganizationUser = (row: MemberRow): OrganizationUser => ({
  ...toUser(row, row.roles),
  lastSignInAt: row.last_sign_in_at ? row.last_sign_in_at.toISOString() : null,
  invitation:
    row.invitation_id && row.invitation_created_at && row.invitation_expires_at
      ? invitationOf({ id: row.invitation_id, createdAt: row.invitation_created_at, expiresAt: row.invitation_expires_at })
      : null,
});

/** GET v2 /participants/{participantId}/users: one page of the organization's members, with the view's total. */
export async function listOrganizationUsers(
  db: Database,
  participantId: string,
  page: OrganizationUserPageRequest,
): Promise<{ users: OrganizationUser[]; totalCount: number }> {
  const query = page.query?.trim() ?? '';
  const where = `m.participant_id = $1${query ? ` AND ${USER_SEARCH_EXPRESSION} LIKE $2` : ' AND $2::text IS NULL'}`;
  const paged = pageSql(
    { columns: MEMBER_SORTS, sort: { column: page.sort, direction: page.direction }, tieBreaker: 'm.user_id' },
    page,
    3,
  );
  const values = [participantId, query ? containsPattern(query) : null];
  // One statement: the count (kept by the memberships triggers without a search, migration 0026),
  // then the page, then each of its rows' invitation (10 lookups, not one per member).
  const counted = query
    ? `SELECT count(*)::int AS total FROM memberships m JOIN users u ON u.id = m.user_id WHERE ${where}`
    : `SELECT coalesce((SELECT c.members FROM participant_member_counts c WHERE c.participant_id = $1 AND $2::text IS NULL), 0) AS total`;
  const { rows } = await poolOf(db).query<MemberRow & { total: number }>({
    // Prepared once per connection and shape: planning the statement cost three times its execution.
    name: `organization_users_${page.sort}_${page.direction}_${query ? 'search' : 'all'}`,
    text: `WITH page AS MATERIALIZED (
        SELECT m.participant_id, m.user_id, m.roles, m.sort_last_name, m.sort_first_name, u.id, u.email, u.first_name, u.middle_name, u.last_name, u.last_sign_in_at
        FROM memberships m JOIN users u ON u.id = m.user_id WHERE ${where} ${paged.sql})
      SELECT t.total, p.* FROM (${counted}) t LEFT JOIN LATERAL (
        SELECT ${MEMBER_COLUMNS.replaceAll('u.', 'm.')} FROM page m ${PENDING_INVITATION}
        ${paged.sql.replace(/ LIMIT .*$/, '').replaceAll('u.', 'm.')}) p ON true`,
    values: [...values, ...paged.values],
  });
  const members = rows.filter((row) => row.id !== null);
  return { users: members.map(toOrganizationUser), totalCount: rows[0]?.total ?? 0 };
}

/** One member as the list shows it (after a write), or undefined when not a member. */
export async function findOrganizationUser(db: Executor, participantId: string, userId: string): Promise<OrganizationUser | undefined> {
  const result = await db.execute<MemberRow & Record<string, unknown>>(
    sql`SELECT ${sql.raw(MEMBER_COLUMNS)} FROM memberships m JOIN users u ON u.id = m.user_id ${sql.raw(PENDING_INVITATION)}
       WHERE m.participant_id = ${participantId} AND m.user_id = ${userId}`,
  );
  const row = result.rows[0];
  if (!row) return undefined;
  // Raw rows through drizzle's execute may carry timestamps as text.
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return toOrganizationUser({
    ...row,
    last_sign_in_at: date(row.last_sign_in_at),
    invitation_created_at: date(row.invitation_created_at),
    invitation_expires_at: date(row.invitation_expires_at),
  });
}

/**
 * Locks the organization's row for this transaction (FOR NO KEY UPDATE: rows that merely reference
 * it are not held up), so the writes on its memberships take turns: two admins demoting each other
 * at once are decided one after the other, and the second sees the first's change.
 */
export async function lockParticipant(
  tx: Transaction,
  participantId: string,
): Promise<{ id: string; name: string; isActive: boolean } | undefined> {
  const [row] = await tx
    .select({ id: participants.id, name: participants.name, isActive: participants.isActive })
    .from(participants)
    .where(eq(participants.id, participantId))
    .for('no key update');
  return row;
}

export async function participantExists(db: Database, participantId: string): Promise<boolean> {
  const [row] = await db.select({ id: participants.id }).from(participants).where(eq(participants.id, participantId));
  return row !== undefined;
}

export async function findMembership(
  tx: Executor,
  participantId: string,
  userId: string,
): Promise<{ roles: string[]; isDefault: boolean } | undefined> {
  const [row] = await tx
    .select({ roles: memberships.roles, isDefault: memberships.isDefault })
    .from(memberships)
    .where(and(eq(memberships.participantId, participantId), eq(memberships.userId, userId)));
  return row;
}

/** Members holding ORG_ADMIN (read under the organization's lock). */
export async function countAdmins(tx: Executor, participantId: string): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(memberships)
    .where(and(eq(memberships.participantId, participantId), sql`${ORG_ADMIN_ROLE} = ANY(${memberships.roles})`));
  return row?.count ?? 0;
}

export async function findUser(tx: Executor, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId));
  return row;
}

/** A user of that email (any case), or an identity of it without a user. */
export async function emailTaken(tx: Executor, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row !== undefined;
}

export async function insertUser(
  tx: Transaction,
  values: { email: string; firstName: string; middleName: string | null; lastName: string },
): Promise<UserRow> {
  const [row] = await tx.insert(users).values(values).returning();
  if (!row) throw new Error('user not inserted');
  return row;
}

export async function insertMembership(
  tx: Transaction,
  values: { userId: string; participantId: string; roles: string[]; isDefault: boolean },
) {
  await tx.insert(memberships).values(values);
}

/** Whether the user has a default organization already (a first membership becomes the default). */
export async function hasDefaultMembership(tx: Executor, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.isDefault, true)))
    .limit(1);
  return row !== undefined;
}

export async function setMembershipRoles(tx: Transaction, participantId: string, userId: string, roles: string[]): Promise<void> {
  await tx
    .update(memberships)
    .set({ roles })
    .where(and(eq(memberships.participantId, participantId), eq(memberships.userId, userId)));
}

export async function setDefaultMembership(tx: Transaction, participantId: string, userId: string): Promise<void> {
  await tx
    .update(memberships)
    .set({ isDefault: true })
    .where(and(eq(memberships.participantId, participantId), eq(memberships.userId, userId)));
}

export async function deleteMembership(tx: Transaction, participantId: string, userId: string): Promise<void> {
  await tx.delete(memberships).where(and(eq(memberships.participantId, participantId), eq(memberships.userId, userId)));
}

export async function insertInvitation(
  tx: Transaction,
  values: { tokenHash: string; userId: string; participantId: string; invitedBy: string | null; expiresAt: Date },
): Promise<InvitationRow> {
  const [row] = await tx.insert(invitations).values(values).returning();
  if (!row) throw new Error('invitation not inserted');
  return row;
}

/** Revokes the member's invitations that are neither accepted nor revoked; answers those it revoked. */
export async function revokePendingInvitations(tx: Transaction, participantId: string, userId: string): Promise<InvitationRow[]> {
  return tx
    .update(invitations)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(invitations.participantId, participantId),
        eq(invitations.userId, userId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .returning();
}

/** The newest invitation of a member, whatever its state. */
export async function latestInvitation(tx: Executor, participantId: string, userId: string): Promise<InvitationRow | undefined> {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.participantId, participantId), eq(invitations.userId, userId)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(1);
  return row;
}

/** An invitation by its token's hash, locked for this transaction (its acceptance is single use). */
export async function lockInvitationByTokenHash(tx: Transaction, tokenHash: string): Promise<InvitationRow | undefined> {
  const [row] = await tx.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)).for('update');
  return row;
}

/** An invitation by its token's hash with its user and organization (the hosted page's GET). */
export async function findInvitationByTokenHash(db: Database, tokenHash: string) {
  const [row] = await db
    .select({
      invitation: invitations,
      user: users,
      participant: { id: participants.id, name: participants.name, isActive: participants.isActive },
    })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.userId))
    .innerJoin(participants, eq(participants.id, invitations.participantId))
    .where(eq(invitations.tokenHash, tokenHash));
  return row;
}

export async function markInvitationAccepted(tx: Transaction, invitationId: string): Promise<void> {
  await tx
    .update(invitations)
    .set({ acceptedAt: sql`now()` })
    .where(eq(invitations.id, invitationId));
}

export async function findIdentityByEmail(tx: Executor, email: string) {
  const [row] = await tx
    .select()
    .from(identities)
    .where(sql`lower(${identities.email}) = lower(${email})`);
  return row;
}

export async function insertIdentity(tx: Transaction, values: { email: string; name: string; passwordHash: string }) {
  const [row] = await tx.insert(identities).values(values).returning();
  if (!row) throw new Error('identity not inserted');
  return row;
}

/** Links a user to its identity and records the sign-in the acceptance is. */
export async function linkIdentity(tx: Transaction, userId: string, identityId: string): Promise<void> {
  await tx
    .update(users)
    .set({ identityId, lastSignInAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** users.last_sign_in_at of the identity's user: every completed sign-in. */
export async function recordSignIn(db: Executor, identityId: string): Promise<void> {
  await db
    .update(users)
    .set({ lastSignInAt: sql`now()` })
    .where(eq(users.identityId, identityId));
}

export async function insertOutboxMail(tx: Transaction, mail: { recipient: string; subject: string; body: string }): Promise<string> {
  const [row] = await tx
    .insert(outbox)
    .values({ channel: 'email', ...mail })
    .returning({ id: outbox.id });
  if (!row) throw new Error('outbox row not inserted');
  return row.id;
}
