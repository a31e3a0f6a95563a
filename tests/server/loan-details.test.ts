import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common';
import { loanDetailsSchema, loanEventsSchema } from '../../src/contract/loans';
import { PATHS } from '../../src/contract/paths';
import { TEXTS } from '../../src/domain/texts';
import { ASSET_PAGE_TEXTS } from '../../src/domain/asset-texts';
import { roleRequests } from '../../src/server/db/schema';
import { isValidUli } from '../../src/domain/uli';
import { insertLoan } from './support/loan-rows';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
let member: Caller;
let foreignUser: Caller;
const ids = {} as Record<'home' | 'second' | 'foreign', string>;
const loanIds = {} as Record<'shared' | 'foreign' | 'secondOnly' | 'quiet', string>;
let sharedUli: string;

const NOT_FOUND_BODY = { statusCode: 404, error: 'Not Found', message: 'Loan not found.' };
const endpoints = [
  ['details', PATHS.loanDetails],
  ['events', PATHS.loanEvents],
] as const;

beforeAll(async () => {
  const db = server.db;
  const home = await insertParticipant(db, { name: 'Home Bank' });
  const second = await insertParticipant(db, { name: 'Second Trust' });
  const foreign = await insertParticipant(db, { name: 'Foreign Credit' });
  Object.assign(ids, { home: home.id, second: second.id, foreign: foreign.id });
  await insertUser(db, {
    email: 'member@registry.test',
    memberships: [{ participantId: home.id, isDefault: true }, { participantId: second.id }],
  });
  member = await server.signIn('member@registry.test');
  await insertUser(db, { email: 'foreign@registry.test', memberships: [{ participantId: foreign.id, isDefault: true }] });
  foreignUser = await server.signIn('foreign@registry.test');

  const shared = await insertLoan(db, {
    loanNumber: 'LN-1001',
    loanType: 'FIRST_LIEN_MORTGAGE',
    tradeDate: '2025-02-03',
    mortgageeOfRecord: 'Home Bank',
    noteAmount: '250000.50',
    noteDate: '2025-01-20',
    noteLocation: 'Vault 7, Springfield',
    modification: true,
    assumption: false,
    borrowerFirstName: 'Ana',
    borrowerLastName: 'Núñez',
    additionalParties: [{ partyType: 'COBORROWER', firstName: 'Ben', lastName: "O'Hara" }],
    dartAsOriginalMortgagee: true,
    propertyStreet1: '44 Oak Avenue',
    propertyStreet2: 'Unit 2',
    propertyCity: 'Chicago',
    propertyState: 'IL',
    propertyZip: '60601',
    parties: [
      { role: 'ORIGINATOR', participantId: second.id },
      { role: 'CONTROLLER', name: 'Custody Trust', state: 'PENDING' },
      { role: 'SERVICER', participantId: foreign.id },
      { role: 'OWNER', participantId: home.id, provenanceId: 'pb1ownerprovenance' },
    ],
    events: [
      {
        eventType: 'REGISTRATION',
        state: 'Confirmed',
        participantId: second.id,
        requestedDate: '2025-02-01',
        effectiveDate: '2025-02-03',
        createdAt: new Date('2025-02-01T10:00:00Z'),
      },
      { eventType: 'TRANSFER_OF_SERVICING', state: 'Confirmed', participantId: foreign.id, createdAt: new Date('2025-03-01T10:00:00Z') },
      {
        eventType: 'TRANSFER_OF_CONTROL',
        state: 'Pending',
        participantId: null,
        effectiveDate: null,
        createdAt: new Date('2025-04-01T10:00:00Z'),
      },
    ],
  });
  sharedUli = shared.uli;
  const foreignLoan = await insertLoan(db, {
    parties: [
      { role: 'OWNER', participantId: foreign.id },
      { role: 'SERVICER', name: 'Somebody Else' },
    ],
  });
  const secondOnly = await insertLoan(db, { parties: [{ role: 'SUB_SERVICER', participantId: second.id, state: 'REJECTED' }] });
  const quiet = await insertLoan(db, { parties: [{ role: 'SECURED_PARTY', participantId: home.id }], events: [] });
  Object.assign(loanIds, { shared: shared.id, foreign: foreignLoan.id, secondOnly: secondOnly.id, quiet: quiet.id });
});

