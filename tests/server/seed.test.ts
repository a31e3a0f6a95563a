import { eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/domain/constants';
import { isHelocType, LOAN_TYPES, MESSAGE_TARGET_TYPES, ROLE_STATES } from '../../src/domain/loan';
import { isUsStateCode } from '../../src/domain/us-states';
import { isValidUli } from '../../src/domain/uli';
import * as schema from '../../src/server/db/schema';
import {
  ADVERSARIAL_LOANS,
  DEMO_ACCOUNTS,
  DOCUMENT_SHOWCASE_LOAN,
  generatedOrganizationCount,
  SEED_TABLES,
  seedDemoData,
  type SeedSummary,
} from '../../src/server/seed';
import { LOAN_LIST_TABLES } from '../../src/server/db/loan-list-index';
import { verifyPassword } from '../../src/server/identity/passwords';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { messageCountMismatches } from './support/message-counts';

const LOANS = 200;

async function tableCounts(database: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of SEED_TABLES) {
    const result = await database.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
    counts[table] = result.rows[0]?.count ?? 0;
  }
  return counts;
}

/** Every index and constraint of the database, by name, as PostgreSQL prints its definition. */
async function schemaDefinitions(database: TestDatabase): Promise<string[]> {
  const result = await database.pool.query<{ definition: string }>(`
    SELECT indexname || ': ' || indexdef AS definition FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL
    SELECT conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT tgrelid::regclass::text || '.' || tgname || ': ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
    ORDER BY 1`);
  return result.rows.map((row) => row.definition);
}

/** The messages of an error and its causes (drizzle wraps the database's error). */
async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const messages: string[] = [];
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
    return messages.join(' <- ');
  }
  throw new Error('expected a failure');
}

/** Loans on which the organization holds one of SPEC's default five roles. */
async function loansHeldBy(database: TestDatabase, participantId: string): Promise<number> {
  const result = await database.pool.query<{ count: number }>(
    `SELECT count(DISTINCT loan_id)::int AS count FROM loan_parties
      WHERE participant_id = $1 AND role IN ('OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY')`,
    [participantId],
  );
  return result.rows[0]?.count ?? 0;
}

async function membershipsOf(database: TestDatabase, email: string) {
  return database.db
    .select({
      participantId: schema.memberships.participantId,
      isActive: schema.participants.isActive,
      roles: schema.memberships.roles,
      isDefault: schema.memberships.isDefault,
    })
    .from(schema.memberships)
    .innerJoin(schema.users, eq(schema.users.id, schema.memberships.userId))
    .innerJoin(schema.participants, eq(schema.participants.id, schema.memberships.participantId))
    .where(eq(schema.users.email, email));
}

/** The ties between actionable messages, role requests and loan parties, as the seed must keep them. */
const TRANSFER_RULES = {
  'actionable message without its request': `
    SELECT count(*) FROM messages m WHERE m.is_actionable AND NOT EXISTS (SELECT 1 FROM role_requests r WHERE r.message_id = m.id)`,
  'actionable message that is not a transfer request on a loan': `
    SELECT count(*) FROM messages m JOIN role_requests r ON r.message_id = m.id
     WHERE m.target_type <> 'REQUEST_EXECUTE_CONTRACT' OR m.target_id <> r.loan_id::text`,
  "request whose message is not the receiver's actionable one": `
    SELECT count(*) FROM role_requests r LEFT JOIN messages m ON m.id = r.message_id
     WHERE m.id IS NULL OR NOT m.is_actionable OR m.participant_id <> r.receiver_participant_id`,
  'unanswered message without a pending request on a pending party': `
    SELECT count(*) FROM messages m JOIN role_requests r ON r.message_id = m.id
     WHERE m.response IS NULL AND NOT (r.state = 'PENDING' AND r.answered_at IS NULL AND EXISTS (
       SELECT 1 FROM loan_parties lp WHERE lp.loan_id = r.loan_id AND lp.role = r.role AND lp.state = 'PENDING'
          AND lp.participant_id IS DISTINCT FROM r.receiver_participant_id))`,
  'answered message of a request in another state, or unread': `
    SELECT count(*) FROM messages m JOIN role_requests r ON r.message_id = m.id
     WHERE m.response IS NOT NULL
       AND NOT (m.read AND r.answered_at IS NOT NULL AND r.state = CASE WHEN m.response THEN 'CONFIRMED' ELSE 'REJECTED' END)`,
  'answered request whose party disagrees': `
    SELECT count(*) FROM role_requests r WHERE r.state <> 'PENDING' AND NOT EXISTS (
      SELECT 1 FROM loan_parties lp WHERE lp.loan_id = r.loan_id AND lp.role = r.role AND lp.state = r.state
         AND (r.state = 'REJECTED' OR lp.participant_id = r.receiver_participant_id))`,
  "answered request without the requester's outcome message": `
    SELECT count(*) FROM role_requests r WHERE r.state <> 'PENDING' AND NOT EXISTS (
      SELECT 1 FROM messages m WHERE m.participant_id = r.requester_participant_id AND m.target_id = r.loan_id::text
         AND NOT m.is_actionable AND m.created_at = r.answered_at)`,
  'pending request by an organization that may not transfer the role': `
    SELECT count(*) FROM role_requests r JOIN loan_parties lp ON lp.loan_id = r.loan_id AND lp.role = r.role
     WHERE r.state = 'PENDING' AND lp.participant_id IS DISTINCT FROM r.requester_participant_id
       AND NOT (r.role IN ('SERVICER', 'SUB_SERVICER') AND EXISTS (
         SELECT 1 FROM loan_parties o WHERE o.loan_id = r.loan_id AND o.role = 'OWNER' AND o.participant_id = r.requester_participant_id))`,
  'request to an inactive organization, to itself or to the holder': `
    SELECT count(*) FROM role_requests r JOIN participants p ON p.id = r.receiver_participant_id
      JOIN loan_parties lp ON lp.loan_id = r.loan_id AND lp.role = r.role
     WHERE NOT p.is_active OR r.receiver_participant_id = r.requester_participant_id
        OR (r.state <> 'CONFIRMED' AND lp.participant_id = r.receiver_participant_id)`,
  'pending party held by an organization without its request': `
    SELECT count(*) FROM loan_parties lp WHERE lp.state = 'PENDING' AND lp.participant_id IS NOT NULL AND lp.role <> 'ORIGINATOR'
       AND NOT EXISTS (SELECT 1 FROM role_requests r WHERE r.loan_id = lp.loan_id AND r.role = lp.role AND r.state = 'PENDING'
                          AND r.requester_participant_id = lp.participant_id)`,
} as const;

