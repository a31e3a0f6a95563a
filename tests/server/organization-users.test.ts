// The users of an organization through the API: the list, invite, add an existing user, roles,
// removal, the user directory; who may call them (registry staff, the organization's ORG_ADMIN),
// SPEC section 5's user messages, the 409s and the guards (the last admin, oneself, two admins
// demoting each other at once), and the audit row of every write.
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  organizationUserSchema,
  organizationUsersPageSchema,
  userSuggestionsSchema,
  usersPageSchema,
} from '../../src/contract/organization-users';
import { PATHS } from '../../src/contract/paths';
import { PERMISSION_REFUSALS } from '../../src/domain/access';
import { USER_TEXTS } from '../../src/domain/administration-texts';
import { prefixUpperBound } from '../../src/server/db/organization-user-repository';
import { auditLog, memberships, users } from '../../src/server/db/schema';
import { postgresErrorCode } from '../../src/server/db/write-transaction';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { useRouteTest, type SignedInCaller } from './support/route-test';

const server = useRouteTest();
const dart = (role?: string) => ({ 'service-dart': role ? [role] : [] });

let orgA: string;
let orgB: string;
let staff: SignedInCaller;
let adminA: SignedInCaller;
let memberA: SignedInCaller;
let adminB: SignedInCaller;
const ids: Record<string, string> = {};

async function named(email: string, firstName: string, lastName: string) {
  await server.db.update(users).set({ firstName, lastName }).where(eq(users.email, email));
}

async function lastAudit(participantId: string) {
  const [row] = await server.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.participantId, participantId))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

const refusal = PERMISSION_REFUSALS['org-admin-or-registry-staff'];

beforeAll(async () => {
  orgA = (await insertParticipant(server.db, { name: 'Alpha Users Bank' })).id;
  orgB = (await insertParticipant(server.db, { name: 'Bravo Users Trust' })).id;
  const make = async (key: string, email: string, role: string | undefined, member: { participantId: string; roles: string[] }[]) => {
    ids[key] = (
      await insertUser(server.db, { email, roles: dart(role), memberships: member.map((m) => ({ ...m, isDefault: true })) })
    ).user.id;
  };
  await make('staff', 'staff@users.test', 'ROLE_DART_ADMIN', []);
  await make('adminA', 'admin.a@users.test', undefined, [{ participantId: orgA, roles: ['ORG_ADMIN'] }]);
  await make('memberA', 'member.a@users.test', undefined, [{ participantId: orgA, roles: ['CUSTODIAN'] }]);
  await make('adminB', 'admin.b@users.test', undefined, [{ participantId: orgB, roles: ['ORG_ADMIN'] }]);
  await named('admin.a@users.test', 'Ada', 'Lovelace');
  await named('member.a@users.test', 'Mary', 'Zimmer');
  await named('admin.b@users.test', 'Bob', 'Brown');
  staff = await server.signIn('staff@users.test');
  adminA = await server.signIn('admin.a@users.test', { participantId: orgA });
  memberA = await server.signIn('member.a@users.test', { participantId: orgA });
  adminB = await server.signIn('admin.b@users.test', { participantId: orgB });
});

