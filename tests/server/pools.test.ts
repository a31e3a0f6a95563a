import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { poolDetailSchema, poolListSchema } from '../../src/contract/pools';
import { TEXTS } from '../../src/domain/texts';
import { LOAN_CSV_HEADERS } from '../../src/server/csv/loan-csv';
import { POOL_NOT_FOUND } from '../../src/server/routes/pools';
import { csvRecords, parseCsv } from './support/csv-parse';
import { createLoanListWorld, insertPool, type LoanListWorld } from './support/loan-list-world';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
let world: LoanListWorld;
const pools = {} as Record<'owned' | 'pending' | 'shared' | 'hidden' | 'old', string>;

beforeAll(async () => {
  world = await createLoanListWorld(server.db, server.app);
  const db = server.db;
  const { loans, home, foreign, filler } = world;
  // Home's own pool: Ada (400,000.00), Grace (250,000.50) and a dozen fillers (125,000.00 each).
  pools.owned = (
    await insertPool(db, {
      participantId: home,
      name: 'HOM 2026-1 Prime',
      dateCompleted: '2026-01-05',
      loanIds: [loans.ada, loans.grace, ...filler.slice(0, 12)],
    })
  ).id;
  pools.pending = (await insertPool(db, { participantId: home, name: 'HOM 2026-2 Open', state: 'PENDING', loanIds: [loans.pending] })).id;
  pools.old = (await insertPool(db, { participantId: home, name: 'HOM 2024-1 Seasoned', dateCompleted: '2024-02-01', loanIds: [] })).id;
  // Foreign's pool holding one loan Home services, and one loan Home cannot see.
  pools.shared = (
    await insertPool(db, {
      participantId: foreign,
      name: 'FOR 2025-3 Mixed',
      dateCompleted: '2025-11-30',
      loanIds: [loans.grace, loans.foreignOnly],
    })
  ).id;
  // Foreign's pool of loans Home holds no role on.
  pools.hidden = (
    await insertPool(db, { participantId: foreign, name: 'FOR 2025-4 Private', dateCompleted: '2025-12-01', loanIds: [loans.foreignOnly] })
  ).id;
});

const get = (url: string, options: { cookie?: string | null; participantId?: string } = {}) =>
  server
    .caller(options.cookie === null ? undefined : (options.cookie ?? world.cookies.member), options.participantId ?? world.home)
    .get(url);