/** How many rows break each rule of TRANSFER_RULES. */
async function transferRuleBreaches(database: TestDatabase): Promise<Record<keyof typeof TRANSFER_RULES, number>> {
  const breaches = {} as Record<keyof typeof TRANSFER_RULES, number>;
  for (const [rule, query] of Object.entries(TRANSFER_RULES) as [keyof typeof TRANSFER_RULES, string][]) {
    const result = await database.pool.query<{ count: string }>(query);
    breaches[rule] = Number(result.rows[0]?.count);
  }
  return breaches;
}

const NO_BREACHES = Object.fromEntries(Object.keys(TRANSFER_RULES).map((rule) => [rule, 0]));

/** Role requests by state. */
async function requestStates(database: TestDatabase): Promise<Record<string, number>> {
  const result = await database.pool.query<{ state: string; count: number }>(
    'SELECT state, count(*)::int AS count FROM role_requests GROUP BY state',
  );
  return Object.fromEntries(result.rows.map((row) => [row.state, row.count]));
}

describe('demo seed', () => {
  let database: TestDatabase;
  let summary: SeedSummary;

  beforeAll(async () => {
    database = await createTestDatabase();
    summary = await seedDemoData(database.owner.db, { loans: LOANS });
  });

  afterAll(async () => {
    await database?.close();
  });

  it('creates 14 organizations, 13 of them active, with valid codes, phones and states', async () => {
    const participants = await database.db.select().from(schema.participants);
    expect(participants).toHaveLength(14);
    expect(participants.filter((participant) => participant.isActive)).toHaveLength(13);
    expect(new Set(participants.map((participant) => participant.code)).size).toBe(14);
    for (const participant of participants) {
      expect(participant.code).toMatch(/^[A-Z]{3}$/);
      expect(participant.phoneNumber).toMatch(/^\d{10}$/);
      expect(participant.zip).toMatch(/^\d{5}(-\d{4})?$/);
      expect(isUsStateCode(participant.state)).toBe(true);
    }
    expect(participants.some((participant) => participant.grantedLimitedPowerOfAttorney)).toBe(true);
    const contactTypes = await database.db.selectDistinct({ type: schema.participantContacts.type }).from(schema.participantContacts);
    expect(contactTypes.map((row) => row.type).sort()).toEqual(['CUSTODIAN', 'CUSTOMER_SERVICE', 'LEGAL', 'PRIMARY']);
  });

  it('creates the demo accounts with their roles and memberships', async () => {
    expect(DEMO_ACCOUNTS.map((account) => account.email)).toEqual([
      'admin@registry.test',
      'ops@registry.test',
      'user@registry.test',
      'unregistered@registry.test',
      'factor@registry.test',
    ]);
    const identities = await database.db.select().from(schema.identities);
    const byEmail = new Map(identities.map((identity) => [identity.email, identity]));
    expect(byEmail.get('admin@registry.test')?.roles).toEqual({
      'service-dart': ['ROLE_DART_ADMIN'],
      'lead-portal': ['LEAD_VIEWER'],
      csp: ['CSP_AGENT'],
    });
    expect(byEmail.get('ops@registry.test')?.roles).toEqual({ 'service-dart': ['ROLE_DART_OPS'] });
    expect(byEmail.get('user@registry.test')?.roles).toEqual({ 'service-dart': ['ROLE_DART_USER'] });
    expect(byEmail.get('unregistered@registry.test')?.roles).toEqual({});
    expect(identities.length).toBeGreaterThanOrEqual(24);
    expect(await verifyPassword(DEMO_PASSWORD, byEmail.get('admin@registry.test')?.passwordHash ?? '')).toBe(true);

    const admin = await membershipsOf(database, 'admin@registry.test');
    expect(admin).toHaveLength(12);
    expect(admin.every((membership) => membership.isActive)).toBe(true);
    const user = await membershipsOf(database, 'user@registry.test');
    expect(user).toHaveLength(2);
    expect(user.every((membership) => membership.isActive)).toBe(true);
    expect(user.find((membership) => membership.isDefault)?.roles).toContain('ORG_ADMIN');
    expect(user.find((membership) => !membership.isDefault)?.roles).toEqual([]);
    expect(await membershipsOf(database, 'ops@registry.test')).not.toHaveLength(0);

    const unregistered = byEmail.get('unregistered@registry.test');
    expect(unregistered).toBeDefined();
    const unregisteredUsers = await database.db
      .select()
      .from(schema.users)
      .where(sql`${schema.users.identityId} = ${unregistered?.id ?? null} or lower(${schema.users.email}) = 'unregistered@registry.test'`);
    expect(unregisteredUsers).toHaveLength(0);
  });

  it('gives every user exactly one default membership and every identity a required email factor', async () => {
    const defaults = await database.pool.query<{ count: number }>(
      'SELECT count(*) FILTER (WHERE is_default)::int AS count FROM memberships GROUP BY user_id',
    );
    expect(defaults.rows.length).toBeGreaterThan(20);
    expect(defaults.rows.every((row) => row.count === 1)).toBe(true);
    const factors = await database.db.select().from(schema.authenticationFactors);
    const identities = await database.db.select({ id: schema.identities.id }).from(schema.identities);
    for (const identity of identities) {
      const email = factors.filter((factor) => factor.identityId === identity.id && factor.type === 'Email' && factor.required);
      expect(email).toHaveLength(1);
      expect(email[0]?.required).toBe(true);
      expect(email[0]?.editable).toBe(false);
    }
    expect(factors.some((factor) => factor.type === 'Phone' && factor.editable)).toBe(true);
    // One demo account enrolled a factor of its own (its sign-in asks for a second step); no other did.
    expect(factors.filter((factor) => factor.verifiedAt !== null).map((factor) => factor.value)).toEqual(['factor.codes@registry.test']);
  });

  it('creates the requested loans with valid ULIs, every loan type and every status', async () => {
    const loans = await database.db.select().from(schema.loans);
    expect(loans).toHaveLength(LOANS);
    for (const loan of loans) {
      expect(isValidUli(loan.uli), loan.uli).toBe(true);
      expect(Number(loan.noteAmount)).toBeGreaterThanOrEqual(25_000);
      expect(Number(loan.noteAmount)).toBeLessThanOrEqual(1_500_000);
      expect(isUsStateCode(loan.propertyState)).toBe(true);
      expect(loan.propertyZip).toMatch(/^\d{5}$/);
      expect(loan.deactivated).toBe(loan.status === 'Inactive');
    }
    expect(new Set(loans.map((loan) => loan.loanType))).toEqual(new Set(LOAN_TYPES));
    expect(new Set(loans.map((loan) => loan.status))).toEqual(new Set(['Active', 'Inactive', 'Deleted']));
    expect(loans.filter((loan) => loan.status === 'Active').length).toBeGreaterThan(LOANS * 0.75);
    expect(loans.some((loan) => loan.additionalParties.some((party) => party.partyType === 'COBORROWER'))).toBe(true);
    const dayAgo = Date.now() - 24 * 3600_000;
    expect(loans.some((loan) => loan.updatedAt.getTime() > dayAgo)).toBe(true);
    expect(loans.some((loan) => loan.updatedAt.getTime() < Date.now() - 30 * 24 * 3600_000)).toBe(true);
  });

  it('puts parties in every role state, without a controller on HELOC types', async () => {
    const parties = await database.db.select().from(schema.loanParties);
    const loans = await database.db.select({ id: schema.loans.id, loanType: schema.loans.loanType }).from(schema.loans);
    const typeOf = new Map(loans.map((loan) => [loan.id, loan.loanType]));
    expect(new Set(parties.map((party) => party.state))).toEqual(new Set(ROLE_STATES));
    expect(new Set(parties.map((party) => party.role))).toEqual(
      new Set(['ORIGINATOR', 'OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY']),
    );
    for (const party of parties) {
      if (party.role === 'CONTROLLER') expect(isHelocType(typeOf.get(party.loanId) ?? '')).toBe(false);
      expect(party.participantId === null).toBe(party.name !== null);
      if (party.participantId) expect(party.provenanceId).toBeTruthy();
    }
    for (const loan of loans) {
      const roles = parties.filter((party) => party.loanId === loan.id).map((party) => party.role);
      expect(roles).toContain('OWNER');
      expect(roles).toContain('SERVICER');
      expect(roles.includes('CONTROLLER')).toBe(!isHelocType(loan.loanType));
    }
    expect(parties.some((party) => party.name !== null)).toBe(true);
    const inactiveIds = (
      await database.db.select({ id: schema.participants.id }).from(schema.participants).where(eq(schema.participants.isActive, false))
    ).map((row) => row.id);
    expect(parties.some((party) => party.participantId !== null && inactiveIds.includes(party.participantId))).toBe(false);
  });

  it('gives the admin and the user organizations many roles', async () => {
    for (const email of ['admin@registry.test', 'user@registry.test']) {
      const [defaultMembership] = (await membershipsOf(database, email)).filter((membership) => membership.isDefault);
      const [row] = await database.db
        .select({ count: sql<number>`count(distinct ${schema.loanParties.loanId})::int` })
        .from(schema.loanParties)
        .where(eq(schema.loanParties.participantId, defaultMembership?.participantId ?? ''));
      expect(row?.count).toBeGreaterThan(LOANS / 5);
    }
  });

  it('records 2 to 5 events per loan in every event state', async () => {
    const rows = await database.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM loan_events GROUP BY loan_id');
    expect(rows.rows).toHaveLength(LOANS);
    expect(rows.rows.every((row) => row.count >= 2 && row.count <= 5)).toBe(true);
    const events = await database.db
      .selectDistinct({ state: schema.loanEvents.state, eventType: schema.loanEvents.eventType })
      .from(schema.loanEvents);
    expect(new Set(events.map((event) => event.state))).toEqual(new Set(['Requested', 'Pending', 'Confirmed', 'Rejected', 'Canceled']));
    const types = new Set(events.map((event) => event.eventType));
    for (const type of ['REGISTRATION', 'TRANSFER_OF_SERVICING', 'TRANSFER_OF_OWNERSHIP', 'DEACTIVATION_REQUESTED'])
      expect(types).toContain(type);
  });

  it('fills pools only with loans on which the pool owner holds a role', async () => {
    const pools = await database.db.select().from(schema.pools);
    expect(pools.length).toBeGreaterThanOrEqual(25);
    expect(pools.filter((pool) => pool.state === 'COMPLETE').length).toBeGreaterThan(pools.length / 2);
    const outside = await database.pool.query(`
      SELECT pl.pool_id, pl.loan_id FROM pool_loans pl JOIN pools p ON p.id = pl.pool_id
      WHERE NOT EXISTS (SELECT 1 FROM loan_parties lp WHERE lp.loan_id = pl.loan_id AND lp.participant_id = p.participant_id)`);
    expect(outside.rows).toHaveLength(0);
    const sizes = await database.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM pool_loans GROUP BY pool_id');
    expect(sizes.rows.length).toBeGreaterThanOrEqual(20);
    expect(sizes.rows.every((row) => row.count <= 60)).toBe(true);
  });

  it('creates messages of every kind for every active organization, several hundred for the largest', async () => {
    const messages = await database.db.select().from(schema.messages);
    const active = await database.db
      .select({ id: schema.participants.id })
      .from(schema.participants)
      .where(eq(schema.participants.isActive, true));
    const counts = active.map(({ id }) => messages.filter((message) => message.participantId === id).length);
    for (const { id } of active) {
      const own = messages.filter((message) => message.participantId === id);
      expect(own.length).toBeGreaterThanOrEqual(15);
      expect(own.some((message) => !message.read && !message.archived)).toBe(true);
    }
    // Enough to page through (10 a page) in the largest inbox.
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(300);
    expect(new Set(messages.map((message) => message.targetType))).toEqual(new Set(MESSAGE_TARGET_TYPES));
    expect(messages.some((message) => message.read)).toBe(true);
    expect(messages.some((message) => message.archived)).toBe(true);
    expect(messages.some((message) => !message.archived)).toBe(true);
    // A realistic mix: most read, some archived, a fair share unread.
    const unread = messages.filter((message) => !message.read).length / messages.length;
    expect(unread).toBeGreaterThan(0.1);
    expect(unread).toBeLessThan(0.5);
    const actionable = messages.filter((message) => message.isActionable);
    expect(actionable.some((message) => message.response === null)).toBe(true);
    expect(actionable.some((message) => message.response === true)).toBe(true);
    expect(actionable.some((message) => message.response === false)).toBe(true);
    expect(actionable.every((message) => message.targetType === 'REQUEST_EXECUTE_CONTRACT')).toBe(true);
    expect(messages.filter((message) => !message.isActionable).every((message) => message.response === null)).toBe(true);
    expect(messages.some((message) => message.message.length > 150)).toBe(true);
    const now = Date.now();
    expect(messages.every((message) => message.createdAt.getTime() <= now && message.createdAt.getTime() > now - 31 * 24 * 3600_000)).toBe(
      true,
    );
    expect(messages.some((message) => message.createdAt.getTime() > now - 3600_000)).toBe(true);
    expect(messages.some((message) => message.createdAt.getTime() < now - 25 * 24 * 3600_000)).toBe(true);
  });

  it("counts every organization's messages exactly in message_counts (the inbox totals and the unread badge read them)", async () => {
    expect(await messageCountMismatches(database)).toEqual([]);
    const stored = await database.db.execute<{ organizations: number }>(sql`select count(*)::int as organizations from message_counts`);
    expect(stored.rows[0]?.organizations).toBeGreaterThan(10);
  });

  it('ties every actionable message to a role request on a party in that state', async () => {
    expect(await transferRuleBreaches(database)).toEqual(NO_BREACHES);
    const states = await requestStates(database);
    expect(states.PENDING).toBeGreaterThan(0);
    expect(states.REJECTED).toBeGreaterThan(0);
    expect(states.CONFIRMED).toBeGreaterThan(0);
    // Every REJECTED party of an organization is an answered request too.
    const rejected = await database.pool.query<{ count: number }>(`
      SELECT count(*)::int AS count FROM loan_parties lp WHERE lp.state = 'REJECTED' AND lp.participant_id IS NOT NULL AND lp.role <> 'ORIGINATOR'
         AND NOT EXISTS (SELECT 1 FROM role_requests r WHERE r.loan_id = lp.loan_id AND r.role = lp.role AND r.state = 'REJECTED')`);
    expect(rejected.rows[0]?.count).toBe(0);
  });

  it("gives the demo accounts' organizations pending transfers to answer, one on a loan both see", async () => {
    const [adminOrg] = (await membershipsOf(database, 'admin@registry.test')).filter((membership) => membership.isDefault);
    const userOrg = (await membershipsOf(database, 'user@registry.test')).find((membership) => membership.roles.includes('ORG_ADMIN'));
    const pending = await database.pool.query<{ receiver: string; both: boolean }>(
      `SELECT r.receiver_participant_id AS receiver,
              EXISTS (SELECT 1 FROM loan_parties a WHERE a.loan_id = r.loan_id AND a.participant_id = $1)
          AND EXISTS (SELECT 1 FROM loan_parties b WHERE b.loan_id = r.loan_id AND b.participant_id = $2) AS both
         FROM role_requests r JOIN messages m ON m.id = r.message_id
        WHERE r.state = 'PENDING' AND m.response IS NULL AND NOT m.archived`,
      [adminOrg?.participantId, userOrg?.participantId],
    );
    for (const org of [adminOrg?.participantId, userOrg?.participantId]) {
      expect(pending.rows.filter((row) => row.receiver === org).length).toBeGreaterThan(0);
    }
    expect(
      pending.rows.some((row) => row.both && (row.receiver === adminOrg?.participantId || row.receiver === userOrg?.participantId)),
    ).toBe(true);
  });

  it('stores real PDFs with matching metadata', async () => {
    const documents = await database.db.select().from(schema.documents);
    expect(documents.length).toBeGreaterThan(0);
    expect(new Set(documents.map((document) => document.type))).toEqual(
      new Set(['DEED', 'ASSIGNMENT', 'RELEASE', 'ENOTE', 'OTHER', 'DEACTIVATION_INSTRUMENT']),
    );
    const { createHash } = await import('node:crypto');
    // The showcase loan's two damaged documents have a test of their own.
    const [showcase] = await database.db.select().from(schema.loans).where(eq(schema.loans.uli, DOCUMENT_SHOWCASE_LOAN.uli));
    const sound = documents.filter((document) => document.loanId !== showcase?.id);
    // Every deed, and a sample of the rest.
    const checked = [
      ...sound.filter((document) => document.type === 'DEED'),
      ...sound.filter((document) => document.type !== 'DEED').slice(0, 30),
    ];
    const deedPages = new Set<number>();
    for (const document of checked) {
      expect(document.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(document.sizeBytes).toBe(document.content.length);
      expect(document.hash).toBe(createHash('sha256').update(document.content).digest('hex'));
      expect(document.contentType).toBe('application/pdf');
      expect(document.fileType).toBe('pdf');
      expect(document.fileName.endsWith('.pdf')).toBe(true);
      const pages = (await PDFDocument.load(document.content)).getPageCount();
      if (document.type === 'DEED') deedPages.add(pages);
      else expect(pages).toBe(1);
    }
    // Deeds run to several pages, and not all to the same number.
    expect([...deedPages].sort()).toEqual([3, 4, 5]);
  });

  it('puts the document showcase on a loan both demo accounts see: a deed of several pages and two damaged documents', async () => {
    const [adminOrg] = (await membershipsOf(database, 'admin@registry.test')).filter((membership) => membership.isDefault);
    const userOrg = (await membershipsOf(database, 'user@registry.test')).find((membership) => membership.roles.includes('ORG_ADMIN'));
    const [loan] = await database.db.select().from(schema.loans).where(eq(schema.loans.uli, DOCUMENT_SHOWCASE_LOAN.uli));
    expect(loan?.loanNumber).toBe(DOCUMENT_SHOWCASE_LOAN.loanNumber);
    expect(loan?.status).toBe('Active');
    const holders = await database.db
      .select({ participantId: schema.loanParties.participantId, role: schema.loanParties.role })
      .from(schema.loanParties)
      .where(eq(schema.loanParties.loanId, loan?.id ?? ''));
    expect(holders).toContainEqual({ participantId: adminOrg?.participantId, role: 'OWNER' });
    expect(holders).toContainEqual({ participantId: userOrg?.participantId, role: 'SERVICER' });

    const { createHash } = await import('node:crypto');
    const documents = await database.db
      .select()
      .from(schema.documents)
      .where(eq(schema.documents.loanId, loan?.id ?? ''))
      .orderBy(schema.documents.createdAt);
    const intact = (document: (typeof documents)[number]) => createHash('sha256').update(document.content).digest('hex') === document.hash;
    expect(documents.map((document) => [document.type, document.name, intact(document)])).toEqual([
      ['DEED', 'Deed of Trust', true],
      ['ASSIGNMENT', 'Assignment of Mortgage', true],
      ['ENOTE', 'Electronic Promissory Note', true],
      ['RELEASE', 'Release of Lien', false],
      ['DEED', 'Deed of Trust (damaged scan)', true],
      ['OTHER', 'Closing Disclosure', true],
    ]);
    expect(new Set(documents.map((document) => document.fileName)).size).toBe(documents.length);
    const [deed, , , tampered, corrupt] = documents;
    expect((await PDFDocument.load(deed?.content ?? Buffer.alloc(0))).getPageCount()).toBeGreaterThan(2);
    // The tampered release is still a sound PDF: only its hash gives it away.
    expect((await PDFDocument.load(tampered?.content ?? Buffer.alloc(0))).getPageCount()).toBe(1);
    // The damaged scan starts like a PDF and holds nothing a reader can use.
    expect(corrupt?.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // After its first two lines not one ASCII byte: no object, xref or trailer for a reader to find.
    const body = corrupt?.content.subarray(corrupt.content.indexOf(0x0a, 9) + 1) ?? Buffer.alloc(0);
    expect(body.length).toBeGreaterThan(1000);
    expect(body.every((byte) => byte >= 0x80)).toBe(true);
  });

  it('adds relationships, batch download jobs and deactivation requests for inactive loans', async () => {
    const counts = await tableCounts(database);
    expect(counts.relationships).toBeGreaterThanOrEqual(12);
    const jobs = await database.db.select().from(schema.jobs);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    expect(jobs.every((job) => job.type === 'BATCH_DOWNLOAD_AOMS' && job.status === 'DONE' && job.progress === job.total)).toBe(true);
    const requests = await database.db
      .select({ loanStatus: schema.loans.status })
      .from(schema.deactivationRequests)
      .innerJoin(schema.loans, eq(schema.loans.id, schema.deactivationRequests.loanId));
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((request) => request.loanStatus === 'Inactive')).toBe(true);
  });

  it("includes the adversarial loans, Active and held by both demo accounts' organizations", async () => {
    const [adminOrg] = (await membershipsOf(database, 'admin@registry.test')).filter((membership) => membership.isDefault);
    const userOrg = (await membershipsOf(database, 'user@registry.test')).find((membership) => membership.roles.includes('ORG_ADMIN'));
    expect(ADVERSARIAL_LOANS.length).toBeGreaterThanOrEqual(8);
    const texts: string[] = [];
    for (const expected of ADVERSARIAL_LOANS) {
      const loans = await database.db
        .select()
        .from(schema.loans)
        .where(sql`${schema.loans.borrowerFirstName} = ${expected.firstName} and ${schema.loans.borrowerLastName} = ${expected.lastName}`);
      expect(loans, expected.firstName).toHaveLength(1);
      const loan = loans[0] as typeof schema.loans.$inferSelect;
      expect(loan.uli).toBe(expected.uli);
      expect(loan.loanNumber).toBe(expected.loanNumber);
      expect(loan.propertyStreet1).toBe(expected.street1);
      expect(loan.propertyStreet2).toBe(expected.street2);
      expect(loan.status).toBe('Active');
      expect(isValidUli(loan.uli)).toBe(true);
      const holders = await database.db
        .select({ participantId: schema.loanParties.participantId, role: schema.loanParties.role })
        .from(schema.loanParties)
        .where(eq(schema.loanParties.loanId, loan.id));
      expect(holders).toContainEqual({ participantId: adminOrg?.participantId, role: 'OWNER' });
      expect(holders).toContainEqual({ participantId: userOrg?.participantId, role: 'SERVICER' });
      // Both organizations' asset lists hold it.
      const listed = await database.pool.query('SELECT participant_id FROM loan_list_entries WHERE loan_id = $1', [loan.id]);
      expect(listed.rows.map((row) => row.participant_id)).toEqual(
        expect.arrayContaining([adminOrg?.participantId, userOrg?.participantId]),
      );
      texts.push(loan.borrowerFirstName, loan.borrowerLastName, loan.propertyStreet1, loan.propertyStreet2 ?? '');
    }
    // What the spreadsheet and the screens must survive is all there.
    for (const lead of ['=', '+', '-', '@', '\t'])
      expect(
        texts.some((text) => text.startsWith(lead)),
        lead,
      ).toBe(true);
    for (const pattern of [/"/, /,/, /\n/, /\r\n/, /\p{Script=Han}/u, /\p{Script=Arabic}/u, /\p{Script=Cyrillic}/u, /[éñüøç]/i]) {
      expect(
        texts.some((text) => pattern.test(text)),
        String(pattern),
      ).toBe(true);
    }
  });

  it('builds the asset list index of every loan and reports the largest organization', async () => {
    const entries = await database.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM loan_list_entries');
    const holders = await database.pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM (SELECT DISTINCT participant_id, loan_id FROM loan_parties WHERE participant_id IS NOT NULL) h',
    );
    expect(entries.rows[0]?.count).toBe(holders.rows[0]?.count);
    const [adminOrg] = (await membershipsOf(database, 'admin@registry.test')).filter((membership) => membership.isDefault);
    const [harborview] = await database.db
      .select()
      .from(schema.participants)
      .where(eq(schema.participants.id, adminOrg?.participantId ?? ''));
    expect(summary).toMatchObject({ loans: LOANS, organizations: 14, activeOrganizations: 13 });
    expect(summary.largestOrganization).toEqual({
      code: harborview?.code,
      name: harborview?.name,
      loans: await loansHeldBy(database, harborview?.id ?? ''),
    });
  });

  it('refuses to seed a database that has participants, and changes nothing', async () => {
    const before = await tableCounts(database);
    await expect(seedDemoData(database.owner.db, { loans: 10 })).rejects.toThrow(/already has 14 participant/);
    expect(await tableCounts(database)).toEqual(before);
  });

  it('refuses to seed a database that has loans', async () => {
    const other = await createTestDatabase();
    try {
      const [first] = await database.db.select().from(schema.loans).limit(1);
      if (!first) throw new Error('no loan seeded');
      await other.db.insert(schema.loans).values(first);
      await expect(seedDemoData(other.owner.db, { loans: 10 })).rejects.toThrow(/already has loans/);
      expect((await tableCounts(other)).loans).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('makes the same data from the same options', async () => {
    const other = await createTestDatabase();
    try {
      await seedDemoData(other.owner.db, { loans: LOANS });
      const snapshot = async (target: TestDatabase) => ({
        participants: await target.db
          .select({ id: schema.participants.id, code: schema.participants.code })
          .from(schema.participants)
          .orderBy(schema.participants.id),
        loans: await target.db
          .select({
            id: schema.loans.id,
            uli: schema.loans.uli,
            loanNumber: schema.loans.loanNumber,
            amount: schema.loans.noteAmount,
            firstName: schema.loans.borrowerFirstName,
            lastName: schema.loans.borrowerLastName,
            street1: schema.loans.propertyStreet1,
            street2: schema.loans.propertyStreet2,
            tradeDate: schema.loans.tradeDate,
            additionalParties: schema.loans.additionalParties,
          })
          .from(schema.loans)
          .orderBy(schema.loans.id),
        parties: await target.db
          .select({ id: schema.loanParties.id, state: schema.loanParties.state, participantId: schema.loanParties.participantId })
          .from(schema.loanParties)
          .orderBy(schema.loanParties.id),
        events: await target.db
          .select({ id: schema.loanEvents.id, type: schema.loanEvents.eventType, description: schema.loanEvents.eventDescription })
          .from(schema.loanEvents)
          .orderBy(schema.loanEvents.id),
        pools: await target.pool.query('SELECT pool_id, loan_id FROM pool_loans ORDER BY 1, 2').then((result) => result.rows),
        documents: await target.db
          .select({ id: schema.documents.id, hash: schema.documents.hash })
          .from(schema.documents)
          .orderBy(schema.documents.id),
        users: await target.db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).orderBy(schema.users.id),
        // Their times follow the clock (now - age): compared without them.
        messages: await target.pool
          .query(
            'SELECT id, participant_id, target_type, target_id, message, read, archived, is_actionable, response FROM messages ORDER BY id',
          )
          .then((result) => result.rows),
        roleRequests: await target.pool
          .query(
            'SELECT id, loan_id, role, requester_participant_id, receiver_participant_id, requested_by, state, message_id FROM role_requests ORDER BY id',
          )
          .then((result) => result.rows),
      });
      expect(await snapshot(other)).toEqual(await snapshot(database));
    } finally {
      await other.close();
    }
  });

  it('leaves the asset list index and the messages vacuumed: every page all-visible for index-only scans', async () => {
    const other = await createTestDatabase();
    try {
      await seedDemoData(other.owner.db, { loans: 300, rebuildIndexes: true });
      const { rows } = await other.pool.query<{ table: string; pages: number; visible: number }>(
        `SELECT c.relname AS table, c.relpages AS pages, c.relallvisible AS visible FROM pg_class c
         WHERE c.relname = ANY ($1::text[]) ORDER BY 1`,
        [[...LOAN_LIST_TABLES, 'messages', 'role_requests']],
      );
      expect(rows.map((row) => row.table)).toEqual([...LOAN_LIST_TABLES, 'messages', 'role_requests'].sort());
      for (const row of rows) expect({ table: row.table, visible: row.visible }).toEqual({ table: row.table, visible: row.pages });
      expect(rows.find((row) => row.table === 'loan_list_entries')?.pages).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });

  it('rolls everything back when a COPY fails part-way, indexes included', async () => {
    const other = await createTestDatabase();
    try {
      // Deactivation events come with the loans' COPY: refusing them makes it fail mid-load.
      await other.owner.pool.query("ALTER TABLE loan_events ADD CONSTRAINT seed_test_refusal CHECK (event_type <> 'DEACTIVATION')");
      const before = await schemaDefinitions(other);
      expect(await failureOf(seedDemoData(other.owner.db, { loans: 100, rebuildIndexes: true }))).toMatch(/seed_test_refusal/);
      expect(Object.values(await tableCounts(other)).every((count) => count === 0)).toBe(true);
      expect(await schemaDefinitions(other)).toEqual(before);
      // The connection went back to the pool usable, outside any transaction.
      await other.owner.pool.query('ALTER TABLE loan_events DROP CONSTRAINT seed_test_refusal');
      await seedDemoData(other.owner.db, { loans: 20 });
      expect((await tableCounts(other)).loans).toBe(20);
    } finally {
      await other.close();
    }
  });

  it('rolls everything back when seeding fails after the loans', async () => {
    const other = await createTestDatabase();
    try {
      // Jobs are inserted last: a trigger refusing them fails the seed at its very end.
      await other.owner.pool.query(`
        CREATE FUNCTION seed_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'seed test refusal'; END $$;
        CREATE TRIGGER seed_test_refuse BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION seed_test_refuse();`);
      expect(await failureOf(seedDemoData(other.owner.db, { loans: 50 }))).toMatch(/seed test refusal/);
      const counts = await tableCounts(other);
      expect(
        Object.values(counts).every((count) => count === 0),
        JSON.stringify(counts),
      ).toBe(true);
      const entries = await other.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM loan_list_entries');
      expect(entries.rows[0]?.count).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('demo seed at scale', () => {
  // The organization rule of a million-loan seed, shown on few loans: one generated organization
  // per 30 loans here instead of per LOANS_PER_GENERATED_ORGANIZATION.
  const LOANS_AT_SCALE = 1500;
  const PER_ORGANIZATION = 30;
  let database: TestDatabase;
  let summary: SeedSummary;
  let definitionsBefore: string[];

  beforeAll(async () => {
    database = await createTestDatabase();
    definitionsBefore = await schemaDefinitions(database);
    summary = await seedDemoData(database.owner.db, {
      loans: LOANS_AT_SCALE,
      loansPerGeneratedOrganization: PER_ORGANIZATION,
      rebuildIndexes: true,
    });
  });

  afterAll(async () => {
    await database?.close();
  });

  it('adds no organization to the demo seeds and at least 36 to a million loans', () => {
    expect(generatedOrganizationCount(200)).toBe(0);
    expect(generatedOrganizationCount(2000)).toBe(0);
    expect(14 + generatedOrganizationCount(1_000_000)).toBeGreaterThanOrEqual(50);
    expect(generatedOrganizationCount(LOANS_AT_SCALE, PER_ORGANIZATION)).toBe(50);
  });

  it('spreads the loans over at least 50 organizations with unique codes, all but one active', async () => {
    const participants = await database.db.select().from(schema.participants);
    expect(participants.length).toBeGreaterThanOrEqual(50);
    expect(summary.organizations).toBe(participants.length);
    expect(new Set(participants.map((participant) => participant.code)).size).toBe(participants.length);
    expect(new Set(participants.map((participant) => participant.name)).size).toBe(participants.length);
    for (const participant of participants) {
      expect(participant.code).toMatch(/^[A-Z]{3}$/);
      expect(participant.phoneNumber).toMatch(/^\d{10}$/);
      expect(isUsStateCode(participant.state)).toBe(true);
      expect(participant.createdAt.getTime()).toBeLessThan(Date.now());
    }
    expect(participants.filter((participant) => !participant.isActive)).toHaveLength(1);
    const holders = await database.pool.query<{ count: number }>('SELECT count(DISTINCT participant_id)::int AS count FROM loan_parties');
    expect(holders.rows[0]?.count).toBeGreaterThanOrEqual(50);
  });

  it("makes the admin's default organization the largest, with a role on at least a fifth of the loans", async () => {
    const [adminOrg] = (await membershipsOf(database, 'admin@registry.test')).filter((membership) => membership.isDefault);
    const [harborview] = await database.db
      .select()
      .from(schema.participants)
      .where(eq(schema.participants.id, adminOrg?.participantId ?? ''));
    const held = await loansHeldBy(database, harborview?.id ?? '');
    expect(held).toBeGreaterThanOrEqual(LOANS_AT_SCALE / 5);
    expect(summary.largestOrganization).toEqual({ code: harborview?.code, name: harborview?.name, loans: held });
    const others = await database.db.select({ id: schema.participants.id }).from(schema.participants);
    for (const other of others) expect(await loansHeldBy(database, other.id)).toBeLessThanOrEqual(held);
  });

  it('makes the adversarial loans with the same ULIs as the small seeds', async () => {
    const loans = await database.db
      .select({ uli: schema.loans.uli, loanNumber: schema.loans.loanNumber, firstName: schema.loans.borrowerFirstName })
      .from(schema.loans)
      .where(sql`${schema.loans.uli} in ${ADVERSARIAL_LOANS.map((loan) => loan.uli)}`);
    expect(loans.sort((a, b) => a.loanNumber.localeCompare(b.loanNumber))).toEqual(
      ADVERSARIAL_LOANS.map((loan) => ({ uli: loan.uli, loanNumber: loan.loanNumber, firstName: loan.firstName })),
    );
  });

  it('keeps the demo accounts and fixtures of the small seed', async () => {
    expect(await membershipsOf(database, 'admin@registry.test')).toHaveLength(12);
    expect(await membershipsOf(database, 'user@registry.test')).toHaveLength(2);
    const codes = (await database.db.select({ code: schema.participants.code }).from(schema.participants)).map((row) => row.code);
    expect(codes).toEqual(
      expect.arrayContaining(['HMC', 'SRH', 'BHS', 'KTC', 'PCP', 'MFB', 'LCU', 'GPL', 'CCM', 'ESS', 'ADC', 'NAM', 'RCM', 'OMS']),
    );
  });

  it('ties every actionable message to a role request after a bulk load too', async () => {
    expect(await transferRuleBreaches(database)).toEqual(NO_BREACHES);
    const states = await requestStates(database);
    expect(states.PENDING).toBeGreaterThan(0);
    expect(states.REJECTED).toBeGreaterThan(0);
  });

  it('builds the indexes and constraints it dropped for the load exactly as the migrations made them', async () => {
    expect(await schemaDefinitions(database)).toEqual(definitionsBefore);
    const orphans = await database.pool.query(`
      SELECT 1 FROM loan_parties lp LEFT JOIN loans l ON l.id = lp.loan_id WHERE l.id IS NULL
      UNION ALL SELECT 1 FROM loan_events e LEFT JOIN loans l ON l.id = e.loan_id WHERE l.id IS NULL`);
    expect(orphans.rows).toHaveLength(0);
    expect((await tableCounts(database)).loans).toBe(LOANS_AT_SCALE);
  });
});
