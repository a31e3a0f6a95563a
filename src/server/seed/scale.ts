// The administration's scale (`npm run seed -- --organizations 3000 --users 200000`): a registry
// of thousands of organizations and hundreds of thousands of users, as the administration screens
// and their benchmarks meet it. It adds to whatever the database holds until the totals are
// reached (on the demo seed, or later on a kept benchmark folder); the organizations it adds hold
// no loans. Deterministic: the same database and totals give the same rows. Rows go in with COPY
// (copy.ts); above BULK_USERS users the tables' indexes are built once, after the load.
//
// Memberships spread as in a real registry: organization sizes follow a long tail (a few with
// thousands of users, most with tens), most users belong to one organization, some to two, a few
// to up to five, and every organization has at least one ORG_ADMIN.
import pg from 'pg';
import { DEMO_PASSWORD } from '../../domain/constants';
import * as schema from '../db/schema';
import { hashPassword } from '../identity/passwords';
import { dropIndexes, restoreIndexes } from './bulk-indexes';
import { ANCHOR, DAY, SEED } from './context';
import { CopyBuffer, CopyTable } from './copy';
import { FIRST_NAMES, LAST_NAMES } from './fixtures';
import { generatedOrganizations } from './organizations';
import { Rng } from './random';

export interface ScaleOptions {
  /** Organizations the registry holds at least, in all (active or not). */
  readonly organizations?: number;
  /** Registry users it holds at least, in all. */
  readonly users?: number;
  readonly log?: (message: string) => void;
}

export interface ScaleSummary {
  readonly organizations: number;
  readonly activeOrganizations: number;
  readonly users: number;
  readonly addedOrganizations: number;
  readonly addedUsers: number;
  readonly addedMemberships: number;
  /** The organization with the most members after the load (the users page's worst case). */
  readonly largestOrganization: { readonly id: string; readonly name: string; readonly users: number };
}

/** From this many added users on, the identities', users' and memberships' indexes are built after the load. */
const BULK_USERS = 20_000;
/** The tail of organization sizes: the r-th largest takes a share proportional to r^-SIZE_EXPONENT. */
const SIZE_EXPONENT = 0.9;
/** Every INACTIVE_EVERY-th added organization is inactive (the list's active/inactive filter has both). */
const INACTIVE_EVERY = 37;
const ADMIN_SHARE = 0.04;
const MEMBER_ROLES = ['CUSTODIAN', 'DART_AGENT', 'FIGURE_ENGINEER', 'FIGURE_ADMIN', 'TRADER', 'AUDITOR'] as const;
const MIDDLE_INITIALS = ['A.', 'B.', 'C.', 'E.', 'J.', 'L.', 'M.', 'R.'] as const;

/** The tables the scale fills (vacuumed after it). */
export const SCALE_TABLES = ['participants', 'identities', 'users', 'memberships'];

const emailPart = (name: string): string => name.toLowerCase().replace(/[^a-z]/g, '');
/** A text[] in COPY's text format (the roles are plain words: nothing to quote). */
const textArray = (values: readonly string[]): string[] => `{${values.join(',')}}` as unknown as string[];

interface OrgRow {
  readonly id: string;
  readonly name: string;
  readonly domain: string;
}

/** Adds organizations and users until the totals are reached; nothing when they already are. */
export async function seedScale(client: pg.ClientBase, passwordHash: string, options: ScaleOptions): Promise<ScaleSummary> {
  const log = options.log ?? (() => undefined);
  const addedOrganizations = await addOrganizations(client, options.organizations ?? 0);
  if (addedOrganizations > 0) log(`scale: ${addedOrganizations} organizations added`);
  const added = await addUsers(client, passwordHash, options.users ?? 0, log);
  if (addedOrganizations > 0 || added.users > 0) await client.query('ANALYZE participants, identities, users, memberships');
  const counts = await client.query<{ organizations: number; active: number; users: number }>(
    `SELECT (SELECT count(*)::int FROM participants) AS organizations,
            (SELECT count(*)::int FROM participants WHERE is_active) AS active,
            (SELECT count(*)::int FROM users) AS users`,
  );
  const largest = await client.query<{ id: string; name: string; users: number }>(
    `SELECT p.id, p.name, m.users FROM participants p
       JOIN (SELECT participant_id, count(*)::int AS users FROM memberships GROUP BY participant_id) m ON m.participant_id = p.id
      ORDER BY m.users DESC, p.id LIMIT 1`,
  );
  return {
    organizations: counts.rows[0]?.organizations ?? 0,
    activeOrganizations: counts.rows[0]?.active ?? 0,
    users: counts.rows[0]?.users ?? 0,
    addedOrganizations,
    addedUsers: added.users,
    addedMemberships: added.memberships,
    largestOrganization: largest.rows[0] ?? { id: '', name: '', users: 0 },
  };
}

