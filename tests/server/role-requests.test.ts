import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common';
import { loanDetailsSchema, loanEventsSchema, loanListSchema, type LoanListItem } from '../../src/contract/loans';
import { messageListSchema, messageSchema } from '../../src/contract/messages';
import { PATHS } from '../../src/contract/paths';
import { directorySchema, roleRequestSchema, type RoleRequestBody } from '../../src/contract/role-requests';
import { deriveAssetStatus } from '../../src/domain/loan';
import { DEACTIVATION_EVENT_TYPES } from '../../src/domain/deactivation';
import { MESSAGE_ERRORS } from '../../src/domain/messages';
import { ROLE_REQUEST_ERRORS, TRANSFER_EVENT_DESCRIPTIONS, TRANSFER_MESSAGES } from '../../src/domain/role-transfer';
import { TEXTS } from '../../src/domain/texts';
import { deactivationRequests, loanEvents, loanParties, loans, messages, roleRequests } from '../../src/server/db/schema';
import { ConflictError } from '../../src/server/domain-errors';
import { insertLoan, type TestParty } from './support/loan-rows';
import { messageCountMismatches } from './support/message-counts';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
let today: string;
let memberUserId: string;
const ids = {} as Record<'home' | 'second' | 'foreign' | 'third' | 'dormant', string>;
const cookies = {} as Record<'member' | 'other' | 'third', string>;
const NAMES = { home: 'Home Bank', second: 'Second Trust', foreign: 'Foreign Credit', third: 'Third Savings', dormant: 'Dormant Lending' };

type Org = 'home' | 'foreign' | 'third';
/** Each organization with the user who acts for it. */
/** The user of an organization, acting for it. */
const actorOf = (org: Org) => server.caller(cookies[org === 'home' ? 'member' : org === 'foreign' ? 'other' : 'third'], ids[org]);

const messageOf = (response: { json(): unknown }) => errorBodySchema.parse(response.json()).message;

function requestTransfer(
  loanId: string,
  body: RoleRequestBody | Record<string, unknown>,
  options: { as?: Org; cookie?: string | null } = {},
) {
  const actor = actorOf(options.as ?? 'home');
  const cookie = options.cookie === undefined ? actor.cookie : (options.cookie ?? undefined);
  return server.caller(cookie, actor.participantId).post(PATHS.loanRoleRequests(loanId), body);
}

const answer = (as: Org, messageId: string, response: boolean) =>
  server.app.services.roleTransfers.answerMessage({ participantId: ids[as], userId: null, messageId, response });

async function details(loanId: string, as: Org) {
  const response = await actorOf(as).get(PATHS.loanDetails(loanId));
  return response.statusCode === 200 ? loanDetailsSchema.parse(response.json()) : response.statusCode;
}

async function events(loanId: string, as: Org) {
  const response = await actorOf(as).get(PATHS.loanEvents(loanId));
  expect(response.statusCode, response.body).toBe(200);
  return loanEventsSchema.parse(response.json());
}

async function listed(loanId: string, as: Org): Promise<LoanListItem | undefined> {
  const response = await actorOf(as).get(`${PATHS.loans}?limit=100`);
  expect(response.statusCode, response.body).toBe(200);
  return loanListSchema.parse(response.json()).loans.find((item) => item.loanId === loanId);
}

/** The organization's asset list total (SPEC's 'Page X of Y', the dashboard's Assets tile). */
async function listTotal(as: Org): Promise<number> {
  const response = await actorOf(as).get(PATHS.loans);
  expect(response.statusCode, response.body).toBe(200);
  return loanListSchema.parse(response.json()).totalCount;
}

const statusOf = (item: LoanListItem) =>
  deriveAssetStatus(
    item.status,
    [item.owner, item.servicer, item.controller, item.subServicer, item.securedParty].map((entry) => entry?.state),
  );

/** Everything a request or an answer writes about one loan, straight from the tables. */
async function recorded(loanId: string) {
  const db = server.db;
  return {
    loan: (await db.select().from(loans).where(eq(loans.id, loanId)))[0],
    parties: await db.select().from(loanParties).where(eq(loanParties.loanId, loanId)),
    events: await db.select().from(loanEvents).where(eq(loanEvents.loanId, loanId)),
    messages: await db.select().from(messages).where(eq(messages.targetId, loanId)).orderBy(messages.createdAt),
    requests: await db.select().from(roleRequests).where(eq(roleRequests.loanId, loanId)),
  };
}

async function expectNothingRecorded(loanId: string) {
  const rows = await recorded(loanId);
  expect(rows.requests).toEqual([]);
  expect(rows.messages).toEqual([]);
  expect(rows.events.map((event) => event.eventType)).toEqual(['REGISTRATION']);
  expect(rows.parties.every((party) => party.state === 'CONFIRMED')).toBe(true);
}