describe('GET v1 /loans/{id}/details', () => {
  it('gives the loan data of SPEC section 3', async () => {
    const response = await member.as(ids.home).get(PATHS.loanDetails(loanIds.shared));
    expect(response.statusCode).toBe(200);
    const { loan } = loanDetailsSchema.parse(response.json());
    expect(isValidUli(loan.loanData.loan.uli)).toBe(true);
    expect(loan).toEqual({
      loanId: loanIds.shared,
      loanData: {
        loan: { uli: sharedUli, loanNumber: 'LN-1001', loanType: 'FIRST_LIEN_MORTGAGE' },
        note: { amount: 250000.5, noteDate: '2025-01-20', noteLocation: 'Vault 7, Springfield', modification: true, assumption: false },
        primaryParty: { firstName: 'Ana', lastName: 'Núñez' },
        additionalParties: [{ partyType: 'COBORROWER', firstName: 'Ben', lastName: "O'Hara" }],
        status: 'Active',
        dartAsOriginalMortgagee: true,
      },
      propertyAddress: { street1: '44 Oak Avenue', street2: 'Unit 2', city: 'Chicago', state: 'IL', zip: '60601' },
      deactivated: false,
      tradeDate: '2025-02-03',
      mortgageeOfRecord: 'Home Bank',
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('lists the parties in role order with state, current value and the participant profile', async () => {
    const response = await member.as(ids.home).get(PATHS.loanDetails(loanIds.shared));
    const { parties } = loanDetailsSchema.parse(response.json());
    expect(parties.map((party) => [party.role, party.state])).toEqual([
      ['OWNER', 'CONFIRMED'],
      ['SERVICER', 'CONFIRMED'],
      ['CONTROLLER', 'PENDING'],
      ['ORIGINATOR', 'CONFIRMED'],
    ]);
    const [owner, servicer, controller] = parties;
    // A participant's provenance id when it has one, else its participant id.
    expect(owner?.currentValue).toEqual({ participantName: 'Home Bank', provenanceId: 'pb1ownerprovenance' });
    expect(servicer?.currentValue).toEqual({ participantName: 'Foreign Credit', provenanceId: ids.foreign });
    expect(owner).toMatchObject({
      participantId: ids.home,
      profileInfo: {
        name: 'Home Bank',
        phoneNumber: '4155550100',
        email: 'contact@homebank.test',
        address: { street: '1 Main Street', street2: null, city: 'Springfield', state: 'IL', zip: '62701' },
        url: 'https://example.test',
        additionalContacts: [{ type: 'LEGAL', name: 'Lee Gal', email: 'legal@example.test', phoneNumber: '4155550101' }],
      },
    });
    // A role held by a plain name has no participant and no profile.
    expect(controller).toEqual({
      role: 'CONTROLLER',
      state: 'PENDING',
      currentValue: 'Custody Trust',
      participantId: null,
      profileInfo: null,
    });
  });

  it('acts for the default organization when the header is left out', async () => {
    const response = await member.get(PATHS.loanDetails(loanIds.quiet));
    expect(response.statusCode).toBe(200);
    expect(loanDetailsSchema.parse(response.json()).parties).toEqual([
      expect.objectContaining({ role: 'SECURED_PARTY', participantId: ids.home }),
    ]);
  });

  it('shows a loan on which the organization holds any role, in any state', async () => {
    const rejected = await member.as(ids.second).get(PATHS.loanDetails(loanIds.secondOnly));
    expect(rejected.statusCode).toBe(200);
    expect(loanDetailsSchema.parse(rejected.json()).parties).toEqual([
      expect.objectContaining({ role: 'SUB_SERVICER', state: 'REJECTED' }),
    ]);
    // The originator role alone is enough.
    const originator = await member.as(ids.second).get(PATHS.loanDetails(loanIds.shared));
    expect(originator.statusCode).toBe(200);
  });

  it('accepts the id in upper case', async () => {
    const response = await member.as(ids.home).get(PATHS.loanDetails(loanIds.shared.toUpperCase()));
    expect(response.statusCode).toBe(200);
    expect(loanDetailsSchema.parse(response.json()).loan.loanId).toBe(loanIds.shared);
  });
});

describe('GET v1 /loans/{id}/events', () => {
  it('gives the events newest first, each with its participant', async () => {
    const response = await member.as(ids.home).get(PATHS.loanEvents(loanIds.shared));
    expect(response.statusCode).toBe(200);
    const events = loanEventsSchema.parse(response.json());
    expect(events.map((event) => event.eventType)).toEqual(['TRANSFER_OF_CONTROL', 'TRANSFER_OF_SERVICING', 'REGISTRATION']);
    expect(events[0]).toMatchObject({
      state: 'Pending',
      effectiveDate: null,
      requestedDate: '2025-03-12',
      participant: null,
      created: '2025-04-01T10:00:00.000Z',
    });
    expect(events[1]?.participant).toEqual({ participantId: ids.foreign, participantName: 'Foreign Credit' });
    expect(events[2]).toMatchObject({
      state: 'Confirmed',
      eventDescription: 'Registered',
      effectiveDate: '2025-02-03',
      requestedDate: '2025-02-01',
      participant: { participantId: ids.second, participantName: 'Second Trust' },
    });
  });

  it('gives an empty list for a visible loan without events', async () => {
    const response = await member.as(ids.home).get(PATHS.loanEvents(loanIds.quiet));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });
});

describe.each(endpoints)('refusals of %s', (_name, pathOf) => {
  it('answers 404 alike for a loan of another organization and a loan that does not exist', async () => {
    const foreign = await member.as(ids.home).get(pathOf(loanIds.foreign));
    const missing = await member.as(ids.home).get(pathOf(randomUUID()));
    expect(foreign.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND_BODY);
    expect(missing.json()).toEqual(NOT_FOUND_BODY);
  });

  it('answers 404 for a loan another organization of the same user holds, when acting for this one', async () => {
    const response = await member.as(ids.home).get(pathOf(loanIds.secondOnly));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND_BODY);
  });

  it('answers 400 naming the field for a malformed id', async () => {
    const response = await member.as(ids.home).get(pathOf('not-a-loan-id'));
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body.message).toMatch(/^params\.id: /);
  });

  it('answers 401 without a session', async () => {
    const response = await server.anonymous.as(ids.home).get(pathOf(loanIds.shared));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required' });
  });

  it('answers 403 Invalid participant for an organization the caller does not belong to', async () => {
    for (const participantId of [ids.foreign, randomUUID(), 'not-a-uuid']) {
      const response = await member.as(participantId).get(pathOf(loanIds.shared));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: TEXTS.invalidParticipantBody });
    }
  });
});