async function addOrganizations(client: pg.ClientBase, total: number): Promise<number> {
  const existing = await client.query<{ name: string; code: string }>('SELECT name, code FROM participants');
  const missing = total - existing.rows.length;
  if (missing <= 0) return 0;
  // The generated sequence is the one the loan seed draws its extra organizations from (a prefix
  // of it may be here already): continue it, skipping any name or code taken.
  const names = new Set(existing.rows.map((row) => row.name.toLowerCase()));
  const codes = new Set(existing.rows.map((row) => row.code));
  const candidates = generatedOrganizations(existing.rows.length + missing);
  const buffer = new CopyBuffer(
    new CopyTable(schema.participants, [
      'id',
      'name',
      'organizationName',
      'code',
      'email',
      'phoneNumber',
      'street',
      'street2',
      'city',
      'state',
      'zip',
      'url',
      'grantedLimitedPowerOfAttorney',
      'isActive',
      'createdAt',
      'updatedAt',
    ]),
  );
  let added = 0;
  for (const [n, fixture] of candidates.entries()) {
    if (added === missing) break;
    if (names.has(fixture.name.toLowerCase()) || codes.has(fixture.code)) continue;
    const rng = Rng.stream(SEED, 'scale-organization', n);
    const createdAt = new Date(ANCHOR - rng.int(30, 2000) * DAY);
    buffer.push({
      id: rng.uuid(),
      name: fixture.name,
      organizationName: fixture.organizationName,
      code: fixture.code,
      email: `operations@${fixture.domain}`,
      phoneNumber: `${fixture.areaCode}55501${rng.digits(2)}`,
      street: fixture.street,
      street2: fixture.street2 ?? null,
      city: fixture.city,
      state: fixture.state,
      zip: fixture.zip,
      url: `https://www.${fixture.domain}`,
      grantedLimitedPowerOfAttorney: fixture.grantedLimitedPowerOfAttorney,
      isActive: (added + 1) % INACTIVE_EVERY !== 0,
      createdAt,
      updatedAt: new Date(createdAt.getTime() + rng.int(0, 25) * DAY),
    });
    added++;
  }
  if (added < missing) throw new Error(`Only ${added} of ${missing} organizations could be named: no free code or name left`);
  await buffer.copy(client);
  return added;
}

/** Cumulative weights of a long tail over `count` organizations (the first is the largest). */
function cumulativeTail(count: number): Float64Array {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let rank = 0; rank < count; rank++) cumulative[rank] = total += (rank + 1) ** -SIZE_EXPONENT;
  return cumulative;
}

/** The index drawn by weight (binary search: hundreds of thousands of draws over thousands of organizations). */
function drawIndex(rng: Rng, cumulative: Float64Array): number {
  const roll = rng.next() * (cumulative[cumulative.length - 1] as number);
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (roll < (cumulative[middle] as number)) high = middle;
    else low = middle + 1;
  }
  return low;
}

