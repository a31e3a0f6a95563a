import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { activityPageSchema, organizationsPageSchema } from '../../src/contract/organizations';
import { participantSchema } from '../../src/contract/participants';
import { PATHS } from '../../src/contract/paths';
import { PERMISSION_REFUSALS } from '../../src/domain/access';
import { TEXTS } from '../../src/domain/texts';
import { ORGANIZATION_TEXTS as T } from '../../src/domain/administration-texts';
import { currentRole } from '../../src/server/db/database';
import { relationships } from '../../src/server/db/schema';
import { parseCsv } from './support/csv-parse';
import { type SignedInCaller, useRouteTest } from './support/route-test';
import { insertParticipant, insertUser } from './support/server-fixtures';

const server = useRouteTest();
const ids = {} as Record<'home' | 'partner' | 'stranger', string>;
let admin: SignedInCaller;
let ops: SignedInCaller;
let orgAdmin: SignedInCaller;
let member: SignedInCaller;
let partner: SignedInCaller;

const staffRoles = (role: string) => ({ 'service-dart': [role] });

const body = (overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  participantName: 'Harbor Lending',
  organizationName: 'Harbor Lending LLC',
  code: 'HBL',
  email: 'ops@harbor.test',
  phoneNumber: '(415) 555-0100',
  address: { street: '1 Pier Way', street2: 'Suite 4', city: 'Oakland', state: 'CA', zip: '94607' },
  grantedLimitedPowerOfAttorney: true,
  ...overrides,
});
const withoutId = (value: Record<string, unknown>) => {
  const { id: _id, ...rest } = value;
  return rest;
};

beforeAll(async () => {
  const db = server.db;
  const home = await insertParticipant(db, { name: 'Home Bank' });
  const partnerOrg = await insertParticipant(db, { name: 'Partner Trust' });
  const stranger = await insertParticipant(db, { name: 'Stranger Credit' });
  Object.assign(ids, { home: home.id, partner: partnerOrg.id, stranger: stranger.id });
  await db
    .insert(relationships)
    .values({ participantId: home.id, partnerParticipantId: partnerOrg.id, type: 'SERVICING', state: 'CONFIRMED' });
  await insertUser(db, {
    email: 'admin@org.test',
    roles: staffRoles('ROLE_DART_ADMIN'),
    memberships: [{ participantId: stranger.id, isDefault: true }],
  });
  await insertUser(db, { email: 'ops@org.test', roles: staffRoles('ROLE_DART_OPS'), memberships: [] });
  await insertUser(db, { email: 'org-admin@org.test', memberships: [{ participantId: home.id, isDefault: true, roles: ['ORG_ADMIN'] }] });
  await insertUser(db, { email: 'member@org.test', memberships: [{ participantId: home.id, isDefault: true, roles: ['CUSTODIAN'] }] });
  await insertUser(db, {
    email: 'partner@org.test',
    memberships: [{ participantId: partnerOrg.id, isDefault: true, roles: ['CUSTODIAN'] }],
  });
  admin = await server.signIn('admin@org.test');
  ops = await server.signIn('ops@org.test');
  orgAdmin = await server.signIn('org-admin@org.test', { participantId: home.id });
  member = await server.signIn('member@org.test', { participantId: home.id });
  partner = await server.signIn('partner@org.test', { participantId: partnerOrg.id });
});

const activityOf = async (participantId: string) => {
  const response = await admin.get(PATHS.participantActivity(participantId), { query: { limit: '100' } });
  expect(response.statusCode).toBe(200);
  return activityPageSchema.parse(response.json()).entries;
};

