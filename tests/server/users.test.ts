import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { userParticipantsSchema } from '../../src/contract/participants';
import { PATHS } from '../../src/contract/paths';
import { usersMeSchema } from '../../src/contract/users';
import { PARTICIPANT_HEADER } from '../../src/domain/constants';
import { TEXTS } from '../../src/domain/texts';
import { participantContacts } from '../../src/server/db/schema';
import { insertIdentity, insertParticipant, insertUser } from './support/server-fixtures';
import { type AppCallers, useRouteTest } from './support/route-test';

const server = useRouteTest();
const ids = {} as Record<'home' | 'second' | 'inactive' | 'foreign' | 'member' | 'other' | 'admin', string>;
const cookies = {} as Record<'member' | 'other' | 'admin' | 'unregistered', string>;

const get = (url: string, cookie: string | undefined, headers: Record<string, string> = {}) => server.caller(cookie).get(url, { headers });

beforeAll(async () => {
  const db = server.db;
  const home = await insertParticipant(db, { name: 'Home Bank' });
  const second = await insertParticipant(db, { name: 'Second Trust' });
  const inactive = await insertParticipant(db, { name: 'Closed Savings', isActive: false });
  const foreign = await insertParticipant(db, { name: 'Foreign Credit' });
  Object.assign(ids, { home: home.id, second: second.id, inactive: inactive.id, foreign: foreign.id });

  const member = await insertUser(db, {
    email: 'member@registry.test',
    memberships: [
      { participantId: home.id, isDefault: true, roles: ['ORG_ADMIN'] },
      { participantId: second.id, roles: ['DART_AGENT'] },
      { participantId: inactive.id, roles: ['ORG_ADMIN'] },
    ],
  });
  const other = await insertUser(db, { email: 'other@registry.test', memberships: [{ participantId: foreign.id, isDefault: true }] });
  const admin = await insertUser(db, {
    email: 'admin@registry.test',
    roles: { 'service-dart': ['ROLE_DART_ADMIN'] },
    memberships: [{ participantId: foreign.id, isDefault: true }],
  });
  await insertIdentity(db, { email: 'unregistered@registry.test' });
  Object.assign(ids, { member: member.user.id, other: other.user.id, admin: admin.user.id });
  for (const name of ['member', 'other', 'admin', 'unregistered'] as const) {
    cookies[name] = (await server.signIn(`${name}@registry.test`)).cookie;
  }
});

describe('GET users/me', () => {
  it('answers 401 without a session', async () => {
    const response = await get(PATHS.usersMe, undefined);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required' });
  });

  it('gives the user and the default organization with its profile', async () => {
    const response = await get(PATHS.usersMe, cookies.member);
    expect(response.statusCode).toBe(200);
    const me = usersMeSchema.parse(response.json());
    expect(me.user).toMatchObject({
      id: ids.member,
      userId: ids.member,
      email: 'member@registry.test',
      fullName: 'Pat Example',
      roles: ['ORG_ADMIN'],
    });
    expect(me.participant).toMatchObject({ id: ids.home, name: 'Home Bank', isActive: true });
    expect(me.participant?.profileInfo).toMatchObject({
      name: 'Home Bank',
      address: { street: '1 Main Street', city: 'Springfield', state: 'IL', zip: '62701' },
      url: 'https://example.test',
      additionalContacts: [{ type: 'LEGAL', name: 'Lee Gal', email: 'legal@example.test', phoneNumber: '4155550101' }],
    });
  });

  it('gives the named organization the same contacts, in order, and follows a change to them', async () => {
    const contactsOf = async () => {
      const response = await get(PATHS.usersMe, cookies.member, { [PARTICIPANT_HEADER]: ids.home });
      expect(response.statusCode).toBe(200);
      return usersMeSchema.parse(response.json()).participant?.profileInfo.additionalContacts;
    };
    const byDefault = usersMeSchema.parse((await get(PATHS.usersMe, cookies.member)).json()).participant?.profileInfo;
    expect(await contactsOf()).toEqual(byDefault?.additionalContacts);
    // Written behind the server's back: the cached caller (which carries the contacts) hears of it
    // by NOTIFY (migration 0020) within milliseconds.
    const added = { type: 'CUSTODIAN', name: 'Cus Todian', email: 'custody@example.test', phoneNumber: '4155550199' };
    await server.db.insert(participantContacts).values({ participantId: ids.home, ...added });
    try {
      await expect.poll(contactsOf, { timeout: 2000, interval: 5 }).toEqual([added, ...(byDefault?.additionalContacts ?? [])]);
    } finally {
      await server.db.delete(participantContacts).where(eq(participantContacts.name, added.name));
    }
    await expect.poll(contactsOf, { timeout: 2000, interval: 5 }).toEqual(byDefault?.additionalContacts);
  });

  it('gives the organization named by the header, with the roles held there', async () => {
    const response = await get(PATHS.usersMe, cookies.member, { [PARTICIPANT_HEADER]: ids.second });
    const me = usersMeSchema.parse(response.json());
    expect(me.participant?.id).toBe(ids.second);
    expect(me.user.roles).toEqual(['DART_AGENT']);
  });

  it('answers 403 Invalid participant when the header names no active organization of the caller', async () => {
    for (const header of [ids.foreign, ids.inactive, 'not-a-uuid']) {
      const response = await get(PATHS.usersMe, cookies.member, { [PARTICIPANT_HEADER]: header });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: TEXTS.invalidParticipantBody });
    }
  });

  it('uses the default organization when no header is sent', async () => {
    const response = await get(PATHS.usersMe, cookies.member);
    expect(usersMeSchema.parse(response.json()).participant?.id).toBe(ids.home);
  });

  it('answers 404 User not found. for an identity without a registry user', async () => {
    const response = await get(PATHS.usersMe, cookies.unregistered);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'User not found.' });
  });
});