describe('GET v1 /pools', () => {
  it('lists the pools the organization owns or holds a role in, newest completion first, counting the loans it may see', async () => {
    const response = await get(PATHS.pools);
    expect(response.statusCode).toBe(200);
    expect(poolListSchema.parse(response.json())).toEqual([
      {
        id: pools.owned,
        name: 'HOM 2026-1 Prime',
        count: 14,
        totalAmount: 400_000 + 250_000.5 + 12 * 125_000,
        dateCompleted: '2026-01-05',
      },
      { id: pools.shared, name: 'FOR 2025-3 Mixed', count: 1, totalAmount: 250_000.5, dateCompleted: '2025-11-30' },
      { id: pools.old, name: 'HOM 2024-1 Seasoned', count: 0, totalAmount: 0, dateCompleted: '2024-02-01' },
      { id: pools.pending, name: 'HOM 2026-2 Open', count: 1, totalAmount: 125_000, dateCompleted: null },
    ]);
  });

  it('filters by state and by completion date (a date-time counts by its own calendar date)', async () => {
    const names = async (query: string) => poolListSchema.parse((await get(`${PATHS.pools}?${query}`)).json()).map((pool) => pool.name);
    expect(await names('state=COMPLETE')).toEqual(['HOM 2026-1 Prime', 'FOR 2025-3 Mixed', 'HOM 2024-1 Seasoned']);
    expect(await names('state=PENDING')).toEqual(['HOM 2026-2 Open']);
    expect(await names('state=COMPLETE&completedAfter=2025-11-30')).toEqual(['HOM 2026-1 Prime', 'FOR 2025-3 Mixed']);
    expect(await names('state=COMPLETE&completedAfter=2025-12-01T00:00:00-05:00')).toEqual(['HOM 2026-1 Prime']);
  });

  it("shows the other organization its own pools, not Home's", async () => {
    const response = await get(PATHS.pools, { cookie: world.cookies.other, participantId: world.foreign });
    const listed = poolListSchema.parse(response.json());
    expect(listed.map((pool) => pool.name).sort()).toEqual(['FOR 2025-3 Mixed', 'FOR 2025-4 Private', 'HOM 2026-1 Prime'].sort());
    // Among Home's pool, Foreign holds roles on Ada, Grace and four fillers: its count covers what it may see.
    expect(listed.find((pool) => pool.id === pools.owned)?.count).toBe(6);
  });

  it('refuses without a session (401), for a foreign organization (403) and for a bad filter (400 naming it)', async () => {
    expect((await get(PATHS.pools, { cookie: null })).statusCode).toBe(401);
    const foreign = await get(PATHS.pools, { participantId: world.foreign });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(TEXTS.invalidParticipantBody);
    for (const [query, field] of [
      ['state=DONE', 'state'],
      ['completedAfter=last-month', 'completedAfter'],
      // Year 0000 (ISO's 1 BC): PostgreSQL has none, and failed the statement with a 500.
      ['completedAfter=0000-01-01', 'completedAfter'],
    ]) {
      const response = await get(`${PATHS.pools}?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(`querystring.${field}`);
    }
  });
});

describe('GET v1 /pools/{poolId}', () => {
  it("gives the pool's name and a page of its loans with the total", async () => {
    const response = await get(`${PATHS.pool(pools.owned)}?limit=10`);
    expect(response.statusCode).toBe(200);
    const detail = poolDetailSchema.parse(response.json());
    expect(detail.pool).toEqual({ id: pools.owned, name: 'HOM 2026-1 Prime' });
    expect(detail.totalCount).toBe(14);
    expect(detail.loans).toHaveLength(10);
    const rest = poolDetailSchema.parse((await get(`${PATHS.pool(pools.owned)}?limit=10&offset=10`)).json());
    const all = [...detail.loans, ...rest.loans].map((loan) => loan.loanId).sort();
    expect(all).toEqual([world.loans.ada, world.loans.grace, ...world.filler.slice(0, 12)].sort());
  });

  it('lists only the loans of a shared pool that the organization may see', async () => {
    const detail = poolDetailSchema.parse((await get(PATHS.pool(pools.shared))).json());
    expect(detail).toMatchObject({ pool: { name: 'FOR 2025-3 Mixed' }, totalCount: 1 });
    expect(detail.loans.map((loan) => loan.loanId)).toEqual([world.loans.grace]);
  });

  it('answers 404 alike for a pool of another organization and for a missing one', async () => {
    const hidden = await get(PATHS.pool(pools.hidden));
    const missing = await get(PATHS.pool('00000000-0000-4000-8000-000000000000'));
    expect(hidden.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(hidden.json()).toEqual(missing.json());
    expect(hidden.json().message).toBe(POOL_NOT_FOUND);
  });

  it('answers 400 for a malformed id or page, 401 without a session', async () => {
    const malformed = await get(PATHS.pool('not-a-pool'));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('params.poolId');
    const badLimit = await get(`${PATHS.pool(pools.owned)}?limit=7`);
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().message).toContain('querystring.limit');
    expect((await get(PATHS.pool(pools.owned), { cookie: null })).statusCode).toBe(401);
  });
});

describe('GET figure v2 /loans (pool assets CSV)', () => {
  const csvUrl = (query: Record<string, string>) => `${PATHS.poolAssetsCsv}?${new URLSearchParams(query)}`;

  it('gives the assets of a pool as a CSV attachment', async () => {
    const response = await get(csvUrl({ poolDenomination: pools.owned }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="pool-assets-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(parseCsv(response.body)[0]).toEqual([...LOAN_CSV_HEADERS]);
    const ids = csvRecords(response.body)
      .map((record) => record['Loan ID'])
      .sort();
    expect(ids).toEqual([world.loans.ada, world.loans.grace, ...world.filler.slice(0, 12)].sort());
  });

  it('leaves out the loans of a shared pool, and the listed ids, that the organization may not see', async () => {
    const shared = csvRecords((await get(csvUrl({ poolDenomination: pools.shared }))).body);
    expect(shared.map((record) => record['Loan ID'])).toEqual([world.loans.grace]);
    const listed = csvRecords((await get(csvUrl({ loanIds: [world.loans.ada, world.loans.foreignOnly].join(',') }))).body);
    expect(listed.map((record) => record['Loan ID'])).toEqual([world.loans.ada]);
  });

  it('answers 404 for a pool it may not see, 400 without a selection or with a malformed one, 401 without a session', async () => {
    const hidden = await get(csvUrl({ poolDenomination: pools.hidden }));
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe(POOL_NOT_FOUND);
    const none = await get(PATHS.poolAssetsCsv);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/loanIds or poolDenomination/);
    const malformed = await get(csvUrl({ poolDenomination: 'pool-1' }));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('querystring.poolDenomination');
    expect((await get(csvUrl({ poolDenomination: pools.owned }), { cookie: null })).statusCode).toBe(401);
    expect((await get(csvUrl({ poolDenomination: pools.owned }), { participantId: world.foreign })).statusCode).toBe(403);
  });
});