const homeAs = (role: string, extra: Partial<TestParty> = {}): TestParty => ({
  role,
  participantId: ids.home,
  provenanceId: 'pb1home',
  ...extra,
});
const foreignAs = (role: string): TestParty => ({ role, participantId: ids.foreign, provenanceId: 'pb1foreign' });

/** A loan whose servicer is Home Bank (and nothing else of Home's), owned by a plain name. */
const servicedByHome = () => insertLoan(server.db, { parties: [{ role: 'OWNER', name: 'Alpha Owner Trust' }, homeAs('SERVICER')] });

/** Home Bank asks Foreign Credit to take over the servicer role; answers the request and the receiver's message. */
async function pendingServicerTransfer() {
  const loan = await servicedByHome();
  const response = await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.foreign });
  expect(response.statusCode, response.body).toBe(201);
  const [request] = (await recorded(loan.id)).requests;
  if (!request?.messageId) throw new Error('no request message');
  return { loan, request, messageId: request.messageId };
}

beforeAll(async () => {
  for (const org of ['home', 'second', 'foreign', 'third', 'dormant'] as const) {
    ids[org] = (await insertParticipant(server.db, { name: NAMES[org], isActive: org !== 'dormant' })).id;
  }
  const { user } = await insertUser(server.db, {
    email: 'member@registry.test',
    memberships: [{ participantId: ids.home, isDefault: true }, { participantId: ids.second }],
  });
  memberUserId = user.id;
  await insertUser(server.db, { email: 'other@registry.test', memberships: [{ participantId: ids.foreign, isDefault: true }] });
  await insertUser(server.db, { email: 'third@registry.test', memberships: [{ participantId: ids.third, isDefault: true }] });
  cookies.member = (await server.signIn('member@registry.test')).cookie;
  cookies.other = (await server.signIn('other@registry.test')).cookie;
  cookies.third = (await server.signIn('third@registry.test')).cookie;
  // Foreign Credit holds a role elsewhere, by its provenance id; Third Savings holds none.
  await insertLoan(server.db, { parties: [foreignAs('OWNER')] });
  const result = await server.db.execute<{ today: string }>(sql`select to_char(current_date, 'YYYY-MM-DD') as today`);
  today = result.rows[0]?.today ?? '';
});

