// Deterministic demo seed (ARCHITECTURE section 6, Data): organizations, demo accounts, users,
// loans with parties, events, pools, messages and the role transfer requests behind the
// actionable ones (messages.ts), PDF documents, relationships, jobs and deactivation requests.
// One fixed random seed: the same options give the same data. Only times that screens filter
// relative to today (loans' and messages' updates, pool completion, jobs) follow the clock;
// everything else is anchored on ANCHOR_DATE.
//
// Everything happens in one transaction on one connection: a failure leaves the database as it
// was. Loans are generated each from its own random stream and streamed in with COPY, chunk by
// chunk, so memory stays flat and the data of loan N does not depend on the total. Large seeds
// (1,000,000 loans: `npm run seed -- --loans 1000000`) also add generated organizations and
// build the loan tables' indexes after the load (bulk-indexes.ts).
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { DEMO_PASSWORD } from '../../domain/constants';
import { DEACTIVATION_REASONS, DEFAULT_ROLE_FILTER } from '../../domain/loan';
import { SERVICES } from '../../domain/roles';
import { uliCheckDigits } from '../../domain/uli';
import type { Database } from '../db/database';
import { deferLoanListIndex, LOAN_LIST_TABLES, refreshLoanListIndex, roleMask } from '../db/loan-list-index';
import * as schema from '../db/schema';
import { hashPassword } from '../identity/passwords';
import { seedAddressReferences } from './addresses';
import { dropIndexes, restoreIndexes } from './bulk-indexes';
import { ANCHOR, DAY, holdersByRole, HOUR, isoDate, MINUTE, SEED, type Context, type Org, type Pool } from './context';
import {
  ADMIN_DEFAULT_ORG,
  ENTITY_TYPES,
  FIRST_NAMES,
  LAST_NAMES,
  ORGANIZATIONS,
  POOL_DESCRIPTORS,
  USER_ADMIN_ORG,
  USER_MEMBER_ORG,
  type OrganizationFixture,
} from './fixtures';
import { insertRows, type Row, type Tx } from './insert';
import { copyLoans, documentRow } from './loans';
import { seedInboxMessages, seedNotices, seedRoleRequests, type SeedRelationship } from './messages';
import { generatedOrganizationCount, generatedOrganizations, LOANS_PER_GENERATED_ORGANIZATION } from './organizations';
import { Rng } from './random';
import { SCALE_TABLES, seedScale, type ScaleSummary } from './scale';

export const DEMO_ACCOUNTS: ReadonlyArray<{ email: string; description: string }> = [
  { email: 'admin@registry.test', description: 'Registry administrator (ROLE_DART_ADMIN), member of 12 organizations' },
  { email: 'ops@registry.test', description: 'Registry operations (ROLE_DART_OPS)' },
  { email: 'user@registry.test', description: 'ORG_ADMIN of one organization, plain member of another' },
  { email: 'unregistered@registry.test', description: 'Identity without a registry user' },
  {
    email: 'factor@registry.test',
    description: 'Member of one organization with an enrolled email factor (factor.codes@registry.test): a second step at sign-in',
  },
];

/** The demo account with an enrolled factor of its own, and where its sign-in codes go (the development mailbox shows them). */
export const FACTOR_DEMO_EMAIL = 'factor@registry.test';
export const FACTOR_DEMO_CODES_TO = 'factor.codes@registry.test';

export { ANCHOR_DATE, DOCUMENT_LOAN_LIMIT, SEED } from './context';
export { ADVERSARIAL_LOANS } from './adversarial';
export { DOCUMENT_SHOWCASE_LOAN } from './document-showcase';
export { generatedOrganizationCount, LOANS_PER_GENERATED_ORGANIZATION } from './organizations';
export { addScale, type ScaleOptions, type ScaleSummary } from './scale';

/** Every table the demo seed fills, in dependency order (the seed script and tests count them). */
export const SEED_TABLES = [
  'participants',
  'participant_contacts',
  'identities',
  'authentication_factors',
  'users',
  'memberships',
  'relationships',
  'loans',
  'loan_parties',
  'loan_events',
  'pools',
  'pool_loans',
  'documents',
  'deactivation_requests',
  'messages',
  'role_requests',
  'jobs',
] as const;

