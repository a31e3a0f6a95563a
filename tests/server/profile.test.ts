// PATCH v1 /participants/profile and the relationships (SPEC sections 3, 5, 6 and 7): the ORG_ADMIN
// of the acting organization replaces its profile and contacts (audit row, before and after); each
// Contact edit rule answers 400 naming the field with SPEC's message; a plain member is refused
// with the permission message; a relationship and its partner's profile are seen by its two
// organizations only.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { partnerProfileSchema, relationshipSchema, relationshipsPageSchema, type ProfileDraft } from '../../src/contract/profile';
import { profileInfoSchema } from '../../src/contract/participants';
import { usersMeSchema } from '../../src/contract/users';
import { PERMISSION_REFUSALS } from '../../src/domain/access';
import { PROFILE_TEXTS } from '../../src/domain/administration-texts';
import { auditLog, relationships } from '../../src/server/db/schema';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { useRouteTest, type SignedInCaller } from './support/route-test';

const server = useRouteTest();
let a: { id: string; name: string };
let b: { id: string; name: string };
let c: { id: string; name: string };
let admin: SignedInCaller;
let member: SignedInCaller;
let adminOfC: SignedInCaller;
let relationshipId: string;
let otherRelationshipId: string;

const validProfile: ProfileDraft = {
  name: 'Alpha Lending',
  phoneNumber: '(415) 555-0199',
  email: 'desk@alpha.test',
  address: { street: '10 Market Street', street2: 'Suite 5', city: 'San Francisco', state: 'CA', zip: '94105' },
  url: 'https://alpha.test',
  additionalContacts: [
    { type: 'LEGAL', name: 'Lina Legal', phoneNumber: '(415) 555-0101', email: 'legal@alpha.test' },
    { type: 'CUSTOMER_SERVICE', name: 'Cass Service', phoneNumber: '(415) 555-0102', email: 'help@alpha.test' },
  ],
};

beforeAll(async () => {
  a = await insertParticipant(server.db, { name: 'Alpha Lending' });
  b = await insertParticipant(server.db, { name: 'Bravo Servicing' });
  c = await insertParticipant(server.db, { name: 'Charlie Custody' });
  await insertUser(server.db, { email: 'admin@alpha.test', memberships: [{ participantId: a.id, isDefault: true, roles: ['ORG_ADMIN'] }] });
  await insertUser(server.db, {
    email: 'member@alpha.test',
    memberships: [{ participantId: a.id, isDefault: true, roles: ['CUSTODIAN'] }],
  });
  await insertUser(server.db, {
    email: 'admin@charlie.test',
    memberships: [{ participantId: c.id, isDefault: true, roles: ['ORG_ADMIN'] }],
  });
  admin = await server.signIn('admin@alpha.test', { participantId: a.id });
  member = await server.signIn('member@alpha.test', { participantId: a.id });
  adminOfC = await server.signIn('admin@charlie.test', { participantId: c.id });
  const [ab, bc] = await server.db
    .insert(relationships)
    .values([
      { participantId: b.id, partnerParticipantId: a.id, type: 'SERVICING', state: 'CONFIRMED' },
      { participantId: b.id, partnerParticipantId: c.id, type: 'CUSTODY', state: 'PENDING' },
    ])
    .returning();
  relationshipId = ab!.id;
  otherRelationshipId = bc!.id;
});