describe('GET v1 /participants/directory', () => {
  it('lists every active organization, id and name only, by name, to any signed-in member', async () => {
    const expected = (['foreign', 'home', 'second', 'third'] as const).map((org) => ({ id: ids[org], name: NAMES[org] }));
    for (const as of ['home', 'third'] as const) {
      const response = await actorOf(as).get(PATHS.participantDirectory);
      expect(response.statusCode).toBe(200);
      expect(directorySchema.parse(response.json())).toEqual(expected);
      // Nothing beyond id and name reaches the wire.
      expect(response.json()).toEqual(expected);
    }
  });

  it('answers 401 without a session and 403 Invalid participant for an organization of someone else', async () => {
    expect((await server.anonymous.as(ids.home).get(PATHS.participantDirectory)).statusCode).toBe(401);
    const foreign = await server.caller(cookies.member, ids.foreign).get(PATHS.participantDirectory);
    expect(foreign.statusCode).toBe(403);
    expect(messageOf(foreign)).toBe(TEXTS.invalidParticipantBody);
  });

  it('is documented in OpenAPI with the transfer request and its fields', async () => {
    const document = (await server.anonymous.get('/registry/api-docs/json')).json() as {
      paths: Record<string, Record<string, { description?: string; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
    };
    expect(document.paths['/service-dart/secure/api/v1/participants/directory']?.get?.description).toMatch(/^Our addition/);
    const post = document.paths['/service-dart/secure/api/v1/loans/{loanId}/role-requests']?.post;
    expect(post?.description).toMatch(/^Our addition/);
    const schema = post?.requestBody?.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(['participantId', 'role']);
  });
});

describe('POST v1 /loans/{loanId}/role-requests', () => {
  it('lets the holder ask: the role PENDING with its current value, a Requested event, an actionable message, the request', async () => {
    const loan = await servicedByHome();
    const response = await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.foreign.toUpperCase() });
    expect(response.statusCode, response.body).toBe(201);
    const created = roleRequestSchema.parse(response.json());
    expect(created).toEqual({
      id: expect.any(String),
      loanId: loan.id,
      role: 'SERVICER',
      state: 'PENDING',
      receiver: { id: ids.foreign, name: NAMES.foreign },
      created: expect.any(String),
    });

    const shown = await details(loan.id, 'home');
    if (typeof shown === 'number') throw new Error(`details ${shown}`);
    expect(shown.parties.find((party) => party.role === 'SERVICER')).toMatchObject({
      state: 'PENDING',
      participantId: ids.home,
      currentValue: { participantName: NAMES.home, provenanceId: 'pb1home' },
    });
    const [requested] = await events(loan.id, 'home');
    expect(requested).toMatchObject({
      state: 'Requested',
      eventType: 'TRANSFER_OF_SERVICING',
      eventDescription: TRANSFER_EVENT_DESCRIPTIONS.Requested('SERVICER', NAMES.foreign),
      effectiveDate: null,
      requestedDate: today,
      participant: { participantId: ids.foreign, participantName: NAMES.foreign },
    });

    const rows = await recorded(loan.id);
    expect(rows.messages).toEqual([
      expect.objectContaining({
        participantId: ids.foreign,
        targetType: 'REQUEST_EXECUTE_CONTRACT',
        targetId: loan.id,
        message: TRANSFER_MESSAGES.request(NAMES.home, NAMES.foreign, 'SERVICER', loan.uli),
        isActionable: true,
        read: false,
        archived: false,
        response: null,
      }),
    ]);
    expect(rows.requests).toEqual([
      expect.objectContaining({
        id: created.id,
        role: 'SERVICER',
        requesterParticipantId: ids.home,
        receiverParticipantId: ids.foreign,
        requestedBy: memberUserId,
        state: 'PENDING',
        messageId: rows.messages[0]?.id,
        answeredAt: null,
      }),
    ]);

    // The asset list (kept by triggers) shows the role pending: Pending Update.
    const item = await listed(loan.id, 'home');
    expect(item?.servicer).toEqual({ state: 'PENDING', currentValue: { participantName: NAMES.home, provenanceId: 'pb1home' } });
    expect(item && statusOf(item)).toBe('Pending Update');
  });

  it('lets the receiver of a pending request open the asset (details and history), and nobody else', async () => {
    const { loan } = await pendingServicerTransfer();
    const shown = await details(loan.id, 'foreign');
    expect(typeof shown === 'number' ? shown : shown.loan.loanId).toBe(loan.id);
    expect((await events(loan.id, 'foreign'))[0]?.state).toBe('Requested');
    // Not one of its assets before it answers.
    expect(await listed(loan.id, 'foreign')).toBeUndefined();
    // A third organization sees nothing, as before.
    expect(await details(loan.id, 'third')).toBe(404);
    expect((await actorOf('third').get(PATHS.loanEvents(loan.id))).statusCode).toBe(404);
  });

  it('lets the owner ask for the servicer and the sub-servicer, not for a role another organization holds', async () => {
    const loan = await insertLoan(server.db, {
      parties: [homeAs('OWNER'), foreignAs('SERVICER'), { role: 'SUB_SERVICER', name: 'Sub Servicing Co' }, foreignAs('CONTROLLER')],
    });
    expect((await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.third })).statusCode).toBe(201);
    expect((await requestTransfer(loan.id, { role: 'SUB_SERVICER', participantId: ids.third })).statusCode).toBe(201);
    const controller = await requestTransfer(loan.id, { role: 'CONTROLLER', participantId: ids.third });
    expect(controller.statusCode).toBe(400);
    expect(messageOf(controller)).toBe(ROLE_REQUEST_ERRORS.notAllowed);
    const rows = await recorded(loan.id);
    expect(rows.requests.map((request) => request.role).sort()).toEqual(['SERVICER', 'SUB_SERVICER']);
    expect(rows.parties.find((party) => party.role === 'CONTROLLER')?.state).toBe('CONFIRMED');
  });

  it('refuses an organization that does not hold the role with 400, never 403, and records nothing', async () => {
    const controllerOnly = await insertLoan(server.db, { parties: [foreignAs('OWNER'), homeAs('CONTROLLER'), foreignAs('SERVICER')] });
    const originatorOnly = await insertLoan(server.db, { parties: [foreignAs('OWNER'), homeAs('ORIGINATOR')] });
    for (const [loanId, role] of [
      [controllerOnly.id, 'OWNER'],
      [controllerOnly.id, 'SERVICER'],
      [originatorOnly.id, 'OWNER'],
    ] as const) {
      const response = await requestTransfer(loanId, { role, participantId: ids.third });
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.notAllowed);
    }
    await expectNothingRecorded(controllerOnly.id);
    await expectNothingRecorded(originatorOnly.id);
  });

  it('refuses the receiver of a pending request, which sees the loan but holds no role on it', async () => {
    const { loan } = await pendingServicerTransfer();
    const response = await requestTransfer(loan.id, { role: 'OWNER', participantId: ids.third }, { as: 'foreign' });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.notAllowed);
  });

  it('answers 400 for a role the loan has no party in', async () => {
    const loan = await insertLoan(server.db, { parties: [homeAs('OWNER')] });
    const response = await requestTransfer(loan.id, { role: 'SECURED_PARTY', participantId: ids.foreign });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.noParty);
    await expectNothingRecorded(loan.id);
  });

  it('answers 409 for a role already pending: a second request, or a party the data holds PENDING', async () => {
    const { loan } = await pendingServicerTransfer();
    const second = await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.third });
    expect(second.statusCode).toBe(409);
    expect(messageOf(second)).toBe(ROLE_REQUEST_ERRORS.alreadyPending);
    expect((await recorded(loan.id)).requests).toHaveLength(1);

    const seeded = await insertLoan(server.db, { parties: [homeAs('OWNER', { state: 'PENDING' })] });
    const pending = await requestTransfer(seeded.id, { role: 'OWNER', participantId: ids.third });
    expect(pending.statusCode).toBe(409);
    expect(messageOf(pending)).toBe(ROLE_REQUEST_ERRORS.alreadyPending);
  });

  it('maps a violation of the one-open-request index to 409, with nothing of the attempt left', async () => {
    // A request left open while the party says CONFIRMED: only the unique partial index can tell.
    const loan = await insertLoan(server.db, { parties: [homeAs('OWNER')] });
    await server.db.insert(roleRequests).values({
      loanId: loan.id,
      role: 'OWNER',
      requesterParticipantId: ids.home,
      receiverParticipantId: ids.second,
      state: 'PENDING',
    });
    const response = await requestTransfer(loan.id, { role: 'OWNER', participantId: ids.foreign });
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.alreadyPending);
    const rows = await recorded(loan.id);
    expect(rows.parties.map((party) => party.state)).toEqual(['CONFIRMED']);
    expect(rows.events).toHaveLength(1);
    expect(rows.messages).toEqual([]);
    expect(rows.requests).toHaveLength(1);
  });

  it('answers 400 for an unknown or inactive receiver, and for one that holds the role already', async () => {
    const loan = await insertLoan(server.db, { parties: [homeAs('OWNER'), homeAs('SERVICER')] });
    for (const participantId of [randomUUID(), ids.dormant]) {
      const response = await requestTransfer(loan.id, { role: 'SERVICER', participantId });
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.receiverUnknown);
    }
    const holds = await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.home });
    expect(holds.statusCode).toBe(400);
    expect(messageOf(holds)).toBe(ROLE_REQUEST_ERRORS.receiverHoldsRole);
    await expectNothingRecorded(loan.id);
  });

  it('answers 409 while a deactivation of the loan waits to be processed', async () => {
    const loan = await insertLoan(server.db, { parties: [homeAs('OWNER')] });
    await server.db.insert(deactivationRequests).values({
      loanId: loan.id,
      participantId: ids.home,
      reason: 'Paid in full',
      effectiveDate: '2026-11-01',
      assignee: 'Someone',
      entityType: 'Individual',
      statePostalCode: 'IL',
      street1: '1 Main Street',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    const response = await requestTransfer(loan.id, { role: 'OWNER', participantId: ids.foreign });
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.deactivationPending);
    await expectNothingRecorded(loan.id);
  });

  it('answers 409 for a loan whose history holds a waiting deactivation request without a request row (as the seed writes)', async () => {
    const loan = await insertLoan(server.db, {
      parties: [homeAs('OWNER')],
      events: [
        { eventType: 'REGISTRATION', state: 'Confirmed' },
        { eventType: DEACTIVATION_EVENT_TYPES.requested, state: 'Requested' },
      ],
    });
    const response = await requestTransfer(loan.id, { role: 'OWNER', participantId: ids.foreign });
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.deactivationPending);
    const rows = await recorded(loan.id);
    expect(rows.requests).toEqual([]);
    expect(rows.messages).toEqual([]);
  });

  it('answers 409 for a deactivated loan', async () => {
    const loan = await insertLoan(server.db, { status: 'Inactive', deactivated: true, parties: [homeAs('OWNER')] });
    const response = await requestTransfer(loan.id, { role: 'OWNER', participantId: ids.foreign });
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(ROLE_REQUEST_ERRORS.deactivated);
    await expectNothingRecorded(loan.id);
  });

  it('answers 404 alike for an unknown loan and one the organization may not see; 400 for a malformed id or body', async () => {
    const foreignOnly = await insertLoan(server.db, { parties: [foreignAs('OWNER')] });
    for (const loanId of [foreignOnly.id, randomUUID()]) {
      const response = await requestTransfer(loanId, { role: 'OWNER', participantId: ids.third });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Loan not found.' });
    }
    await expectNothingRecorded(foreignOnly.id);

    const malformed = await requestTransfer('not-a-loan', { role: 'OWNER', participantId: ids.third });
    expect(malformed.statusCode).toBe(400);
    expect(messageOf(malformed)).toMatch(/^params\.loanId: /);
    const loan = await insertLoan(server.db, { parties: [homeAs('OWNER'), homeAs('ORIGINATOR')] });
    for (const [body, field] of [
      [{ role: 'ORIGINATOR', participantId: ids.third }, 'body.role'],
      [{ role: 'OWNER', participantId: 'someone' }, 'body.participantId'],
      [{ role: 'OWNER' }, 'body.participantId'],
    ] as const) {
      const response = await requestTransfer(loan.id, body);
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
    await expectNothingRecorded(loan.id);
  });

  it('answers 401 without a session and 403 Invalid participant for an organization of someone else', async () => {
    const loan = await insertLoan(server.db, { parties: [homeAs('OWNER')] });
    expect((await requestTransfer(loan.id, { role: 'OWNER', participantId: ids.third }, { cookie: null })).statusCode).toBe(401);
    const response = await actorOf('home')
      .as(ids.foreign)
      .post(PATHS.loanRoleRequests(loan.id), { role: 'OWNER', participantId: ids.third });
    expect(response.statusCode).toBe(403);
    expect(messageOf(response)).toBe(TEXTS.invalidParticipantBody);
    await expectNothingRecorded(loan.id);
  });

  it('acts for the organization in the header: the same user, another organization, another answer', async () => {
    const loan = await insertLoan(server.db, { parties: [{ role: 'OWNER', participantId: ids.second }] });
    const body = { role: 'OWNER', participantId: ids.third };
    expect((await requestTransfer(loan.id, body)).statusCode).toBe(404);
    const asSecond = await actorOf('home').as(ids.second).post(PATHS.loanRoleRequests(loan.id), body);
    expect(asSecond.statusCode).toBe(201);
    expect((await recorded(loan.id)).requests[0]?.requesterParticipantId).toBe(ids.second);
  });

  it('decides two simultaneous requests for one role one after the other: one 201, one 409', async () => {
    const loan = await servicedByHome();
    const answers = await Promise.all([
      requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.foreign }),
      requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.third }),
    ]);
    expect(answers.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const rows = await recorded(loan.id);
    expect(rows.requests).toHaveLength(1);
    expect(rows.messages).toHaveLength(1);
  });
});