describe('POST v2 /participants', () => {
  it('creates the organization under the id the client made, and records who did it', async () => {
    const sent = body();
    const response = await admin.post(PATHS.participants, sent);
    expect(response.statusCode).toBe(201);
    expect(participantSchema.parse(response.json())).toEqual({
      id: sent.id,
      name: 'Harbor Lending',
      organizationName: 'Harbor Lending LLC',
      code: 'HBL',
      email: 'ops@harbor.test',
      phoneNumber: '4155550100',
      address: { street: '1 Pier Way', street2: 'Suite 4', city: 'Oakland', state: 'CA', zip: '94607' },
      grantedLimitedPowerOfAttorney: true,
      isActive: true,
    });
    const [entry] = await activityOf(sent.id);
    expect(entry).toMatchObject({
      action: 'organization.created',
      targetType: 'organization',
      targetId: sent.id,
      actorEmail: 'admin@org.test',
      clientAddress: '127.0.0.1',
      before: null,
      after: { id: sent.id, code: 'HBL', name: 'Harbor Lending' },
    });
  });

  it('answers 409 for a code or an id already taken, and writes nothing', async () => {
    const first = body({ code: 'DUP' });
    expect((await ops.post(PATHS.participants, first)).statusCode).toBe(201);
    const sameCode = await ops.post(PATHS.participants, body({ code: 'dup' }));
    expect(sameCode.statusCode).toBe(409);
    expect(sameCode.json().message).toBe(T.codeTaken);
    const sameId = await ops.post(PATHS.participants, body({ id: first.id, code: 'NEW' }));
    expect(sameId.statusCode).toBe(409);
    expect(sameId.json().message).toBe(T.idTaken);
    expect(await activityOf(first.id)).toHaveLength(1);
  });

  it.each([
    ['id', { id: 'not-a-uuid' }, T.invalidId],
    ['participantName', { participantName: '  ' }, T.nameRequired],
    ['organizationName', { organizationName: '' }, T.organizationNameRequired],
    ['code', { code: 'AB' }, T.codeLength],
    ['code', { code: 'ABCD' }, T.codeLength],
    ['email', { email: '' }, T.emailRequired],
    ['email', { email: 'not-an-email' }, T.invalidEmail],
    ['phoneNumber', { phoneNumber: '' }, T.phoneRequired],
    ['phoneNumber', { phoneNumber: '555-0100' }, T.invalidPhone],
    ['phoneNumber', { phoneNumber: '24155550100' }, T.invalidPhone],
    ['address.street', { address: { ...body().address, street: '' } }, T.streetRequired],
    ['address.city', { address: { ...body().address, city: ' ' } }, T.cityRequired],
    ['address.state', { address: { ...body().address, state: 'ZZ' } }, T.invalidState],
    ['address.zip', { address: { ...body().address, zip: '1234' } }, T.invalidZip],
    ['address.zip', { address: { ...body().address, zip: '94607-12345' } }, T.invalidZip],
    ['grantedLimitedPowerOfAttorney', { grantedLimitedPowerOfAttorney: 'yes' }, T.powerOfAttorneyBoolean],
  ])('answers 400 naming %s with its message', async (field, overrides, message) => {
    const response = await admin.post(PATHS.participants, body(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(`body.${field}: ${message}`);
  });

  it('takes 11 digits starting with 1, and a 5+4 zip', async () => {
    const response = await admin.post(
      PATHS.participants,
      body({ code: 'ELV', phoneNumber: '1 415 555 0199', address: { ...body().address, zip: '94607-1234' } }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ phoneNumber: '4155550199', address: { zip: '94607-1234' } });
  });

  it('answers 401 without a session, and the permission refusal to an ORG_ADMIN and a plain member', async () => {
    expect((await server.anonymous.post(PATHS.participants, body())).statusCode).toBe(401);
    for (const caller of [orgAdmin, member]) {
      const response = await caller.post(PATHS.participants, body({ code: 'NOP' }));
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(PERMISSION_REFUSALS['registry-staff']);
    }
  });
});

describe('GET v2 /participants', () => {
  it('pages, sorts, searches by name, code or email, and filters by status', async () => {
    const made = [];
    for (const [name, code] of [
      ['Zephyr Savings', 'ZPH'],
      ['Quill Mortgage', 'QLM'],
      ['Quartz_Bank', 'QZB'],
    ] as const) {
      const sent = body({ participantName: name, organizationName: `${name} Inc`, code, email: `${code.toLowerCase()}@list.test` });
      expect((await admin.post(PATHS.participants, sent)).statusCode).toBe(201);
      made.push(sent.id);
    }
    const list = async (query: Record<string, string>) => {
      const response = await admin.get(PATHS.participants, { query });
      expect(response.statusCode).toBe(200);
      return organizationsPageSchema.parse(response.json());
    };
    const byName = await list({ query: 'qu', sort: 'name' });
    expect(byName.participants.map((p) => p.name)).toEqual(['Quartz_Bank', 'Quill Mortgage']);
    expect(byName.totalCount).toBe(2);
    // LIKE's own characters are taken literally.
    expect((await list({ query: 'z_b' })).participants.map((p) => p.code)).toEqual(['QZB']);
    expect((await list({ query: 'ZPH@LIST' })).participants.map((p) => p.code)).toEqual(['ZPH']);
    expect((await list({ query: 'qlm' })).participants.map((p) => p.name)).toEqual(['Quill Mortgage']);
    const desc = await list({ sort: 'code', direction: 'desc', limit: '10' });
    expect(desc.participants.map((p) => p.code)).toEqual([...desc.participants.map((p) => p.code)].sort().reverse());
    const firstPage = await list({ limit: '10', offset: '0', sort: 'name' });
    const secondPage = await list({ limit: '10', offset: '10', sort: 'name' });
    expect(firstPage.totalCount).toBe(secondPage.totalCount);
    expect(firstPage.participants.length + secondPage.participants.length).toBe(Math.min(20, firstPage.totalCount));

    expect((await admin.patch(PATHS.participant(made[0]!), { isActive: false })).statusCode).toBe(200);
    expect((await list({ query: 'zephyr', status: 'active' })).totalCount).toBe(0);
    expect((await list({ query: 'zephyr', status: 'inactive' })).participants.map((p) => p.isActive)).toEqual([false]);
    expect((await list({ query: 'zephyr', status: 'all' })).totalCount).toBe(1);
  });

  it('uses the search and name-order indexes', async () => {
    const client = await server.database.pool.connect();
    try {
      // Too few rows for the planner to prefer an index on its own: sequential scans are put out of reach.
      await client.query('SET enable_seqscan = off');
      const plan = async (text: string) =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`)).rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(
        await plan(
          `SELECT * FROM participants WHERE lower(name || ' ' || organization_name || ' ' || code || ' ' || email) ILIKE '%harbor%'`,
        ),
      ).toContain('participants_search_idx');
      expect(await plan('SELECT * FROM participants ORDER BY lower(name) ASC, id ASC LIMIT 10 OFFSET 0')).toContain(
        'participants_name_order_idx',
      );
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });

  it('answers 400 for an unknown sort or status, 401 without a session, 403 to an ORG_ADMIN', async () => {
    expect((await admin.get(PATHS.participants, { query: { sort: 'email' } })).statusCode).toBe(400);
    expect((await admin.get(PATHS.participants, { query: { status: 'gone' } })).statusCode).toBe(400);
    expect((await server.anonymous.get(PATHS.participants)).statusCode).toBe(401);
    const refused = await orgAdmin.get(PATHS.participants);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(PERMISSION_REFUSALS['registry-staff']);
  });
});

describe('GET v2 /participants/{participantId}', () => {
  it('answers registry staff, the members of the organization and its partners', async () => {
    for (const caller of [admin, ops, orgAdmin, member, partner]) {
      const response = await caller.get(PATHS.participant(ids.home));
      expect(response.statusCode, response.body).toBe(200);
      expect(participantSchema.parse(response.json()).name).toBe('Home Bank');
    }
    // The relationship reads both ways.
    expect((await member.get(PATHS.participant(ids.partner))).statusCode).toBe(200);
  });

  it("refuses anyone else alike for another's and an unknown id; staff get 404 for an unknown one", async () => {
    for (const id of [ids.stranger, randomUUID()]) {
      const response = await member.get(PATHS.participant(id));
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(PERMISSION_REFUSALS['organization-viewer']);
    }
    const unknown = await admin.get(PATHS.participant(randomUUID()));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(T.notFound);
    expect((await server.anonymous.get(PATHS.participant(ids.home))).statusCode).toBe(401);
    expect((await admin.get(PATHS.participant('not-a-uuid'))).statusCode).toBe(400);
  });
});

describe('PUT v2 /participants/{participantId}', () => {
  it('edits the organization, keeps its id, and records before and after', async () => {
    const sent = body({ code: 'EDT' });
    expect((await admin.post(PATHS.participants, sent)).statusCode).toBe(201);
    const response = await ops.put(PATHS.participant(sent.id), withoutId(body({ code: 'EDU', participantName: 'Harbor Renamed' })));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: sent.id, name: 'Harbor Renamed', code: 'EDU' });
    const [entry] = await activityOf(sent.id);
    expect(entry).toMatchObject({
      action: 'organization.updated',
      actorEmail: 'ops@org.test',
      before: { name: 'Harbor Lending', code: 'EDT' },
      after: { name: 'Harbor Renamed', code: 'EDU' },
    });
  });

  it('refuses an id in the body (read-only), a code taken by another, an unknown id, and non-staff', async () => {
    const sent = body({ code: 'RO1' });
    expect((await admin.post(PATHS.participants, sent)).statusCode).toBe(201);
    const withId = await admin.put(PATHS.participant(sent.id), body({ id: randomUUID(), code: 'RO1' }));
    expect(withId.statusCode).toBe(400);
    expect(withId.json().message).toContain('body');
    const taken = await admin.put(PATHS.participant(sent.id), withoutId(body({ code: 'HBL' })));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(T.codeTaken);
    const invalid = await admin.put(PATHS.participant(sent.id), withoutId(body({ code: 'X' })));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toContain(`body.code: ${T.codeLength}`);
    expect((await admin.put(PATHS.participant(randomUUID()), withoutId(body({ code: 'UNK' })))).statusCode).toBe(404);
    expect((await orgAdmin.put(PATHS.participant(ids.home), withoutId(body({ code: 'OWN' })))).statusCode).toBe(403);
    expect((await server.anonymous.put(PATHS.participant(ids.home), withoutId(body()))).statusCode).toBe(401);
  });
});

describe('PATCH v2 /participants/{participantId}', () => {
  it("deactivates: the members' calls acting for it get 'Invalid participant'; reactivates: they work again", async () => {
    const sent = body({ code: 'DEA' });
    expect((await admin.post(PATHS.participants, sent)).statusCode).toBe(201);
    await insertUser(server.db, {
      email: 'dea-member@org.test',
      memberships: [{ participantId: sent.id, isDefault: true, roles: ['CUSTODIAN'] }],
    });
    const dea = await server.signIn('dea-member@org.test', { participantId: sent.id });
    expect((await dea.get(PATHS.messages)).statusCode).toBe(200);

    const deactivated = await admin.patch(PATHS.participant(sent.id), { isActive: false });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json()).toMatchObject({ id: sent.id, isActive: false });
    const refused = await dea.get(PATHS.messages);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(TEXTS.invalidParticipantBody);
    // Still on record: staff read it.
    expect((await admin.get(PATHS.participant(sent.id))).json()).toMatchObject({ isActive: false });
    const again = await admin.patch(PATHS.participant(sent.id), { isActive: false });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(T.alreadyInactive);

    expect((await ops.patch(PATHS.participant(sent.id), { isActive: true })).statusCode).toBe(200);
    expect((await dea.get(PATHS.messages)).statusCode).toBe(200);

    const actions = (await activityOf(sent.id)).map((entry) => [entry.action, entry.before, entry.after]);
    expect(actions).toEqual([
      ['organization.reactivated', { isActive: false }, { isActive: true }],
      ['organization.deactivated', { isActive: true }, { isActive: false }],
      ['organization.created', null, expect.objectContaining({ id: sent.id })],
    ]);
  });

  it("reaches a second server's cached callers: its member's next call there gets 'Invalid participant'", async () => {
    const sent = body({ code: 'TWO' });
    expect((await admin.post(PATHS.participants, sent)).statusCode).toBe(201);
    await insertUser(server.db, {
      email: 'two-member@org.test',
      memberships: [{ participantId: sent.id, isDefault: true, roles: ['CUSTODIAN'] }],
    });
    const second = await server.otherApp();
    const there = await second.signIn('two-member@org.test', { participantId: sent.id });
    // Called twice: the caller is in the second server's cache.
    for (let i = 0; i < 2; i += 1) expect((await there.get(PATHS.messages)).statusCode).toBe(200);
    expect((await admin.patch(PATHS.participant(sent.id), { isActive: false })).statusCode).toBe(200);
    // The participants trigger's NOTIFY empties the second server's cache within moments of the commit.
    await vi.waitFor(async () => {
      const refused = await there.get(PATHS.messages);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(TEXTS.invalidParticipantBody);
    });
  });

  it('refuses a body other than isActive, an unknown id, and non-staff', async () => {
    expect((await admin.patch(PATHS.participant(ids.home), { isActive: 'no' })).statusCode).toBe(400);
    expect((await admin.patch(PATHS.participant(ids.home), { isActive: false, code: 'X' })).statusCode).toBe(400);
    expect((await admin.patch(PATHS.participant(randomUUID()), { isActive: false })).statusCode).toBe(404);
    for (const caller of [orgAdmin, member]) {
      const response = await caller.patch(PATHS.participant(ids.home), { isActive: false });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(PERMISSION_REFUSALS['registry-staff']);
    }
    expect((await server.anonymous.patch(PATHS.participant(ids.home), { isActive: false })).statusCode).toBe(401);
  });
});

describe('GET v2 /participants/{participantId}/activity', () => {
  it("answers the organization's ORG_ADMIN and staff, refuses a plain member and another's admin", async () => {
    expect((await orgAdmin.get(PATHS.participantActivity(ids.home))).statusCode).toBe(200);
    expect((await ops.get(PATHS.participantActivity(ids.home))).statusCode).toBe(200);
    for (const [caller, id] of [
      [member, ids.home],
      [orgAdmin, ids.stranger],
      [partner, ids.home],
    ] as const) {
      const response = await caller.get(PATHS.participantActivity(id));
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(PERMISSION_REFUSALS['org-admin-or-registry-staff']);
    }
    expect((await server.anonymous.get(PATHS.participantActivity(ids.home))).statusCode).toBe(401);
    expect((await admin.get(PATHS.participantActivity(randomUUID()))).statusCode).toBe(404);
  });

  it('pages newest first, and gives every row as CSV, safe from formula injection', async () => {
    const sent = body({ code: 'CSV', participantName: '=HYPERLINK("x")' });
    expect((await admin.post(PATHS.participants, sent)).statusCode).toBe(201);
    for (const isActive of [false, true, false]) expect((await admin.patch(PATHS.participant(sent.id), { isActive })).statusCode).toBe(200);
    const page = await admin.get(PATHS.participantActivity(sent.id), { query: { limit: '10', offset: '1' } });
    expect(activityPageSchema.parse(page.json())).toMatchObject({ totalCount: 4 });
    expect(page.json().entries.map((entry: { action: string }) => entry.action)).toEqual([
      'organization.reactivated',
      'organization.deactivated',
      'organization.created',
    ]);

    const csv = await admin.get(PATHS.participantActivity(sent.id), { headers: { accept: 'text/csv' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="activity-\d{4}-\d{2}-\d{2}\.csv"$/);
    const records = parseCsv(csv.body.replace(/^\uFEFF/, ''));
    expect(records[0]).toEqual(['occurredAt', 'actorEmail', 'clientAddress', 'action', 'targetType', 'targetId', 'before', 'after']);
    expect(records.slice(1).map((record) => record[3])).toEqual([
      'organization.deactivated',
      'organization.reactivated',
      'organization.deactivated',
      'organization.created',
    ]);
    const created = records[4]!;
    expect(created[6]).toBe('');
    expect(JSON.parse(created[7]!)).toMatchObject({ name: '=HYPERLINK("x")' });
    // A cell that opens with a formula character is quoted by a leading apostrophe.
    expect(records.slice(1).every((record) => record.every((cell) => !/^[=+\-@]/.test(cell)))).toBe(true);
  });
});

describe('the audit log', () => {
  it("is append-only for the server's database role: UPDATE and DELETE are refused", async () => {
    const role = await currentRole(server.database);
    const { rows } = await server.database.pool.query<{ role: string }>('SELECT current_user AS role');
    expect(rows[0]?.role).toBe(role);
    // The app's own pool is this role.
    const appRole = await (
      server.app.db as unknown as { $client: { query(text: string): Promise<{ rows: { role: string }[] }> } }
    ).$client.query('SELECT current_user AS role');
    expect(appRole.rows[0]?.role).toBe(role);
    await expect(server.db.execute(sql`UPDATE audit_log SET action = 'tampered'`)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '42501' }),
    });
    await expect(server.db.execute(sql`DELETE FROM audit_log`)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '42501' }),
    });
    const { rows: counted } = await server.database.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    expect(counted[0]?.count).toBeGreaterThan(0);
  });
});