describe('PATCH v1 /participants/profile', () => {
  it("replaces the ORG_ADMIN's organization profile and contacts, answers it and shows it on users/me", async () => {
    const response = await admin.patch(PATHS.participantProfile, validProfile);
    expect(response.statusCode, response.body).toBe(200);
    const profile = profileInfoSchema.parse(response.json());
    expect(profile).toMatchObject({ name: 'Alpha Lending', phoneNumber: '(415) 555-0199', url: 'https://alpha.test' });
    expect(profile.additionalContacts.map((contact) => contact.name)).toEqual(['Cass Service', 'Lina Legal']);
    // The caller cache (with the organization's contacts) was emptied by the tables' triggers.
    const me = usersMeSchema.parse((await admin.get(PATHS.usersMe)).json());
    expect(me.participant?.profileInfo.additionalContacts).toHaveLength(2);
    expect(me.participant?.profileInfo.email).toBe('desk@alpha.test');
  });

  it('appends an audit row with the actor, its address and the values before and after', async () => {
    const before = await server.db.select().from(auditLog).where(eq(auditLog.participantId, a.id));
    const response = await admin.patch(PATHS.participantProfile, { ...validProfile, additionalContacts: [] });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await server.db.select().from(auditLog).where(eq(auditLog.participantId, a.id)).orderBy(auditLog.id);
    expect(rows).toHaveLength(before.length + 1);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ action: 'profile.updated', actorEmail: 'admin@alpha.test', targetId: a.id });
    expect(row.clientAddress).toBeTruthy();
    expect((row.before as { additionalContacts: unknown[] }).additionalContacts).toHaveLength(2);
    expect((row.after as { additionalContacts: unknown[] }).additionalContacts).toHaveLength(0);
  });

  const contact = validProfile.additionalContacts[0]!;
  const cases: [string, Partial<typeof contact>, string, string][] = [
    ['a contact without a name', { name: '  ' }, 'body.additionalContacts.0.name', PROFILE_TEXTS.contactNameRequired],
    [
      'a phone not written (###) ###-####',
      { phoneNumber: '4155550101' },
      'body.additionalContacts.0.phoneNumber',
      PROFILE_TEXTS.invalidPhone,
    ],
    ['a contact without an email', { email: '' }, 'body.additionalContacts.0.email', PROFILE_TEXTS.emailRequired],
    ['an invalid email', { email: 'legal@' }, 'body.additionalContacts.0.email', PROFILE_TEXTS.invalidEmail],
  ];
  for (const [what, change, field, message] of cases) {
    it(`refuses ${what}: 400 naming the field with SPEC's message`, async () => {
      const response = await admin.patch(PATHS.participantProfile, { ...validProfile, additionalContacts: [{ ...contact, ...change }] });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(`${field}: ${message}`);
    });
  }

  it("refuses the organization's own fields by the same rules", async () => {
    const response = await admin.patch(PATHS.participantProfile, { ...validProfile, name: '', phoneNumber: '555', email: 'x' });
    expect(response.statusCode).toBe(400);
    const { message } = response.json() as { message: string };
    expect(message).toContain(`body.name: ${PROFILE_TEXTS.contactNameRequired}`);
    expect(message).toContain(`body.phoneNumber: ${PROFILE_TEXTS.invalidPhone}`);
    expect(message).toContain(`body.email: ${PROFILE_TEXTS.invalidEmail}`);
  });

  it('refuses a plain member with the permission message, and changes nothing', async () => {
    const response = await member.patch(PATHS.participantProfile, { ...validProfile, name: 'Hijacked' });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(PERMISSION_REFUSALS['org-admin']);
    const me = usersMeSchema.parse((await member.get(PATHS.usersMe)).json());
    expect(me.participant?.profileInfo.name).toBe('Alpha Lending');
  });

  it('refuses a caller without a session: 401', async () => {
    expect((await server.anonymous.patch(PATHS.participantProfile, validProfile)).statusCode).toBe(401);
  });
});

describe('relationships and the partner view', () => {
  it("lists the acting organization's relationships, either side, with the partner's name", async () => {
    const page = relationshipsPageSchema.parse((await member.get(PATHS.relationships)).json());
    expect(page.totalCount).toBe(1);
    expect(page.relationships[0]).toMatchObject({
      id: relationshipId,
      partnerName: 'Bravo Servicing',
      type: 'SERVICING',
      state: 'CONFIRMED',
    });
    const ofB = await server.signIn('admin@alpha.test', { participantId: a.id });
    expect(
      relationshipsPageSchema.parse((await ofB.get(PATHS.relationships, { query: { limit: '10', offset: '1' } })).json()).relationships,
    ).toEqual([]);
  });

  it("shows a relationship and the partner's profile, read only, to a member of either organization", async () => {
    const relationship = relationshipSchema.parse((await member.get(PATHS.relationship(relationshipId))).json());
    expect(relationship.partnerParticipantId).toBe(b.id);
    const response = await member.get(PATHS.relationshipPartnerProfile(relationshipId));
    expect(response.statusCode).toBe(200);
    const partner = partnerProfileSchema.parse(response.json());
    expect(partner).toMatchObject({ participantId: b.id, name: 'Bravo Servicing', phoneNumber: '4155550100' });
    expect(partner.additionalContacts).toEqual([
      { type: 'LEGAL', name: 'Lee Gal', email: 'legal@example.test', phoneNumber: '4155550101' },
    ]);
  });

  it("answers 404 for another organizations' relationship, like an unknown one", async () => {
    for (const url of [PATHS.relationship(otherRelationshipId), PATHS.relationshipPartnerProfile(otherRelationshipId)]) {
      const response = await member.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(PROFILE_TEXTS.relationshipNotFound);
      expect(response.body).not.toContain('Charlie');
    }
    expect((await adminOfC.get(PATHS.relationshipPartnerProfile(relationshipId))).statusCode).toBe(404);
    expect((await member.get(PATHS.relationship('7d0b7a53-0c3e-4b4e-9d7a-2f9a3a0c1e11'))).statusCode).toBe(404);
    expect((await adminOfC.get(PATHS.relationshipPartnerProfile(otherRelationshipId))).statusCode).toBe(200);
  });

  it('refuses a caller without a session: 401', async () => {
    expect((await server.anonymous.get(PATHS.relationships)).statusCode).toBe(401);
    expect((await server.anonymous.get(PATHS.relationshipPartnerProfile(relationshipId))).statusCode).toBe(401);
  });
});