describe('a loan whose role has moved on', () => {
  const GONE_BODY = { statusCode: 410, error: 'Gone', message: ASSET_PAGE_TEXTS.noLongerHeldBody };

  it.each(endpoints)(
    '%s: answers 410 saying so to an organization that transferred its role away, or that the history names',
    async (_name, pathOf) => {
      const db = server.db;
      // Home asked Foreign to take over its only role, and Foreign confirmed: Home holds nothing now.
      const transferred = await insertLoan(db, { parties: [{ role: 'OWNER', participantId: ids.foreign }] });
      await db.insert(roleRequests).values({
        loanId: transferred.id,
        role: 'OWNER',
        requesterParticipantId: ids.home,
        receiverParticipantId: ids.foreign,
        state: 'CONFIRMED',
      });
      // Home registered the loan once; its roles have all moved to Foreign since.
      const registered = await insertLoan(db, {
        parties: [{ role: 'SERVICER', participantId: ids.foreign }],
        events: [{ participantId: ids.home }],
      });
      for (const loanId of [transferred.id, registered.id]) {
        const response = await member.as(ids.home).get(pathOf(loanId));
        expect(response.statusCode).toBe(410);
        expect(response.json()).toEqual(GONE_BODY);
        // Not a word of the loan itself.
        expect(response.body).not.toContain(transferred.uli);
        expect(response.body).not.toContain(registered.uli);
      }
      // The organization now holding it sees it; one that never took part still gets 404.
      expect((await foreignUser.as(ids.foreign).get(pathOf(transferred.id))).statusCode).toBe(200);
      const stranger = await member.as(ids.second).get(pathOf(transferred.id));
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json()).toEqual(NOT_FOUND_BODY);
    },
  );
});

describe('OpenAPI', () => {
  it('documents both routes with the loan id parameter', async () => {
    const response = await server.anonymous.get('/registry/api-docs/json');
    const document = response.json() as { paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }> };
    for (const path of ['/service-dart/secure/api/v1/loans/{id}/details', '/service-dart/secure/api/v1/loans/{id}/events']) {
      expect(document.paths[path]?.get?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' })]));
    }
  });
});