describe('GET v2 /participants/{participantId}/users', () => {
  it("lists the organization's users with roles, last sign-in and no invitation, sorted and searchable", async () => {
    const response = await adminA.get(PATHS.participantUsers(orgA));
    expect(response.statusCode).toBe(200);
    const page = organizationUsersPageSchema.parse(response.json());
    expect(page.totalCount).toBe(2);
    // By name: Lovelace before Zimmer.
    expect(page.users.map((user) => user.email)).toEqual(['admin.a@users.test', 'member.a@users.test']);
    expect(page.users[0]).toMatchObject({ roles: ['ORG_ADMIN'], fullName: 'Ada Lovelace', invitation: null });
    // Both signed in above: the sign-in recorded it.
    expect(page.users.every((user) => user.lastSignInAt !== null)).toBe(true);

    const byNameDesc = organizationUsersPageSchema.parse(
      (await staff.get(PATHS.participantUsers(orgA), { query: { sort: 'name', direction: 'desc' } })).json(),
    );
    expect(byNameDesc.users.map((user) => user.email)).toEqual(['member.a@users.test', 'admin.a@users.test']);
    const byEmailDesc = organizationUsersPageSchema.parse(
      (await staff.get(PATHS.participantUsers(orgA), { query: { sort: 'email', direction: 'desc' } })).json(),
    );
    expect(byEmailDesc.users.map((user) => user.email)).toEqual(['member.a@users.test', 'admin.a@users.test']);
    const searched = organizationUsersPageSchema.parse(
      (await staff.get(PATHS.participantUsers(orgA), { query: { query: 'ZIMM' } })).json(),
    );
    expect(searched.users.map((user) => user.email)).toEqual(['member.a@users.test']);
    expect(searched.totalCount).toBe(1);
    // LIKE's wildcards are taken literally.
    const wildcard = organizationUsersPageSchema.parse((await staff.get(PATHS.participantUsers(orgA), { query: { query: '%' } })).json());
    expect(wildcard.totalCount).toBe(0);
    const paged = organizationUsersPageSchema.parse(
      (await staff.get(PATHS.participantUsers(orgA), { query: { limit: '10', offset: '1' } })).json(),
    );
    expect(paged.users.map((user) => user.email)).toEqual(['member.a@users.test']);
    expect(paged.totalCount).toBe(2);
  });

  it("refuses the anonymous (401), a plain member (403), another organization's admin (403); 404 for an unknown organization; 400 for a bad id or sort", async () => {
    expect((await server.anonymous.get(PATHS.participantUsers(orgA))).statusCode).toBe(401);
    const plain = await memberA.get(PATHS.participantUsers(orgA));
    expect(plain.statusCode).toBe(403);
    expect(plain.json().message).toBe(refusal);
    const foreign = await adminB.get(PATHS.participantUsers(orgA));
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain('admin.a@users.test');
    expect((await staff.get(PATHS.participantUsers('00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
    const badId = await staff.get(PATHS.participantUsers('not-a-uuid'));
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toContain('participantId');
    const badSort = await staff.get(PATHS.participantUsers(orgA), { query: { sort: 'password' } });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toContain('sort');
  });
});

describe('POST v2 /participants/{participantId}/users (invite a new person)', () => {
  const person = { firstName: 'Nina', middleName: 'Q', lastName: 'Newman', email: 'nina.newman@users.test', roles: ['CUSTODIAN'] };

  it('creates the user, the membership, the invitation link and the audit row', async () => {
    const response = await adminA.post(PATHS.participantUsers(orgA), person);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.invitationLink).toMatch(/^http:\/\/localhost:80\/identity-broker\/agent\/invitation\?token=[A-Za-z0-9_-]{43}$/);
    const user = organizationUserSchema.parse(body.user);
    expect(user).toMatchObject({ fullName: 'Nina Q Newman', roles: ['CUSTODIAN'], lastSignInAt: null });
    expect(user.invitation?.expired).toBe(false);
    const days = (Date.parse(user.invitation!.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const audit = await lastAudit(orgA);
    expect(audit).toMatchObject({
      action: 'user.invited',
      targetId: user.id,
      actorUserId: ids.adminA,
      actorEmail: 'admin.a@users.test',
      clientAddress: '127.0.0.1',
      before: null,
    });
    expect(audit?.after).toMatchObject({ email: person.email, roles: ['CUSTODIAN'] });
    // The list shows the pending invitation.
    const listed = organizationUsersPageSchema.parse(
      (await adminA.get(PATHS.participantUsers(orgA), { query: { query: 'newman' } })).json(),
    );
    expect(listed.users[0]?.invitation?.id).toBe(user.invitation?.id);
  });

  it('409 for an email another user has (any case), and for an inactive organization', async () => {
    const taken = await adminA.post(PATHS.participantUsers(orgA), { ...person, email: 'ADMIN.B@users.test' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(USER_TEXTS.emailTaken);
    const dormant = (await insertParticipant(server.db, { name: 'Dormant Users Co', isActive: false })).id;
    const inactive = await staff.post(PATHS.participantUsers(dormant), { ...person, email: 'dormant.person@users.test' });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json().message).toBe(USER_TEXTS.organizationInactive);
  });

  it('two invitations of one email to two organizations at once: one 201, one 409 (never a 500)', async () => {
    const body = { ...person, email: 'twice@users.test' };
    const results = await Promise.all([staff.post(PATHS.participantUsers(orgA), body), staff.post(PATHS.participantUsers(orgB), body)]);
    expect(results.map((result) => result.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((result) => result.statusCode === 409)?.json().message).toBe(USER_TEXTS.emailTaken);
  });

  it('answers every SPEC section 5 user message as a 400 naming the field', async () => {
    const long = 'x'.repeat(129);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...person, firstName: '' }, 'firstName', USER_TEXTS.firstNameRequired],
      [{ ...person, lastName: '  ' }, 'lastName', USER_TEXTS.lastNameRequired],
      [{ ...person, firstName: long }, 'firstName', USER_TEXTS.tooLong('First name')],
      [{ ...person, middleName: long }, 'middleName', USER_TEXTS.tooLong('Middle name')],
      [{ ...person, lastName: long }, 'lastName', USER_TEXTS.tooLong('Last name')],
      [{ ...person, email: 'nina@' }, 'email', USER_TEXTS.invalidEmail],
      [{ ...person, roles: [] }, 'roles', USER_TEXTS.rolesRequired],
    ];
    for (const [body, field, message] of cases) {
      const response = await adminA.post(PATHS.participantUsers(orgA), body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message).toContain(`body.${field}`);
      expect(response.json().message).toContain(message);
    }
    const role = await adminA.post(PATHS.participantUsers(orgA), { ...person, roles: ['SUPERUSER'] });
    expect(role.statusCode).toBe(400);
    expect(role.json().message).toContain('body.roles');
  });

  it("refuses a plain member and another organization's admin (403), the anonymous (401)", async () => {
    const body = { ...person, email: 'refused@users.test' };
    expect((await memberA.post(PATHS.participantUsers(orgA), body)).statusCode).toBe(403);
    expect((await adminB.post(PATHS.participantUsers(orgA), body)).statusCode).toBe(403);
    expect((await server.anonymous.post(PATHS.participantUsers(orgA), body)).statusCode).toBe(401);
    const [row] = await server.db.select().from(users).where(eq(users.email, 'refused@users.test'));
    expect(row).toBeUndefined();
  });
});

describe('POST v2 /users/{userId}/participants (add an existing user)', () => {
  it('adds the user with roles (409 when already a member), with its audit row', async () => {
    const response = await adminA.post(PATHS.userParticipantsV2(ids.adminB!), { participantId: orgA, roles: ['FIGURE_ADMIN'] });
    expect(response.statusCode).toBe(201);
    expect(organizationUserSchema.parse(response.json())).toMatchObject({ email: 'admin.b@users.test', roles: ['FIGURE_ADMIN'] });
    expect(await lastAudit(orgA)).toMatchObject({ action: 'user.added', targetId: ids.adminB, before: null });
    // adminB keeps its own default organization.
    const [membership] = await server.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, ids.adminB!), eq(memberships.participantId, orgA)));
    expect(membership?.isDefault).toBe(false);
    const again = await adminA.post(PATHS.userParticipantsV2(ids.adminB!), { participantId: orgA, roles: ['FIGURE_ADMIN'] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(USER_TEXTS.alreadyMember);
  });

  it("404 for an unknown user; 403 for another organization's or a plain member; 400 naming the field", async () => {
    expect(
      (await staff.post(PATHS.userParticipantsV2('00000000-0000-4000-8000-000000000001'), { participantId: orgA, roles: ['CUSTODIAN'] }))
        .statusCode,
    ).toBe(404);
    const foreign = await adminB.post(PATHS.userParticipantsV2(ids.memberA!), { participantId: orgB, roles: ['CUSTODIAN'] });
    expect(foreign.statusCode).toBe(201); // B's admin adds to B: allowed
    const other = await adminB.post(PATHS.userParticipantsV2(ids.staff!), { participantId: orgA, roles: ['CUSTODIAN'] });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(refusal);
    expect((await memberA.post(PATHS.userParticipantsV2(ids.staff!), { participantId: orgA, roles: ['CUSTODIAN'] })).statusCode).toBe(403);
    const invalid = await staff.post(PATHS.userParticipantsV2(ids.staff!), { participantId: 'x', roles: ['CUSTODIAN'] });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toContain('body.participantId');
  });
});

describe('GET v2 /participants/{participantId}/users/{userId}', () => {
  it("answers one member as the list does; 404 for a non-member; refuses a plain member and another organization's admin", async () => {
    const response = await adminA.get(PATHS.participantUser(orgA, ids.memberA!));
    expect(response.statusCode).toBe(200);
    expect(organizationUserSchema.parse(response.json())).toMatchObject({ email: 'member.a@users.test', fullName: 'Mary Zimmer' });
    expect((await staff.get(PATHS.participantUser(orgA, ids.adminA!))).json()).toMatchObject({ roles: ['ORG_ADMIN'] });
    const outsider = await adminA.get(PATHS.participantUser(orgA, ids.staff!));
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().message).toBe(USER_TEXTS.notMember);
    expect((await server.anonymous.get(PATHS.participantUser(orgA, ids.memberA!))).statusCode).toBe(401);
    expect((await memberA.get(PATHS.participantUser(orgA, ids.adminA!))).statusCode).toBe(403);
    const foreign = await adminB.get(PATHS.participantUser(orgA, ids.memberA!));
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain('member.a@users.test');
  });
});

describe('PUT and DELETE v2 /participants/{participantId}/users/{userId}', () => {
  it('changes the roles with before and after in the audit; 404 for a non-member; 400 for no role', async () => {
    const response = await adminA.put(PATHS.participantUser(orgA, ids.memberA!), ['CUSTODIAN', 'DART_AGENT']);
    expect(response.statusCode).toBe(200);
    expect(organizationUserSchema.parse(response.json()).roles).toEqual(['CUSTODIAN', 'DART_AGENT']);
    expect(await lastAudit(orgA)).toMatchObject({
      action: 'user.roles-changed',
      before: { roles: ['CUSTODIAN'] },
      after: { roles: ['CUSTODIAN', 'DART_AGENT'] },
    });
    expect((await adminA.put(PATHS.participantUser(orgA, ids.staff!), ['CUSTODIAN'])).statusCode).toBe(404);
    const none = await adminA.put(PATHS.participantUser(orgA, ids.memberA!), []);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain(USER_TEXTS.rolesRequired);
    expect((await adminB.put(PATHS.participantUser(orgA, ids.memberA!), ['CUSTODIAN'])).statusCode).toBe(403);
    expect((await memberA.put(PATHS.participantUser(orgA, ids.memberA!), ['ORG_ADMIN'])).statusCode).toBe(403);
  });

  it('keeps the last ORG_ADMIN of an active organization, and nobody removes their own admin role or membership', async () => {
    const own = await adminA.put(PATHS.participantUser(orgA, ids.adminA!), ['CUSTODIAN']);
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe(USER_TEXTS.ownAdminRole);
    const ownRemoval = await adminA.delete(PATHS.participantUser(orgA, ids.adminA!));
    expect(ownRemoval.statusCode).toBe(409);
    expect(ownRemoval.json().message).toBe(USER_TEXTS.ownMembership);
    const demote = await staff.put(PATHS.participantUser(orgA, ids.adminA!), ['CUSTODIAN']);
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(USER_TEXTS.lastAdmin);
    const remove = await staff.delete(PATHS.participantUser(orgA, ids.adminA!));
    expect(remove.statusCode).toBe(409);
    expect(remove.json().message).toBe(USER_TEXTS.lastAdmin);
    // Still an admin, still a member.
    const page = organizationUsersPageSchema.parse(
      (await staff.get(PATHS.participantUsers(orgA), { query: { query: 'lovelace' } })).json(),
    );
    expect(page.users[0]?.roles).toEqual(['ORG_ADMIN']);
  });

  it('removes a member (204) with its audit row; the last admin of an inactive organization may go', async () => {
    const removed = await adminA.delete(PATHS.participantUser(orgA, ids.adminB!));
    expect(removed.statusCode).toBe(204);
    expect(await lastAudit(orgA)).toMatchObject({ action: 'user.removed', targetId: ids.adminB, after: null });
    expect((await adminA.delete(PATHS.participantUser(orgA, ids.adminB!))).statusCode).toBe(404);

    const dormant = (await insertParticipant(server.db, { name: 'Dormant Admins Co' })).id;
    await server.db.insert(memberships).values({ userId: ids.adminB!, participantId: dormant, roles: ['ORG_ADMIN'] });
    await server.database.owner.db.execute(sql`UPDATE participants SET is_active = false WHERE id = ${dormant}`);
    expect((await staff.delete(PATHS.participantUser(dormant, ids.adminB!))).statusCode).toBe(204);
  });

  it('two admins demoting each other at the same time: exactly one succeeds, the organization keeps an admin', async () => {
    const org = (await insertParticipant(server.db, { name: 'Race Admins Co' })).id;
    const one = await insertUser(server.db, {
      email: 'race.one@users.test',
      roles: dart(),
      memberships: [{ participantId: org, roles: ['ORG_ADMIN'], isDefault: true }],
    });
    const two = await insertUser(server.db, {
      email: 'race.two@users.test',
      roles: dart(),
      memberships: [{ participantId: org, roles: ['ORG_ADMIN'], isDefault: true }],
    });
    const first = await server.signIn('race.one@users.test', { participantId: org });
    const second = await server.signIn('race.two@users.test', { participantId: org });
    for (let round = 0; round < 5; round += 1) {
      const [a, b] = await Promise.all([
        first.put(PATHS.participantUser(org, two.user.id), ['CUSTODIAN']),
        second.put(PATHS.participantUser(org, one.user.id), ['CUSTODIAN']),
      ]);
      // The loser is refused in the transaction (409), or by the access hook when the winner committed first (403).
      const statuses = [a.statusCode, b.statusCode];
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect([403, 409]).toContain(statuses.find((status) => status !== 200));
      const loser = a.statusCode === 200 ? b : a;
      expect([USER_TEXTS.lastAdmin, USER_TEXTS.noLongerAdmin, refusal]).toContain(loser.json().message);
      const admins = await server.db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.participantId, org), sql`'ORG_ADMIN' = ANY(${memberships.roles})`));
      expect(admins).toHaveLength(1);
      // Both admins again for the next round.
      await server.db
        .update(memberships)
        .set({ roles: ['ORG_ADMIN'] })
        .where(eq(memberships.participantId, org));
    }
  });
});