async function addUsers(
  client: pg.ClientBase,
  passwordHash: string,
  total: number,
  log: (message: string) => void,
): Promise<{ users: number; memberships: number }> {
  const counts = await client.query<{ users: number; next: number }>(
    // The `.u<k>@` of users added before: this run continues after the highest k.
    `SELECT count(*)::int AS users, coalesce(max((substring(email FROM '\\.u(\\d+)@'))::int) + 1, 0)::int AS next FROM users`,
  );
  const missing = total - (counts.rows[0]?.users ?? 0);
  if (missing <= 0) return { users: 0, memberships: 0 };
  const first = counts.rows[0]?.next ?? 0;
  // Ordered by id (random UUIDs): which organizations are large is a draw, the same each time.
  const orgs = (
    await client.query<{ id: string; name: string; email: string }>('SELECT id, name, email FROM participants ORDER BY id')
  ).rows.map((row): OrgRow => ({ id: row.id, name: row.name, domain: row.email.split('@')[1] ?? 'registry.example' }));
  if (orgs.length === 0) throw new Error('Users need organizations: the database has none');
  const indexOf = new Map(orgs.map((org, index) => [org.id, index]));
  const withoutAdmin = (
    await client.query<{ id: string }>(
      `SELECT p.id FROM participants p
        WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id AND 'ORG_ADMIN' = ANY (m.roles))
        ORDER BY p.id`,
    )
  ).rows.map((row) => indexOf.get(row.id) as number);
  const cumulative = cumulativeTail(orgs.length);

  const identities = new CopyBuffer(new CopyTable(schema.identities, ['id', 'email', 'name', 'passwordHash', 'roles', 'createdAt']));
  const users = new CopyBuffer(
    new CopyTable(schema.users, [
      'id',
      'identityId',
      'email',
      'firstName',
      'middleName',
      'lastName',
      'lastSignInAt',
      'createdAt',
      'updatedAt',
    ]),
  );
  const memberships = new CopyBuffer(new CopyTable(schema.memberships, ['userId', 'participantId', 'roles', 'isDefault', 'createdAt']));
  const roles = { 'service-dart': ['ROLE_DART_USER'] };
  for (let i = 0; i < missing; i++) {
    const k = first + i;
    const rng = Rng.stream(SEED, 'scale-user', k);
    // The first users added give each organization without one its ORG_ADMIN.
    const adminOf = withoutAdmin[i];
    const home = adminOf ?? drawIndex(rng, cumulative);
    const homeOrg = orgs[home] as OrgRow;
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    const middleName = rng.chance(0.2) ? rng.pick(MIDDLE_INITIALS) : null;
    const email = `${emailPart(firstName)}.${emailPart(lastName)}.u${k}@${homeOrg.domain}`;
    const createdAt = new Date(ANCHOR - rng.int(1, 1500) * DAY - rng.int(0, 86_399) * 1000);
    const identityId = rng.uuid();
    const userId = rng.uuid();
    identities.push({
      id: identityId,
      email,
      name: [firstName, middleName, lastName].filter(Boolean).join(' '),
      passwordHash,
      roles,
      createdAt,
    });
    users.push({
      id: userId,
      identityId,
      email,
      firstName,
      middleName,
      lastName,
      // Most have signed in lately; some never have.
      lastSignInAt: rng.chance(0.85) ? new Date(ANCHOR - rng.int(0, 90 * 24) * 3_600_000) : null,
      createdAt,
      updatedAt: createdAt,
    });
    const homeRoles =
      adminOf !== undefined || rng.chance(ADMIN_SHARE)
        ? ['ORG_ADMIN']
        : rng.chance(0.3)
          ? rng.shuffle(MEMBER_ROLES).slice(0, 2)
          : [rng.pick(MEMBER_ROLES)];
    memberships.push({ userId, participantId: homeOrg.id, roles: textArray(homeRoles), isDefault: true, createdAt });
    // 85% in one organization, 12% in two, 3% in three to five.
    const roll = rng.next();
    const more = roll < 0.85 ? 0 : roll < 0.97 ? 1 : rng.int(2, 4);
    const taken = new Set([home]);
    for (let extra = 0; extra < more && taken.size < orgs.length; extra++) {
      let other = drawIndex(rng, cumulative);
      while (taken.has(other)) other = (other + 1) % orgs.length;
      taken.add(other);
      memberships.push({
        userId,
        participantId: (orgs[other] as OrgRow).id,
        roles: textArray([rng.pick(MEMBER_ROLES)]),
        isDefault: false,
        createdAt: new Date(createdAt.getTime() + rng.int(1, 300) * DAY),
      });
    }
  }
  if (withoutAdmin.length > missing) log(`scale: ${withoutAdmin.length - missing} organizations still have no ORG_ADMIN (add more users)`);

  const tables = ['identities', 'users', 'memberships'];
  const saved = missing >= BULK_USERS ? await dropIndexes(client, tables) : undefined;
  const started = performance.now();
  await identities.copy(client);
  await users.copy(client);
  await memberships.copy(client);
  if (saved) await restoreIndexes(client, saved);
  log(
    `scale: ${missing} users and ${memberships.rows} memberships added${saved ? ', indexes rebuilt' : ''} ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return { users: missing, memberships: memberships.rows };
}

/**
 * The scale on a database seeded before (a kept benchmark folder): one transaction, then VACUUM
 * (ANALYZE) so that index-only scans skip the heap from the first request. Needs the tables' owner.
 */
export async function addScale(pool: pg.Pool, options: ScaleOptions): Promise<ScaleSummary> {
  const client = await pool.connect();
  let broken = false;
  try {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await client.query('BEGIN');
    let summary: ScaleSummary;
    try {
      // Two at once must not both add the same rows.
      await client.query('LOCK TABLE participants IN SHARE ROW EXCLUSIVE MODE');
      summary = await seedScale(client, passwordHash, options);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    }
    if (summary.addedOrganizations > 0 || summary.addedUsers > 0) {
      for (const table of SCALE_TABLES) await client.query(`VACUUM (ANALYZE) ${pg.escapeIdentifier(table)}`);
    }
    return summary;
  } finally {
    client.release(broken);
  }
}
