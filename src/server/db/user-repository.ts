// Registry users, their memberships of organizations and the organizations' profiles.
import { and, asc, desc, eq, sql, type Placeholder } from 'drizzle-orm';
import type { Database } from './database';
import { preparedPerDatabase } from './prepared-statement';
import { memberships, participantContacts, participants, users } from './schema';

export type UserRow = typeof users.$inferSelect;
export type ParticipantRow = typeof participants.$inferSelect;
export type ContactRow = typeof participantContacts.$inferSelect;
/** An organization's additional contact, as its profile lists them. */
export type ParticipantContact = Pick<ContactRow, 'type' | 'name' | 'email' | 'phoneNumber'>;

export interface MembershipWithParticipant {
  readonly participant: ParticipantRow;
  readonly roles: string[];
  readonly isDefault: boolean;
}

export async function findUserByIdentity(db: Database, identityId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.identityId, identityId)).limit(1);
  return row;
}

export async function findUserById(db: Database, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

function activeMembershipsQuery(db: Database, userId: string | Placeholder) {
  return db
    .select({ participant: participants, roles: memberships.roles, isDefault: memberships.isDefault })
    .from(memberships)
    .innerJoin(participants, eq(participants.id, memberships.participantId))
    .where(and(eq(memberships.userId, userId), eq(participants.isActive, true)))
    .orderBy(desc(memberships.isDefault), asc(participants.name), asc(participants.id));
}

/** The user's memberships of active organizations, the default first, then by name. */
export async function listActiveMemberships(db: Database, userId: string): Promise<MembershipWithParticipant[]> {
  return activeMembershipsQuery(db, userId);
}

// A product call without x-participant-id asks for the default organization.
const defaultMembershipStatement = preparedPerDatabase((db) =>
  activeMembershipsQuery(db, sql.placeholder('userId')).limit(1).prepare('find_default_membership'),
);

/** The default membership, or the first active one when the default organization was deactivated. */
export async function findDefaultMembership(db: Database, userId: string): Promise<MembershipWithParticipant | undefined> {
  const [row] = await defaultMembershipStatement(db).execute({ userId });
  return row;
}

/** The membership of one active organization, or undefined when there is none. */
export async function findActiveMembership(
  db: Database,
  userId: string,
  participantId: string,
): Promise<MembershipWithParticipant | undefined> {
  const [row] = await db
    .select({ participant: participants, roles: memberships.roles, isDefault: memberships.isDefault })
    .from(memberships)
    .innerJoin(participants, eq(participants.id, memberships.participantId))
    .where(and(eq(memberships.userId, userId), eq(memberships.participantId, participantId), eq(participants.isActive, true)))
    .limit(1);
  return row;
}

// users/me asks for the current organization's contacts on every call.
const participantContactsStatement = preparedPerDatabase((db) =>
  db
    .select()
    .from(participantContacts)
    .where(eq(participantContacts.participantId, sql.placeholder('participantId')))
    .orderBy(asc(participantContacts.type), asc(participantContacts.name))
    .prepare('list_participant_contacts'),
);

export async function listParticipantContacts(db: Database, participantId: string): Promise<ContactRow[]> {
  return participantContactsStatement(db).execute({ participantId });
}

/** True when no organization exists yet (an empty database, ready for the demo seed). */
export async function hasNoParticipants(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: participants.id }).from(participants).limit(1);
  return row === undefined;
}