it("the audit rows are append-only for the server's database role", async () => {
  const row = await lastAudit(orgA);
  expect(row).toBeDefined();
  const refusedCode = (statement: Promise<unknown>) => statement.then(() => 'allowed', postgresErrorCode);
  // 42501: insufficient_privilege.
  expect(await refusedCode(server.db.execute(sql`UPDATE audit_log SET action = 'forged' WHERE id = ${row!.id}`))).toBe('42501');
  expect(await refusedCode(server.db.execute(sql`DELETE FROM audit_log WHERE id = ${row!.id}`))).toBe('42501');
  expect((await lastAudit(orgA))?.action).toBe(row!.action);
});

describe('the guards in the transaction (service level, past the access hook)', () => {
  it('of two concurrent demotions of the last two admins, one is refused: the organization row is locked first', async () => {
    const org = (await insertParticipant(server.db, { name: 'Locked Admins Co' })).id;
    const one = await insertUser(server.db, {
      email: 'lock.one@users.test',
      roles: dart(),
      memberships: [{ participantId: org, roles: ['ORG_ADMIN'] }],
    });
    const two = await insertUser(server.db, {
      email: 'lock.two@users.test',
      roles: dart(),
      memberships: [{ participantId: org, roles: ['ORG_ADMIN'] }],
    });
    const actor = (user: { id: string; email: string }) => ({
      userId: user.id,
      email: user.email,
      clientAddress: '127.0.0.1',
      registryStaff: false,
    });
    for (let round = 0; round < 10; round += 1) {
      const results = await Promise.allSettled([
        server.app.services.organizationUsers.changeRoles({
          participantId: org,
          userId: two.user.id,
          roles: ['CUSTODIAN'],
          actor: actor(one.user),
        }),
        server.app.services.organizationUsers.changeRoles({
          participantId: org,
          userId: one.user.id,
          roles: ['CUSTODIAN'],
          actor: actor(two.user),
        }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((result) => result.status === 'rejected');
      expect([USER_TEXTS.lastAdmin, USER_TEXTS.noLongerAdmin]).toContain((rejected?.reason as Error).message);
      await server.db
        .update(memberships)
        .set({ roles: ['ORG_ADMIN'] })
        .where(eq(memberships.participantId, org));
    }
  });
});

describe('GET v2 /users (the directory and the suggestions)', () => {
  it('registry staff page through every user, searching name or email', async () => {
    const all = usersPageSchema.parse((await staff.get(PATHS.users)).json());
    expect(all.totalCount).toBeGreaterThanOrEqual(6);
    const found = usersPageSchema.parse((await staff.get(PATHS.users, { query: { query: 'ada lov' } })).json());
    expect(found.users.map((user) => user.email)).toEqual(['admin.a@users.test']);
    const byEmail = usersPageSchema.parse((await staff.get(PATHS.users, { query: { query: 'MEMBER.A@' } })).json());
    expect(byEmail.users.map((user) => user.email)).toEqual(['member.a@users.test']);
  });

  it('an ORG_ADMIN gets suggestions (3+ characters, 10 at most, names and email only); others are refused', async () => {
    const found = await adminA.get(PATHS.users, { query: { query: 'brow', limit: '100', offset: '5' } });
    expect(found.statusCode).toBe(200);
    const page = usersPageSchema.parse(found.json());
    expect(page.users.map((user) => user.email)).toEqual(['admin.b@users.test']);
    expect(page.users[0]?.roles).toEqual([]);
    const short = await adminA.get(PATHS.users, { query: { query: 'br' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('querystring.query');
    const plain = await memberA.get(PATHS.users, { query: { query: 'brow' } });
    expect(plain.statusCode).toBe(403);
    expect(plain.json().message).toBe(refusal);
    expect((await server.anonymous.get(PATHS.users)).statusCode).toBe(401);
  });
});

describe('GET v2 /users/suggestions (Add existing user)', () => {
  const suggest = async (caller: SignedInCaller, query: string) => {
    const response = await caller.get(PATHS.userSuggestions, { query: { query } });
    expect(response.statusCode, query).toBe(200);
    return userSuggestionsSchema.parse(response.json()).users.map((user) => user.email);
  };

  it('answers users whose last name, first name or email starts with the query, by name, names and email only', async () => {
    expect(await suggest(adminA, 'lov')).toEqual(['admin.a@users.test']);
    expect(await suggest(adminA, 'MAR')).toEqual(['member.a@users.test']);
    expect(await suggest(staff, 'admin.')).toEqual(['admin.b@users.test', 'admin.a@users.test']);
    // The start of a word only, not any part of it; several words match anywhere.
    expect(await suggest(adminA, 'ovelace')).toEqual([]);
    expect(await suggest(adminA, 'ada lov')).toEqual(['admin.a@users.test']);
    // LIKE's wildcards are literal, and a prefix ending in the last code point has no upper bound to overflow.
    expect(await suggest(staff, 'ad%')).toEqual([]);
    expect(await suggest(staff, 'ad_')).toEqual([]);
    const response = await staff.get(PATHS.userSuggestions, { query: { query: 'lov' } });
    expect(userSuggestionsSchema.parse(response.json()).users[0]?.roles).toEqual([]);
  });

  it('answers at most 10, by name, however many start with the query', async () => {
    for (let index = 0; index < 12; index++) {
      await insertUser(server.db, { email: `suggest.${String(index).padStart(2, '0')}@users.test`, memberships: [] });
    }
    const emails = await suggest(staff, 'suggest.');
    expect(emails).toHaveLength(10);
  });

  it('needs 3 characters; refuses a plain member, and the anonymous', async () => {
    const short = await adminA.get(PATHS.userSuggestions, { query: { query: 'lo' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('query');
    const plain = await memberA.get(PATHS.userSuggestions, { query: { query: 'lov' } });
    expect(plain.statusCode).toBe(403);
    expect(plain.json().message).toBe(refusal);
    expect((await server.anonymous.get(PATHS.userSuggestions, { query: { query: 'lov' } })).statusCode).toBe(401);
  });

  it('bounds a prefix by the next code point', () => {
    expect(prefixUpperBound('mar')).toBe('mas');
    expect(prefixUpperBound('a\u{10FFFE}')).toBe('a\u{10FFFF}');
  });
});

describe("each organization's member count (kept by the memberships triggers)", () => {
  const mismatches = async () =>
    (
      await server.db.execute<{ participant_id: string; kept: number; counted: number }>(
        sql`SELECT p.id AS participant_id, coalesce(c.members, 0) AS kept,
                   (SELECT count(*)::int FROM memberships m WHERE m.participant_id = p.id) AS counted
              FROM participants p LEFT JOIN participant_member_counts c ON c.participant_id = p.id
             WHERE coalesce(c.members, 0) <> (SELECT count(*) FROM memberships m WHERE m.participant_id = p.id)`,
      )
    ).rows;

  it('equals the memberships after invitations, additions, removals, a deleted user and a moved membership', async () => {
    expect(await mismatches()).toEqual([]);
    const before = organizationUsersPageSchema.parse((await staff.get(PATHS.participantUsers(orgB))).json()).totalCount;
    const moved = await insertUser(server.db, {
      email: 'moved.member@users.test',
      memberships: [{ participantId: orgA, roles: ['CUSTODIAN'] }],
    });
    await server.db
      .update(memberships)
      .set({ participantId: orgB })
      .where(and(eq(memberships.userId, moved.user.id), eq(memberships.participantId, orgA)));
    expect(await mismatches()).toEqual([]);
    expect(organizationUsersPageSchema.parse((await staff.get(PATHS.participantUsers(orgB))).json()).totalCount).toBe(before + 1);
    await server.db.delete(users).where(eq(users.id, moved.user.id));
    expect(await mismatches()).toEqual([]);
    expect(organizationUsersPageSchema.parse((await staff.get(PATHS.participantUsers(orgB))).json()).totalCount).toBe(before);
    // A roles change leaves the count alone.
    await server.db
      .update(memberships)
      .set({ roles: ['ORG_ADMIN', 'CUSTODIAN'] })
      .where(eq(memberships.participantId, orgB));
    expect(await mismatches()).toEqual([]);
  });
});

describe("the members' name order kept in memberships (migration 0027)", () => {
  const stale = async () =>
    (
      await server.db.execute<{ user_id: string }>(
        sql`SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
             WHERE (m.sort_last_name, m.sort_first_name) IS DISTINCT FROM (lower(u.last_name), lower(u.first_name))`,
      )
    ).rows;

  it("follows inserts and renames, and the users page's name order is the users' names", async () => {
    expect(await stale()).toEqual([]);
    const added = await insertUser(server.db, {
      email: 'zed.order@users.test',
      memberships: [{ participantId: orgA, roles: ['CUSTODIAN'] }],
    });
    expect(await stale()).toEqual([]);
    await named('zed.order@users.test', 'Zed', 'Aaardvark');
    expect(await stale()).toEqual([]);
    const firstByName = async () =>
      organizationUsersPageSchema.parse((await staff.get(PATHS.participantUsers(orgA), { query: { sort: 'name', limit: '10' } })).json())
        .users[0]?.id;
    expect(await firstByName()).toBe(added.user.id);
    await server.db.update(users).set({ lastName: 'Zzyzx' }).where(eq(users.id, added.user.id));
    expect(await stale()).toEqual([]);
    expect(await firstByName()).not.toBe(added.user.id);
    const lastPage = organizationUsersPageSchema.parse(
      (await staff.get(PATHS.participantUsers(orgA), { query: { sort: 'name', direction: 'desc', limit: '10' } })).json(),
    );
    expect(lastPage.users[0]?.id).toBe(added.user.id);
  });
});