describe('GET users/:userId/participants', () => {
  it("lists the caller's active organizations with the default flagged", async () => {
    const response = await get(PATHS.userParticipants(ids.member), cookies.member);
    expect(response.statusCode).toBe(200);
    const list = userParticipantsSchema.parse(response.json());
    expect(list.map((entry) => [entry.participant.name, entry.isDefault])).toEqual([
      ['Home Bank', true],
      ['Second Trust', false],
    ]);
  });

  it("refuses another user's list with 403 and a clear message", async () => {
    const response = await get(PATHS.userParticipants(ids.other), cookies.member);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'You can only list your own organizations.' });
  });

  it("lets a registry administrator read another user's list", async () => {
    const response = await get(PATHS.userParticipants(ids.member), cookies.admin);
    expect(response.statusCode).toBe(200);
    expect(userParticipantsSchema.parse(response.json())).toHaveLength(2);
    const missing = await get(PATHS.userParticipants('00000000-0000-4000-8000-000000000000'), cookies.admin);
    expect(missing.statusCode).toBe(404);
  });

  it('answers 400 naming the parameter for a malformed user id', async () => {
    const response = await get(PATHS.userParticipants('not-a-uuid'), cookies.member);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(body.message).toMatch(/^params\.userId: /);
  });

  it('answers 401 without a session', async () => {
    const response = await get(PATHS.userParticipants(ids.member), undefined);
    expect(response.statusCode).toBe(401);
  });
});

describe('participant tenancy on product routes', () => {
  // A product route that acts for an organization, as a 'member' route does.
  let tenantApp: AppCallers;
  const probe = '/service-dart/secure/api/v1/tenancy-probe';

  beforeAll(async () => {
    tenantApp = await server.otherApp({
      beforeReady: (app) => {
        app.get(probe, { config: { access: 'member' } }, async (request) => ({
          participantId: request.membership?.participant.id,
          roles: request.membership?.roles,
        }));
      },
    });
  });
  const call = (cookie: string | undefined, participant?: string) => tenantApp.caller(cookie, participant).get(probe);
  const invalidParticipant = { statusCode: 403, error: 'Forbidden', message: TEXTS.invalidParticipantBody };

  it('acts for the organization named by the header', async () => {
    const response = await call(cookies.member, ids.second);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ participantId: ids.second, roles: ['DART_AGENT'] });
  });

  it('uses the default organization when no header is sent', async () => {
    expect((await call(cookies.member)).json()).toMatchObject({ participantId: ids.home });
  });

  it('answers 403 Invalid participant for an organization the caller is not a member of', async () => {
    const response = await call(cookies.member, ids.foreign);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(invalidParticipant);
  });

  it('answers 403 Invalid participant for an inactive organization', async () => {
    const response = await call(cookies.member, ids.inactive);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(invalidParticipant);
  });

  it('answers 403 Invalid participant for a malformed id', async () => {
    for (const header of ['not-a-uuid', `${ids.home}x`, '../../etc']) {
      const response = await call(cookies.member, header);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(invalidParticipant);
    }
  });

  it('matches the header case-insensitively and refuses it when sent twice', async () => {
    expect((await call(cookies.member, ids.second.toUpperCase())).json()).toMatchObject({ participantId: ids.second });
    const repeated = await tenantApp.caller(cookies.member).get(probe, { headers: { [PARTICIPANT_HEADER]: [ids.home, ids.second] } });
    expect(repeated.statusCode).toBe(403);
    expect(repeated.json()).toEqual(invalidParticipant);
  });

  it('answers 403 Invalid participant for an identity without a registry user', async () => {
    const response = await call(cookies.unregistered, ids.home);
    expect(response.json()).toEqual(invalidParticipant);
  });

  it('answers 401 before tenancy without a session', async () => {
    expect((await call(undefined, ids.home)).statusCode).toBe(401);
  });
});