/** From this many loans on, the loan tables' indexes and foreign keys are built after the load. */
export const BULK_INDEX_THRESHOLD = 50_000;
/** The tables COPY fills; their indexes and constraints (and foreign keys into them) are rebuilt around a bulk load. */
const LOAN_TABLES = ['loans', 'loan_parties', 'loan_events', 'pool_loans', 'documents'] as const;
/** The tables the messages' INSERT ... SELECT and COPY fill (messages.ts): their indexes too are built after a bulk load. */
const BULK_TABLES = [...LOAN_TABLES, 'messages', 'role_requests'] as const;

export interface SeedOptions {
  readonly loans: number;
  readonly log?: (message: string) => void;
  /** Loans per generated organization (LOANS_PER_GENERATED_ORGANIZATION); tests lower it to check the rule on few loans. */
  readonly loansPerGeneratedOrganization?: number;
  /** Build the loan tables' indexes after the load; by default from BULK_INDEX_THRESHOLD loans on. */
  readonly rebuildIndexes?: boolean;
  /**
   * The administration's scale (scale.ts): organizations and registry users in all, at least
   * (`--organizations 3000 --users 200000`); the organizations added hold no loans.
   */
  readonly scale?: { readonly organizations?: number; readonly users?: number };
}

export interface SeedSummary {
  readonly loans: number;
  readonly organizations: number;
  readonly activeOrganizations: number;
  /** The organization holding a role (SPEC's default five) on the most loans: the admin's default one. */
  readonly largestOrganization: { readonly code: string; readonly name: string; readonly loans: number };
  /** What the scale option added, when given. */
  readonly scale?: ScaleSummary;
  readonly seconds: number;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const emailPart = (name: string): string => name.toLowerCase().replace(/[^a-z]/g, '');
const phoneNumber = (areaCode: string, rng: Rng): string => `${areaCode}55501${rng.digits(2)}`;
const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

export async function seedDemoData(db: Database, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const loanCount = options.loans;
  if (!Number.isInteger(loanCount) || loanCount < 0) throw new Error(`The number of loans must be a whole number >= 0, got ${loanCount}`);
  const log = options.log ?? (() => undefined);
  const rebuild = options.rebuildIndexes ?? loanCount >= BULK_INDEX_THRESHOLD;
  const fixtures = [
    ...ORGANIZATIONS,
    ...generatedOrganizations(
      generatedOrganizationCount(loanCount, options.loansPerGeneratedOrganization ?? LOANS_PER_GENERATED_ORGANIZATION),
    ),
  ];
  // scrypt is slow on purpose: hash once, share the string among the demo identities.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = Date.now();

  // drizzle keeps its pg pool (or client) as $client; the seed takes one connection of it for its transaction.
  const source = (db as Database & { $client: pg.Pool | pg.PoolClient | pg.Client }).$client;
  const client = source instanceof pg.Pool ? await source.connect() : source;
  const tx: Tx = drizzle(client, { schema });
  let broken = false;
  let summary: SeedSummary;
  try {
    await client.query('BEGIN');
    try {
      // Two seeds at once must not both see an empty database.
      await client.query('LOCK TABLE participants IN SHARE ROW EXCLUSIVE MODE');
      const existing = await client.query<{ participants: number; loans: boolean }>(
        'SELECT (SELECT count(*)::int FROM participants) AS participants, EXISTS (SELECT 1 FROM loans) AS loans',
      );
      const { participants = 0, loans = false } = existing.rows[0] ?? {};
      if (participants > 0) {
        throw new Error(
          `Refusing to seed demo data: the database already has ${participants} participant(s). The demo seed only fills an empty database.`,
        );
      }
      if (loans) throw new Error('Refusing to seed demo data: the database already has loans. The demo seed only fills an empty database.');
      // Index builds sort in memory when they can.
      await client.query("SET LOCAL maintenance_work_mem = '512MB'");
      // The asset list index is built once, after the load, not row by row.
      await deferLoanListIndex(tx);
      const saved = rebuild ? await dropIndexes(client, BULK_TABLES) : undefined;
      // Truncated in this transaction (they are empty), the tables take COPY FREEZE: rows are
      // written frozen and all-visible, so no VACUUM pass is needed before index-only scans.
      if (saved) await client.query(`TRUNCATE ${LOAN_TABLES.join(', ')}`);

      const orgs = await seedOrganizations(tx, fixtures);
      const activeOrgs = orgs.filter((org) => org.fixture.isActive);
      log(`organizations: ${orgs.length} (${activeOrgs.length} active)`);
      const people = await seedPeople(tx, orgs, passwordHash);
      log(`identities: ${people.identityCount}, users: ${people.userCount}`);
      const relationships = await seedRelationships(tx, orgs);
      const pools = await seedPools(tx, orgs, loanCount, now);
      log(`pools: ${pools.length}`);

      const context: Context = {
        now,
        orgs,
        activeOrgs,
        pools,
        loanSamples: new Map(),
        inactiveLoans: [],
        holders: holdersByRole(activeOrgs, ['ORIGINATOR', 'OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY']),
      };
      const loansStarted = performance.now();
      const every = Math.max(10_000, Math.ceil(loanCount / 10 / 10_000) * 10_000);
      await copyLoans(client, context, loanCount, {
        freeze: saved !== undefined,
        progress: (loaded) => {
          if (loaded % every === 0 || loaded === loanCount) log(`loans: ${loaded}/${loanCount} (${seconds(loansStarted)})`);
        },
      });
      await seedDeactivationRequests(tx, context, people.usersByOrg);
      const addressesStarted = performance.now();
      log(`address references: ${await seedAddressReferences(client)} besides the properties' (${seconds(addressesStarted)})`);
      const messagesStarted = performance.now();
      const inbox = await seedInboxMessages(tx, context, relationships);
      const requests = await seedRoleRequests(client, context, people.usersByOrg);
      log(
        `role requests: ${requests.pending} pending, ${requests.rejected} rejected, ${requests.confirmed} confirmed, ` +
          `with ${requests.messages} messages (${seconds(messagesStarted)})`,
      );
      const noticesStarted = performance.now();
      const notices = await seedNotices(client, context, loanCount);
      log(
        `messages: ${inbox + requests.messages + notices} (${inbox} everyday, ${notices} notices of the loans' history; ${seconds(noticesStarted)})`,
      );
      await seedJobs(tx, orgs[ADMIN_DEFAULT_ORG] as Org, people.adminUserId, now);
      if (saved) {
        const indexesStarted = performance.now();
        await restoreIndexes(client, saved);
        log(`indexes and foreign keys of ${BULK_TABLES.join(', ')} built (${seconds(indexesStarted)})`);
      }
      const listStarted = performance.now();
      await refreshLoanListIndex(tx);
      log(`asset list index built (${seconds(listStarted)})`);
      if (saved) await client.query(`ANALYZE ${LOAN_TABLES.join(', ')}`);
      const largest = await largestOrganization(client);
      const scale = options.scale ? await seedScale(client, passwordHash, { ...options.scale, log }) : undefined;
      await client.query('COMMIT');
      summary = {
        loans: loanCount,
        organizations: scale?.organizations ?? orgs.length,
        activeOrganizations: scale?.activeOrganizations ?? activeOrgs.length,
        largestOrganization: largest,
        ...(scale ? { scale } : {}),
        seconds: 0,
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    }
    // The loan tables were written frozen; the list index tables were not. VACUUM (ANALYZE)
    // marks their pages all-visible so index-only scans skip the heap from the first request.
    // Likewise the messages: the inbox pages read their indexes from the first request on.
    // Each VACUUM runs on one core: from a pool, two connections share the tables (largest first).
    const vacuumStarted = performance.now();
    await vacuumTables(source, client, [...LOAN_LIST_TABLES, 'messages', 'role_requests', ...(options.scale ? SCALE_TABLES : [])]);
    log(`asset list index and messages vacuumed (${seconds(vacuumStarted)})`);
    return { ...summary, seconds: (performance.now() - started) / 1000 };
  } finally {
    if (client !== source) (client as pg.PoolClient).release(broken);
  }
}

/** The number of connections the post-seed VACUUMs share when the seed was given a pool. */
const VACUUM_CONNECTIONS = 2;

/** VACUUM (ANALYZE) of `tables`, largest first, over `client` and, from a pool, one more connection. */
async function vacuumTables(source: pg.Pool | pg.PoolClient | pg.Client, client: pg.PoolClient | pg.Client, tables: string[]) {
  const sizes = await client.query<{ table: string }>(
    'SELECT t AS table FROM unnest($1::text[]) AS t ORDER BY pg_total_relation_size(t::regclass) DESC',
    [tables],
  );
  const queue = sizes.rows.map((row) => row.table);
  const extra = source instanceof pg.Pool ? await Promise.all(Array.from({ length: VACUUM_CONNECTIONS - 1 }, () => source.connect())) : [];
  const drain = async (connection: pg.PoolClient | pg.Client) => {
    for (let table = queue.shift(); table !== undefined; table = queue.shift()) {
      await connection.query(`VACUUM (ANALYZE) ${pg.escapeIdentifier(table)}`);
    }
  };
  // Settled, not raced: a connection goes back to the pool only once its VACUUM has ended.
  const results = await Promise.allSettled([client, ...extra].map(drain));
  for (const connection of extra) connection.release();
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * The organization with the most loans in its asset list (SPEC's default five roles), from the
 * asset list index's counts per (organization, roles bitmask): no pass over loan_parties.
 */
async function largestOrganization(client: pg.ClientBase): Promise<SeedSummary['largestOrganization']> {
  const result = await client.query<{ code: string; name: string; loans: number }>(
    `SELECT p.code, p.name, h.loans FROM participants p
       JOIN (SELECT participant_id, sum(count)::int AS loans FROM loan_list_counts WHERE roles & $1 <> 0 GROUP BY participant_id) h
         ON h.participant_id = p.id
      ORDER BY h.loans DESC, p.code LIMIT 1`,
    [roleMask(DEFAULT_ROLE_FILTER)],
  );
  return result.rows[0] ?? { code: '', name: '', loans: 0 };
}

// ---------------------------------------------------------------------------------------------
// Organizations

async function seedOrganizations(tx: Tx, fixtures: readonly OrganizationFixture[]): Promise<Org[]> {
  const fixtureRng = Rng.stream(SEED, 'organizations');
  // Generated organizations draw from streams of their own: the fixtures are the same at every size.
  const rngOf = (index: number) => (index < ORGANIZATIONS.length ? fixtureRng : Rng.stream(SEED, 'organization', index));
  const orgs: Org[] = fixtures.map((fixture, index) => {
    const rng = rngOf(index);
    const id = rng.uuid();
    const leiBody = `5493${rng.chars(14)}`;
    return {
      index,
      id,
      fixture,
      lei: leiBody + uliCheckDigits(leiBody),
      provenanceId: `pb1${rng.chars(38, BECH32)}`,
      phone: phoneNumber(fixture.areaCode, rng),
    };
  });
  await insertRows(
    tx,
    schema.participants,
    orgs.map((org): Row<typeof schema.participants> => ({
      id: org.id,
      name: org.fixture.name,
      organizationName: org.fixture.organizationName,
      code: org.fixture.code,
      email: `operations@${org.fixture.domain}`,
      phoneNumber: org.phone,
      street: org.fixture.street,
      street2: org.fixture.street2 ?? null,
      city: org.fixture.city,
      state: org.fixture.state,
      zip: org.fixture.zip,
      url: `https://www.${org.fixture.domain}`,
      grantedLimitedPowerOfAttorney: org.fixture.grantedLimitedPowerOfAttorney,
      isActive: org.fixture.isActive,
      createdAt: new Date(ANCHOR - (700 - (org.index % ORGANIZATIONS.length) * 23) * DAY),
      updatedAt: new Date(ANCHOR - (90 - (org.index % ORGANIZATIONS.length) * 5) * DAY),
    })),
  );

  // Additional contacts for most organizations; custodians also name a custodian contact.
  const contacts: Row<typeof schema.participantContacts>[] = [];
  for (const org of orgs) {
    const rng = org.index < ORGANIZATIONS.length ? fixtureRng : Rng.stream(SEED, 'organization-contacts', org.index);
    if (org.index % 4 === 3 && !org.fixture.partyRoles.includes('CONTROLLER')) continue;
    const types = ['PRIMARY', 'LEGAL', 'CUSTOMER_SERVICE'];
    if (org.fixture.partyRoles.includes('CONTROLLER') || org.fixture.partyRoles.includes('SECURED_PARTY')) types.push('CUSTODIAN');
    for (const type of types) {
      const first = rng.pick(FIRST_NAMES);
      const last = rng.pick(LAST_NAMES);
      const mailbox = type === 'CUSTOMER_SERVICE' ? 'customercare' : `${emailPart(first)}.${emailPart(last)}`;
      contacts.push({
        id: rng.uuid(),
        participantId: org.id,
        type,
        name: type === 'CUSTOMER_SERVICE' ? `${org.fixture.name} Customer Care` : `${first} ${last}`,
        email: `${mailbox}@${org.fixture.domain}`,
        phoneNumber: phoneNumber(org.fixture.areaCode, rng),
      });
    }
  }
  await insertRows(tx, schema.participantContacts, contacts);
  return orgs;
}

// ---------------------------------------------------------------------------------------------
// Identities, users, memberships, factors

interface PersonSpec {
  readonly email: string;
  readonly firstName: string;
  readonly middleName?: string;
  readonly lastName: string;
  readonly roles: Record<string, string[]>;
  /** null: an identity without a registry user. The first membership is the default one. */
  readonly memberships: ReadonlyArray<{ org: number; roles: string[] }> | null;
  readonly phone: boolean;
  /** An email factor enrolled (proven) by the person: the sign-in asks for a second step. */
  readonly enrolledEmail?: string;
}

const ACTIVE_ORG_COUNT = ORGANIZATIONS.filter((fixture) => fixture.isActive).length;
const OTHER_USERS = 20;

function personSpecs(): PersonSpec[] {
  const rng = Rng.stream(SEED, 'people');
  const adminOrgs = ORGANIZATIONS.map((_, index) => index).filter((index) => ORGANIZATIONS[index]?.isActive && index !== USER_MEMBER_ORG);
  const specs: PersonSpec[] = [
    {
      email: 'admin@registry.test',
      firstName: 'Dana',
      lastName: 'Whitfield',
      phone: true,
      roles: { [SERVICES.dart]: ['ROLE_DART_ADMIN'], [SERVICES.leadPortal]: ['LEAD_VIEWER'], [SERVICES.csp]: ['CSP_AGENT'] },
      memberships: adminOrgs.map((org) => ({ org, roles: org === ADMIN_DEFAULT_ORG ? ['ORG_ADMIN', 'FIGURE_ADMIN'] : ['FIGURE_ADMIN'] })),
    },
    {
      email: 'ops@registry.test',
      firstName: 'Omar',
      middleName: 'J.',
      lastName: 'Patel',
      phone: false,
      roles: { [SERVICES.dart]: ['ROLE_DART_OPS'] },
      memberships: [
        { org: 2, roles: ['DART_AGENT'] },
        { org: ADMIN_DEFAULT_ORG, roles: ['DART_AGENT'] },
        { org: 9, roles: ['FIGURE_ENGINEER'] },
      ],
    },
    {
      email: 'user@registry.test',
      firstName: 'Julia',
      lastName: 'Chen',
      phone: true,
      roles: { [SERVICES.dart]: ['ROLE_DART_USER'] },
      memberships: [
        { org: USER_ADMIN_ORG, roles: ['ORG_ADMIN'] },
        { org: USER_MEMBER_ORG, roles: [] },
      ],
    },
    { email: 'unregistered@registry.test', firstName: 'Riley', lastName: 'Brooks', phone: false, roles: {}, memberships: null },
  ];
  const emails = new Set(specs.map((spec) => spec.email));
  for (let i = 0; i < OTHER_USERS; i++) {
    const home = i % ACTIVE_ORG_COUNT;
    const fixture = ORGANIZATIONS[home] as OrganizationFixture;
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    let email = `${emailPart(firstName)}.${emailPart(lastName)}@${fixture.domain}`;
    for (let n = 2; emails.has(email); n++) email = `${emailPart(firstName)}.${emailPart(lastName)}${n}@${fixture.domain}`;
    emails.add(email);
    const firstRoles =
      i < ACTIVE_ORG_COUNT ? ['ORG_ADMIN'] : [rng.pick(['CUSTODIAN', 'DART_AGENT', 'FIGURE_ENGINEER', 'TRADER', 'AUDITOR'])];
    if (rng.chance(0.3)) firstRoles.push(rng.pick(['FIGURE_ADMIN', 'CUSTODIAN', 'AUDITOR'].filter((role) => !firstRoles.includes(role))));
    const memberships = [{ org: home, roles: firstRoles }];
    // A few people also belong to a second organization; two of them to the inactive one.
    if (i === 5 || i === 11) memberships.push({ org: ORGANIZATIONS.length - 1, roles: ['ORG_ADMIN'] });
    else if (rng.chance(0.3))
      memberships.push({ org: (home + rng.int(1, ACTIVE_ORG_COUNT - 1)) % ACTIVE_ORG_COUNT, roles: ['DART_AGENT'] });
    specs.push({
      email,
      firstName,
      lastName,
      phone: rng.chance(0.5),
      middleName: rng.chance(0.25) ? rng.pick(['A.', 'B.', 'C.', 'E.', 'L.', 'M.', 'R.']) : undefined,
      roles: { [SERVICES.dart]: ['ROLE_DART_USER'] },
      memberships,
    });
  }
  // Last, so the other people's seeded values stay as they were.
  specs.push({
    email: FACTOR_DEMO_EMAIL,
    firstName: 'Sam',
    lastName: 'Keller',
    phone: false,
    roles: { [SERVICES.dart]: ['ROLE_DART_USER'] },
    memberships: [{ org: USER_ADMIN_ORG, roles: [] }],
    enrolledEmail: FACTOR_DEMO_CODES_TO,
  });
  return specs;
}

async function seedPeople(tx: Tx, orgs: readonly Org[], passwordHash: string) {
  const rng = Rng.stream(SEED, 'identities');
  const identityRows: Row<typeof schema.identities>[] = [];
  const factorRows: Row<typeof schema.authenticationFactors>[] = [];
  const userRows: Row<typeof schema.users>[] = [];
  const membershipRows: Row<typeof schema.memberships>[] = [];
  const usersByOrg = new Map<string, string[]>();
  let adminUserId = '';
  for (const [index, spec] of personSpecs().entries()) {
    const identityId = rng.uuid();
    const createdAt = new Date(ANCHOR - (400 - index * 9) * DAY);
    const fullName = [spec.firstName, spec.middleName, spec.lastName].filter(Boolean).join(' ');
    identityRows.push({ id: identityId, email: spec.email, name: fullName, passwordHash, roles: spec.roles, createdAt });
    factorRows.push({ id: rng.uuid(), identityId, type: 'Email', value: spec.email, editable: false, required: true, createdAt });
    if (spec.enrolledEmail) {
      const enrolledAt = new Date(ANCHOR - 30 * DAY);
      factorRows.push({
        id: rng.uuid(),
        identityId,
        type: 'Email',
        value: spec.enrolledEmail,
        editable: true,
        required: false,
        createdAt: enrolledAt,
        verifiedAt: enrolledAt,
      });
    }
    if (spec.phone) {
      factorRows.push({
        id: rng.uuid(),
        identityId,
        type: 'Phone',
        value: `+1${rng.pick(['415', '303', '212', '512'])}55501${rng.digits(2)}`,
        editable: true,
        required: false,
        createdAt,
      });
    }
    if (!spec.memberships) continue;
    const userId = rng.uuid();
    if (spec.email === 'admin@registry.test') adminUserId = userId;
    userRows.push({
      id: userId,
      identityId,
      email: spec.email,
      firstName: spec.firstName,
      middleName: spec.middleName ?? null,
      lastName: spec.lastName,
      createdAt,
      updatedAt: createdAt,
    });
    for (const [position, membership] of spec.memberships.entries()) {
      const org = orgs[membership.org] as Org;
      membershipRows.push({ userId, participantId: org.id, roles: membership.roles, isDefault: position === 0, createdAt });
      usersByOrg.set(org.id, [...(usersByOrg.get(org.id) ?? []), userId]);
    }
  }
  await insertRows(tx, schema.identities, identityRows);
  await insertRows(tx, schema.authenticationFactors, factorRows);
  await insertRows(tx, schema.users, userRows);
  await insertRows(tx, schema.memberships, membershipRows);
  return { identityCount: identityRows.length, userCount: userRows.length, usersByOrg, adminUserId };
}

// ---------------------------------------------------------------------------------------------
// Relationships and pools

const RELATIONSHIPS: ReadonlyArray<readonly [number, number, string, string]> = [
  [0, 3, 'CUSTODY', 'CONFIRMED'],
  [0, 2, 'SUB_SERVICING', 'CONFIRMED'],
  [0, 4, 'INVESTOR', 'CONFIRMED'],
  [1, 9, 'SUB_SERVICING', 'CONFIRMED'],
  [1, 10, 'CUSTODY', 'PENDING'],
  [1, 0, 'INVESTOR', 'CONFIRMED'],
  [12, 3, 'CUSTODY', 'CONFIRMED'],
  [12, 1, 'SERVICING', 'REQUESTED'],
  [5, 2, 'SERVICING', 'CONFIRMED'],
  [6, 9, 'SERVICING', 'CONFIRMED'],
  [7, 8, 'INVESTOR', 'PENDING'],
  [11, 10, 'CUSTODY', 'CONFIRMED'],
  [4, 0, 'SERVICING', 'REJECTED'],
];

async function seedRelationships(tx: Tx, orgs: readonly Org[]): Promise<SeedRelationship[]> {
  const rng = Rng.stream(SEED, 'relationships');
  const relationships = RELATIONSHIPS.map(([from, to, type, state]) => ({
    id: rng.uuid(),
    from: orgs[from] as Org,
    to: orgs[to] as Org,
    type,
    state,
  }));
  await insertRows(
    tx,
    schema.relationships,
    relationships.map((relationship, index) => ({
      id: relationship.id,
      participantId: relationship.from.id,
      partnerParticipantId: relationship.to.id,
      type: relationship.type,
      state: relationship.state,
      createdAt: new Date(ANCHOR - (300 - index * 11) * DAY),
    })),
  );
  return relationships;
}

const POOL_OWNERS = [0, 1, 12, 0, 4, 1, 2, 5, 0, 8, 11, 1, 6, 7, 0, 9, 12, 3, 1, 0, 4, 10, 12, 5, 0, 1, 8, 2, 11, 6];

async function seedPools(tx: Tx, orgs: readonly Org[], loanCount: number, now: number): Promise<Pool[]> {
  const rng = Rng.stream(SEED, 'pools');
  const targets = POOL_OWNERS.map(() => rng.int(5, 60));
  // Small seeds cannot fill 30 pools of up to 60: shrink the targets to most of the loans.
  const capacity = Math.floor(loanCount * 0.8);
  const wanted = targets.reduce((sum, target) => sum + target, 0);
  const scale = wanted > capacity ? capacity / wanted : 1;
  const perOwner = new Map<number, number>();
  const pools: Pool[] = [];
  const rows: Row<typeof schema.pools>[] = [];
  for (const [index, ownerIndex] of POOL_OWNERS.entries()) {
    const owner = orgs[ownerIndex] as Org;
    const serial = (perOwner.get(ownerIndex) ?? 0) + 1;
    perOwner.set(ownerIndex, serial);
    const state = index % 10 === 3 ? 'PENDING' : index % 15 === 7 ? 'IN_PROGRESS' : 'COMPLETE';
    // Completion dates follow the clock so the pools' "last 30 days" filter has data.
    const completed = now - (index * 9 + rng.int(0, 6)) * DAY - rng.int(0, 20) * HOUR;
    const name = `${owner.fixture.code} ${2025 - Math.floor(index / 12)}-${serial} ${rng.pick(POOL_DESCRIPTORS)}`;
    const pool: Pool = { id: rng.uuid(), owner, name, target: Math.max(1, Math.floor((targets[index] ?? 5) * scale)), filled: 0 };
    pools.push(pool);
    rows.push({
      id: pool.id,
      participantId: owner.id,
      name,
      state,
      dateCompleted: state === 'COMPLETE' ? isoDate(completed) : null,
      createdAt: new Date(completed - 12 * DAY),
    });
  }
  await insertRows(tx, schema.pools, rows);
  return pools;
}

// ---------------------------------------------------------------------------------------------
// Deactivation requests and jobs (messages: messages.ts)

async function seedDeactivationRequests(tx: Tx, context: Context, usersByOrg: Map<string, string[]>): Promise<void> {
  const rng = Rng.stream(SEED, 'deactivations');
  const documents: Row<typeof schema.documents>[] = [];
  const requests: Row<typeof schema.deactivationRequests>[] = [];
  for (const [index, loan] of context.inactiveLoans.entries()) {
    const documentId = rng.uuid();
    const createdAt = new Date(ANCHOR - rng.int(10, 25) * DAY);
    documents.push(await documentRow(loan.id, documentId, 'DEACTIVATION_INSTRUMENT', loan.subject, createdAt));
    const reason = DEACTIVATION_REASONS[index % DEACTIVATION_REASONS.length] as string;
    const requester = loan.requester.fixture;
    const assignee = context.activeOrgs[(loan.requester.index + 3) % context.activeOrgs.length] as Org;
    requests.push({
      id: rng.uuid(),
      loanId: loan.id,
      participantId: loan.requester.id,
      requestedBy: usersByOrg.get(loan.requester.id)?.[0] ?? null,
      reason,
      effectiveDate: isoDate(createdAt.getTime() + 3 * DAY),
      assignee: reason === 'payoff' ? null : assignee.fixture.organizationName,
      entityType: rng.pick(ENTITY_TYPES),
      statePostalCode: loan.propertyState,
      street1: requester.street,
      street2: requester.street2 ?? null,
      city: requester.city,
      state: requester.state,
      zip: requester.zip,
      documentId,
      bookNumber: String(rng.int(100, 9999)),
      pageNumber: String(rng.int(1, 999)),
      instrumentNumber: `${createdAt.getUTCFullYear()}-${rng.digits(7)}`,
      status: index === context.inactiveLoans.length - 1 ? 'SUBMITTED' : 'COMPLETED',
      createdAt,
    });
  }
  await insertRows(tx, schema.documents, documents, 100);
  await insertRows(tx, schema.deactivationRequests, requests);
}

async function seedJobs(tx: Tx, org: Org, adminUserId: string, now: number): Promise<void> {
  const rng = Rng.stream(SEED, 'jobs');
  await insertRows(
    tx,
    schema.jobs,
    [
      [3 * DAY + 2 * HOUR, 24],
      [26 * HOUR, 118],
    ].map(([age, total]): Row<typeof schema.jobs> => ({
      id: rng.uuid(),
      participantId: org.id,
      userId: adminUserId || null,
      type: 'BATCH_DOWNLOAD_AOMS',
      status: 'DONE',
      progress: total as number,
      total: total as number,
      resultSizeBytes: (total as number) * rng.int(1400, 1600),
      createdAt: new Date(now - (age as number)),
      updatedAt: new Date(now - (age as number) + 2 * MINUTE),
    })),
  );
}