describe('answering the actionable message', () => {
  it('confirm: the receiver holds the role, CONFIRMED, with the event, the requester told and the asset lists changed', async () => {
    const { loan, request, messageId } = await pendingServicerTransfer();
    const before = (await recorded(loan.id)).loan;
    const totalsBefore = { home: await listTotal('home'), foreign: await listTotal('foreign') };
    await answer('foreign', messageId, true);
    // The list totals move with the loan (they once stayed put: the refresh ran with the index deferred).
    expect({ home: await listTotal('home'), foreign: await listTotal('foreign') }).toEqual({
      home: totalsBefore.home - 1,
      foreign: totalsBefore.foreign + 1,
    });

    const shown = await details(loan.id, 'foreign');
    if (typeof shown === 'number') throw new Error(`details ${shown}`);
    expect(shown.parties.find((party) => party.role === 'SERVICER')).toMatchObject({
      state: 'CONFIRMED',
      participantId: ids.foreign,
      // The provenance id Foreign Credit holds its other roles by.
      currentValue: { participantName: NAMES.foreign, provenanceId: 'pb1foreign' },
    });
    const history = await events(loan.id, 'foreign');
    expect(history.map((event) => [event.eventType, event.state])).toEqual([
      ['TRANSFER_OF_SERVICING', 'Confirmed'],
      ['TRANSFER_OF_SERVICING', 'Requested'],
      ['REGISTRATION', 'Confirmed'],
    ]);
    expect(history[0]).toMatchObject({
      eventDescription: TRANSFER_EVENT_DESCRIPTIONS.Confirmed('SERVICER', NAMES.foreign),
      effectiveDate: today,
      requestedDate: today,
      participant: { participantId: ids.foreign, participantName: NAMES.foreign },
    });

    const rows = await recorded(loan.id);
    expect(rows.requests).toEqual([expect.objectContaining({ id: request.id, state: 'CONFIRMED', answeredAt: expect.any(Date) })]);
    expect(rows.messages).toEqual([
      expect.objectContaining({ id: messageId, participantId: ids.foreign, read: true, response: true }),
      expect.objectContaining({
        participantId: ids.home,
        targetType: 'LOAN',
        targetId: loan.id,
        message: TRANSFER_MESSAGES.confirmed(NAMES.foreign, 'SERVICER', loan.uli),
        isActionable: false,
        read: false,
        response: null,
      }),
    ]);
    expect(rows.loan?.updatedAt.getTime()).toBeGreaterThan(before?.updatedAt.getTime() ?? Infinity);

    // The receiver has the asset in its list with the role; Home Bank, which held nothing else, no longer sees it.
    const item = await listed(loan.id, 'foreign');
    expect(item?.servicer).toEqual({ state: 'CONFIRMED', currentValue: { participantName: NAMES.foreign, provenanceId: 'pb1foreign' } });
    expect(item && statusOf(item)).toBe('Active');
    expect(await listed(loan.id, 'home')).toBeUndefined();
    // Home Bank held a role on it: it is told its role moved on (410), not that the asset does not exist.
    expect(await details(loan.id, 'home')).toBe(410);
  });

  it('confirm keeps the former holder on the asset while it holds another role; an organization without a provenance id shows its id', async () => {
    const loan = await insertLoan(server.db, { parties: [homeAs('OWNER'), homeAs('SERVICER')] });
    expect((await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.third })).statusCode).toBe(201);
    const [request] = (await recorded(loan.id)).requests;
    await answer('third', request?.messageId ?? '', true);
    const item = await listed(loan.id, 'home');
    expect(item?.owner?.currentValue).toEqual({ participantName: NAMES.home, provenanceId: 'pb1home' });
    expect(item?.servicer).toEqual({ state: 'CONFIRMED', currentValue: { participantName: NAMES.third, provenanceId: ids.third } });
    expect((await listed(loan.id, 'third'))?.servicer?.state).toBe('CONFIRMED');
  });

  it('reject: the role REJECTED with its current value, the event, the requester told; the receiver sees the loan no more', async () => {
    const { loan, request, messageId } = await pendingServicerTransfer();
    await answer('foreign', messageId, false);

    const shown = await details(loan.id, 'home');
    if (typeof shown === 'number') throw new Error(`details ${shown}`);
    expect(shown.parties.find((party) => party.role === 'SERVICER')).toMatchObject({
      state: 'REJECTED',
      participantId: ids.home,
      currentValue: { participantName: NAMES.home, provenanceId: 'pb1home' },
    });
    const [rejected] = await events(loan.id, 'home');
    expect(rejected).toMatchObject({
      state: 'Rejected',
      eventType: 'TRANSFER_OF_SERVICING',
      eventDescription: TRANSFER_EVENT_DESCRIPTIONS.Rejected('SERVICER', NAMES.foreign),
      effectiveDate: null,
      requestedDate: today,
      participant: { participantId: ids.foreign, participantName: NAMES.foreign },
    });
    const rows = await recorded(loan.id);
    expect(rows.requests).toEqual([expect.objectContaining({ id: request.id, state: 'REJECTED', answeredAt: expect.any(Date) })]);
    expect(rows.messages).toEqual([
      expect.objectContaining({ id: messageId, read: true, response: false }),
      expect.objectContaining({
        participantId: ids.home,
        targetType: 'LOAN',
        message: TRANSFER_MESSAGES.rejected(NAMES.foreign, 'SERVICER', loan.uli),
        isActionable: false,
      }),
    ]);
    const item = await listed(loan.id, 'home');
    expect(item && statusOf(item)).toBe('Rejected Update');
    // The rejecting receiver took part in the request: it is told it holds no role (410).
    expect(await details(loan.id, 'foreign')).toBe(410);
    expect(await listed(loan.id, 'foreign')).toBeUndefined();
    // The role may be asked for again once the request is closed.
    expect((await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.third })).statusCode).toBe(201);
  });

  it('answers 409 to a second answer, whichever it is, and changes nothing more', async () => {
    const { loan, messageId } = await pendingServicerTransfer();
    await answer('foreign', messageId, true);
    const after = await recorded(loan.id);
    for (const response of [true, false]) {
      const again = answer('foreign', messageId, response);
      await expect(again).rejects.toBeInstanceOf(ConflictError);
      await expect(again).rejects.toMatchObject({ name: 'ConflictError', message: MESSAGE_ERRORS.alreadyAnswered });
    }
    const rows = await recorded(loan.id);
    expect(rows.events).toHaveLength(after.events.length);
    expect(rows.messages).toHaveLength(after.messages.length);
  });

  it('answers 400 to a message that takes no response, 404 to an unknown one or one of another organization', async () => {
    const { loan, messageId } = await pendingServicerTransfer();
    const [plain] = await server.db
      .insert(messages)
      .values({ participantId: ids.foreign, targetType: 'LOAN', targetId: loan.id, message: 'For your information.' })
      .returning();
    await expect(answer('foreign', plain?.id ?? '', true)).rejects.toMatchObject({
      name: 'RuleViolationError',
      message: MESSAGE_ERRORS.notActionable,
    });
    for (const [as, id] of [
      ['third', messageId],
      ['home', messageId],
      ['foreign', randomUUID()],
      ['foreign', 'not-a-uuid'],
    ] as const) {
      await expect(answer(as, id, true)).rejects.toMatchObject({ name: 'NotFoundError', message: MESSAGE_ERRORS.notFound });
    }
    const rows = await recorded(loan.id);
    expect(rows.requests[0]?.state).toBe('PENDING');
    expect(rows.messages.find((message) => message.id === messageId)).toMatchObject({ read: false, response: null });
    expect(rows.messages.find((message) => message.id === plain?.id)).toMatchObject({ read: false, response: null });
  });

  it('answers 409 to an actionable message with no open request behind it', async () => {
    const loan = await insertLoan(server.db, { parties: [foreignAs('OWNER')] });
    const [orphan] = await server.db
      .insert(messages)
      .values({
        participantId: ids.foreign,
        targetType: 'REQUEST_EXECUTE_CONTRACT',
        targetId: loan.id,
        message: 'Confirm?',
        isActionable: true,
      })
      .returning();
    await expect(answer('foreign', orphan?.id ?? '', true)).rejects.toMatchObject({
      name: 'ConflictError',
      message: MESSAGE_ERRORS.alreadyAnswered,
    });
    expect((await recorded(loan.id)).messages[0]).toMatchObject({ read: false, response: null });
  });

  it('decides two simultaneous answers one after the other: one acts, the other is 409', async () => {
    const { loan, messageId } = await pendingServicerTransfer();
    const settled = await Promise.allSettled([answer('foreign', messageId, true), answer('foreign', messageId, false)]);
    const fulfilled = settled.filter((result) => result.status === 'fulfilled');
    const rejected = settled.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.reason).toMatchObject({ name: 'ConflictError', message: MESSAGE_ERRORS.alreadyAnswered });
    const winner = settled[0]?.status === 'fulfilled';
    const rows = await recorded(loan.id);
    expect(rows.parties.find((party) => party.role === 'SERVICER')?.state).toBe(winner ? 'CONFIRMED' : 'REJECTED');
    expect(rows.events.filter((event) => event.state === 'Confirmed' || event.state === 'Rejected')).toHaveLength(2); // registration + answer
    expect(rows.messages.filter((message) => message.participantId === ids.home)).toHaveLength(1);
    expect(rows.messages.find((message) => message.id === messageId)?.response).toBe(winner);
  });

  it('answers crossing requests between two organizations at once without a deadlock', async () => {
    // Home asks Foreign and Foreign asks Home: each answer writes both organizations' message counts.
    const pairs = [];
    for (let pair = 0; pair < 8; pair++) {
      const { messageId: toForeign } = await pendingServicerTransfer();
      const loan = await insertLoan(server.db, { parties: [{ role: 'OWNER', name: 'Beta Owner Trust' }, foreignAs('SERVICER')] });
      const response = await requestTransfer(loan.id, { role: 'SERVICER', participantId: ids.home }, { as: 'foreign' });
      expect(response.statusCode, response.body).toBe(201);
      const toHome = (await recorded(loan.id)).requests[0]?.messageId;
      if (!toHome) throw new Error('no request message');
      pairs.push([toForeign, toHome] as const);
    }
    const settled = await Promise.allSettled(
      pairs.flatMap(([toForeign, toHome]) => [answer('foreign', toForeign, true), answer('home', toHome, true)]),
    );
    expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
  });

  it('changes nothing when a step fails midway: one transaction', async () => {
    const { loan, request, messageId } = await pendingServicerTransfer();
    const before = await recorded(loan.id);
    // The requester's outcome message is the last insert of an answer: make it fail (DDL: the owner role's).
    await server.database.owner.db.execute(
      sql.raw(`
        create function refuse_outcome_message() returns trigger language plpgsql as $$
        begin
          if new.participant_id = '${ids.home}' and new.target_id = '${loan.id}' and not new.is_actionable then
            raise exception 'outcome message refused for the test';
          end if;
          return new;
        end $$;
        create trigger refuse_outcome_message before insert on messages for each row execute function refuse_outcome_message();`),
    );
    try {
      await expect(answer('foreign', messageId, true)).rejects.toThrow();
    } finally {
      await server.database.owner.db.execute(
        sql.raw('drop trigger refuse_outcome_message on messages; drop function refuse_outcome_message();'),
      );
    }
    const after = await recorded(loan.id);
    expect(after.parties).toEqual(before.parties);
    expect(after.parties.find((party) => party.role === 'SERVICER')).toMatchObject({ state: 'PENDING', participantId: ids.home });
    expect(after.events).toEqual(before.events);
    expect(after.messages).toEqual(before.messages);
    expect(after.messages.find((message) => message.id === messageId)).toMatchObject({ read: false, response: null });
    expect(after.requests).toEqual([expect.objectContaining({ id: request.id, state: 'PENDING', answeredAt: null })]);
    expect(after.loan?.updatedAt).toEqual(before.loan?.updatedAt);
    expect((await listed(loan.id, 'home'))?.servicer?.state).toBe('PENDING');

    // Once the failure is gone the same answer goes through.
    await answer('foreign', messageId, true);
    expect((await recorded(loan.id)).requests[0]?.state).toBe('CONFIRMED');
  });

  it('confirms through PATCH v1 /messages, and the requester reads the outcome in GET v1 /messages', async () => {
    const { loan, messageId } = await pendingServicerTransfer();
    const patch = (response: boolean) => actorOf('foreign').patch(PATHS.messages, { uuid: messageId, response });
    const confirmed = await patch(true);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(messageSchema.parse(confirmed.json()).messageData).toMatchObject({ read: true, isActionable: true, response: true });
    const again = await patch(false);
    expect(again.statusCode).toBe(409);
    expect(messageOf(again)).toBe(MESSAGE_ERRORS.alreadyAnswered);

    const inbox = await actorOf('home').get(`${PATHS.messages}?limit=100`);
    expect(inbox.statusCode, inbox.body).toBe(200);
    const outcome = messageListSchema.parse(inbox.json()).messages.find((message) => message.targetId === loan.id);
    expect(outcome).toMatchObject({
      participantId: ids.home,
      targetType: 'LOAN',
      messageData: { message: TRANSFER_MESSAGES.confirmed(NAMES.foreign, 'SERVICER', loan.uli), read: false, isActionable: false },
    });
    const shown = await details(loan.id, 'foreign');
    expect(typeof shown === 'number' ? shown : shown.parties.find((party) => party.role === 'SERVICER')?.state).toBe('CONFIRMED');
  });

  it("cancels the owner's open request for a new servicer once the ownership moves on; a holder's own request stays open", async () => {
    const loan = await insertLoan(server.db, {
      parties: [homeAs('OWNER'), homeAs('CONTROLLER'), { role: 'SERVICER', name: 'Plain Servicer Co', state: 'REQUESTED' }],
    });
    // As owner, Home asks Foreign to service the loan; as holder, to control it; then hands the ownership to Third.
    for (const [role, receiver] of [
      ['SERVICER', 'foreign'],
      ['CONTROLLER', 'foreign'],
      ['OWNER', 'third'],
    ] as const) {
      const response = await requestTransfer(loan.id, { role, participantId: ids[receiver] });
      expect(response.statusCode, response.body).toBe(201);
    }
    const asked = (await recorded(loan.id)).requests;
    const byRole = (role: string) => asked.find((request) => request.role === role);
    await answer('third', byRole('OWNER')?.messageId ?? '', true);

    const rows = await recorded(loan.id);
    const stateOf = (role: string) => rows.requests.find((request) => request.role === role)?.state;
    expect([stateOf('OWNER'), stateOf('SERVICER'), stateOf('CONTROLLER')]).toEqual(['CONFIRMED', 'CANCELED', 'PENDING']);
    // The servicer is as it was before the request: the same plain name, REQUESTED again.
    expect(rows.parties.find((party) => party.role === 'SERVICER')).toMatchObject({ name: 'Plain Servicer Co', state: 'REQUESTED' });
    expect(rows.parties.find((party) => party.role === 'CONTROLLER')).toMatchObject({ participantId: ids.home, state: 'PENDING' });
    expect(rows.events.filter((event) => event.state === 'Canceled')).toEqual([
      expect.objectContaining({
        eventType: 'TRANSFER_OF_SERVICING',
        participantId: ids.foreign,
        eventDescription: TRANSFER_EVENT_DESCRIPTIONS.Canceled('SERVICER', NAMES.foreign),
        requestedDate: today,
        effectiveDate: null,
      }),
    ]);
    // One transaction wrote the ownership's Confirmed event, then the servicing's Canceled one: the
    // history (newest first) shows them in that order, every time.
    const history = await events(loan.id, 'third');
    expect(history.slice(0, 2).map((event) => `${event.eventType} ${event.state}`)).toEqual([
      'TRANSFER_OF_SERVICING Canceled',
      'TRANSFER_OF_OWNERSHIP Confirmed',
    ]);
    const servicerMessage = rows.messages.find((message) => message.id === byRole('SERVICER')?.messageId);
    expect(servicerMessage).toMatchObject({ isActionable: false, response: null });
    expect(rows.messages).toContainEqual(
      expect.objectContaining({
        participantId: ids.foreign,
        targetType: 'LOAN',
        message: TRANSFER_MESSAGES.canceled(NAMES.home, 'SERVICER', loan.uli),
        isActionable: false,
      }),
    );
    // Foreign's answer to the canceled request moves nothing; its request for the controller still can.
    const late = answer('foreign', byRole('SERVICER')?.messageId ?? '', true);
    await expect(late).rejects.toMatchObject({ name: 'RuleViolationError', message: MESSAGE_ERRORS.notActionable });
    await answer('foreign', byRole('CONTROLLER')?.messageId ?? '', true);
    const final = await recorded(loan.id);
    expect(final.parties.find((party) => party.role === 'SERVICER')).toMatchObject({ name: 'Plain Servicer Co', participantId: null });
    expect(final.parties.find((party) => party.role === 'CONTROLLER')).toMatchObject({ participantId: ids.foreign, state: 'CONFIRMED' });
  });

  it("keeps every organization's message counts equal to a recount after the requests and answers above", async () => {
    expect(await messageCountMismatches(server.database)).toEqual([]);
  });
});
