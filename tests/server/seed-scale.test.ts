// The administration at scale (src/server/seed/scale.ts): organizations and users up to the
// totals asked, memberships spread as in a real registry, every organization with an ORG_ADMIN,
// the same rows from the same database and totals, and more added later to a seeded database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addScale, seedDemoData, type SeedSummary } from '../../src/server/seed';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// Above the users at which the indexes are built after the load (BULK_USERS): that path too.
const SCALE = { organizations: 120, users: 24_000 } as const;
const LOANS = 50;

async function rows<T>(database: TestDatabase, text: string): Promise<T[]> {
  return (await database.pool.query(text)).rows as T[];
}

async function definitions(database: TestDatabase): Promise<string[]> {
  return (
    await rows<{ definition: string }>(
      database,
      `SELECT indexname || ': ' || indexdef AS definition FROM pg_indexes WHERE schemaname = 'public'
       UNION ALL
       SELECT conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
       ORDER BY 1`,
    )
  ).map((row) => row.definition);
}

describe('seed at the administration scale', () => {
  let database: TestDatabase;
  let summary: SeedSummary;
  let definitionsBefore: string[];

  beforeAll(async () => {
    database = await createTestDatabase();
    definitionsBefore = await definitions(database);
    summary = await seedDemoData(database.owner.db, { loans: LOANS, scale: SCALE });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('reaches the totals asked, some organizations inactive, the added ones without loans', async () => {
    expect(summary.organizations).toBe(SCALE.organizations);
    expect(summary.scale?.users).toBe(SCALE.users);
    const [counts] = await rows<{ organizations: number; inactive: number; users: number; identities: number; withLoans: number }>(
      database,
      `SELECT (SELECT count(*)::int FROM participants) AS organizations,
              (SELECT count(*)::int FROM participants WHERE NOT is_active) AS inactive,
              (SELECT count(*)::int FROM users) AS users,
              (SELECT count(*)::int FROM identities) AS identities,
              (SELECT count(DISTINCT participant_id)::int FROM loan_parties) AS "withLoans"`,
    );
    expect(counts).toMatchObject({ organizations: SCALE.organizations, users: SCALE.users });
    expect(counts?.identities).toBeGreaterThanOrEqual(SCALE.users);
    expect(counts?.inactive).toBeGreaterThan(1);
    expect(counts?.withLoans).toBeLessThanOrEqual(14);
  });

  it('gives every organization an ORG_ADMIN and every user one default membership', async () => {
    const [withoutAdmin] = await rows<{ count: number }>(
      database,
      `SELECT count(*)::int AS count FROM participants p
        WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id AND 'ORG_ADMIN' = ANY (m.roles))`,
    );
    expect(withoutAdmin?.count).toBe(0);
    const [defaults] = await rows<{ wrong: number }>(
      database,
      `SELECT count(*)::int AS wrong FROM (SELECT user_id FROM memberships GROUP BY user_id HAVING count(*) FILTER (WHERE is_default) <> 1) u`,
    );
    expect(defaults?.wrong).toBe(0);
  });

  it('spreads memberships realistically: most users in one organization, some in several; a long tail of sizes', async () => {
    const perUser = await rows<{ organizations: number; users: number }>(
      database,
      'SELECT organizations, count(*)::int AS users FROM (SELECT count(*)::int AS organizations FROM memberships GROUP BY user_id) u GROUP BY 1 ORDER BY 1',
    );
    const users = (n: number) => perUser.find((row) => row.organizations === n)?.users ?? 0;
    expect(users(1) / SCALE.users).toBeGreaterThan(0.8);
    expect(users(2)).toBeGreaterThan(0);
    expect(Math.max(...perUser.map((row) => row.organizations))).toBeLessThanOrEqual(12);
    const [sizes] = await rows<{ largest: number; median: number; smallest: number }>(
      database,
      `SELECT max(n)::int AS largest, percentile_disc(0.5) WITHIN GROUP (ORDER BY n)::int AS median, min(n)::int AS smallest
         FROM (SELECT count(*) AS n FROM memberships GROUP BY participant_id) s`,
    );
    expect(sizes?.smallest).toBeGreaterThanOrEqual(1);
    expect(sizes?.largest).toBeGreaterThan(5 * (sizes?.median ?? 0));
    expect(summary.scale?.largestOrganization.users).toBe(sizes?.largest);
  });

  it('leaves the indexes and constraints as the migrations made them', async () => {
    expect(await definitions(database)).toEqual(definitionsBefore);
  });

  it('makes the same rows from the same options', async () => {
    const other = await createTestDatabase();
    try {
      await seedDemoData(other.owner.db, { loans: LOANS, scale: SCALE });
      const snapshot = async (target: TestDatabase) => ({
        participants: await rows(target, 'SELECT id, name, code, is_active FROM participants ORDER BY id'),
        users: await rows(target, 'SELECT id, email, first_name, last_name, last_sign_in_at FROM users ORDER BY id'),
        memberships: await rows(target, 'SELECT user_id, participant_id, roles, is_default FROM memberships ORDER BY 1, 2'),
      });
      expect(await snapshot(other)).toEqual(await snapshot(database));
    } finally {
      await other.close();
    }
  }, 120_000);

  it('adds more to a seeded database up to new totals, then nothing', async () => {
    const more = await addScale(database.owner.pool, { organizations: SCALE.organizations + 10, users: SCALE.users + 500 });
    expect(more).toMatchObject({
      organizations: SCALE.organizations + 10,
      users: SCALE.users + 500,
      addedOrganizations: 10,
      addedUsers: 500,
    });
    const again = await addScale(database.owner.pool, { organizations: SCALE.organizations + 10, users: SCALE.users + 500 });
    expect(again).toMatchObject({ addedOrganizations: 0, addedUsers: 0 });
    const [withoutAdmin] = await rows<{ count: number }>(
      database,
      `SELECT count(*)::int AS count FROM participants p
        WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id AND 'ORG_ADMIN' = ANY (m.roles))`,
    );
    expect(withoutAdmin?.count).toBe(0);
  }, 60_000);
});
