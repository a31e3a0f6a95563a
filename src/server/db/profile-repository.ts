// An organization's contact profile (its profile columns and its additional contacts) and its
// relationships with other organizations: data only (services/profiles.ts runs the write).
import { and, asc, count, desc, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ContactFields, ProfileFields } from '../../contract/profile';
import type { Database, Transaction } from './database';
import { participantContacts, participants, relationships } from './schema';
import type { PageWindow } from './paging';

export const PROFILE_COLUMNS = {
  id: participants.id,
  name: participants.name,
  phoneNumber: participants.phoneNumber,
  email: participants.email,
  street: participants.street,
  street2: participants.street2,
  city: participants.city,
  state: participants.state,
  zip: participants.zip,
  url: participants.url,
};

export interface ProfileRow {
  readonly id: string;
  readonly name: string;
  readonly phoneNumber: string;
  readonly email: string;
  readonly street: string;
  readonly street2: string | null;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly url: string | null;
}

export interface ProfileWithContacts {
  readonly profile: ProfileRow;
  readonly contacts: readonly ContactFields[];
}

/** The organization's profile and contacts; `lock` holds its row until the transaction ends. */
export async function findProfile(
  db: Database | Transaction,
  participantId: string,
  options: { readonly lock?: boolean } = {},
): Promise<ProfileWithContacts | undefined> {
  const query = db.select(PROFILE_COLUMNS).from(participants).where(eq(participants.id, participantId));
  const [profile] = options.lock ? await query.for('update') : await query;
  if (!profile) return undefined;
  const contacts = await db
    .select({
      type: participantContacts.type,
      name: participantContacts.name,
      email: participantContacts.email,
      phoneNumber: participantContacts.phoneNumber,
    })
    .from(participantContacts)
    .where(eq(participantContacts.participantId, participantId))
    .orderBy(asc(participantContacts.type), asc(participantContacts.name));
  return { profile, contacts: contacts as ContactFields[] };
}

/** Writes the profile columns and replaces the contacts with `fields.additionalContacts`. */
export async function writeProfile(tx: Transaction, participantId: string, fields: ProfileFields): Promise<void> {
  await tx
    .update(participants)
    .set({
      name: fields.name,
      phoneNumber: fields.phoneNumber,
      email: fields.email,
      street: fields.address.street,
      street2: fields.address.street2,
      city: fields.address.city,
      state: fields.address.state,
      zip: fields.address.zip,
      url: fields.url,
      updatedAt: sql`now()`,
    })
    .where(eq(participants.id, participantId));
  await tx.delete(participantContacts).where(eq(participantContacts.participantId, participantId));
  if (fields.additionalContacts.length > 0) {
    await tx.insert(participantContacts).values(fields.additionalContacts.map((contact) => ({ participantId, ...contact })));
  }
}

export interface RelationshipRow {
  readonly id: string;
  readonly partnerParticipantId: string;
  readonly partnerName: string;
  readonly type: string;
  readonly state: string;
  readonly created: string;
}

const partner = alias(participants, 'partner');

/** The relationship's other organization, seen from `participantId`. */
const partnerIdOf = (participantId: string) =>
  sql<string>`CASE WHEN ${relationships.participantId} = ${participantId} THEN ${relationships.partnerParticipantId} ELSE ${relationships.participantId} END`;

const ofParticipant = (participantId: string) =>
  or(eq(relationships.participantId, participantId), eq(relationships.partnerParticipantId, participantId));

function relationshipSelect(db: Database, participantId: string) {
  return db
    .select({
      id: relationships.id,
      partnerParticipantId: partner.id,
      partnerName: partner.name,
      type: relationships.type,
      state: relationships.state,
      created: sql<string>`to_char(${relationships.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    })
    .from(relationships)
    .innerJoin(partner, eq(partner.id, partnerIdOf(participantId)));
}

/** The organization's relationships (either side), newest first, one page, and how many in all. */
export async function listRelationships(
  db: Database,
  participantId: string,
  page: PageWindow,
): Promise<{ relationships: RelationshipRow[]; totalCount: number }> {
  const rows = await relationshipSelect(db, participantId)
    .where(ofParticipant(participantId))
    .orderBy(desc(relationships.createdAt), desc(relationships.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ total: count() }).from(relationships).where(ofParticipant(participantId));
  return { relationships: rows, totalCount: total?.total ?? 0 };
}

/** One relationship of the organization; undefined for an unknown one and another organizations' alike. */
export async function findRelationship(db: Database, participantId: string, relationshipId: string): Promise<RelationshipRow | undefined> {
  const [row] = await relationshipSelect(db, participantId).where(and(eq(relationships.id, relationshipId), ofParticipant(participantId)));
  return row;
}
