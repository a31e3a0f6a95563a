import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LOAN_SORT_COLUMNS,
  loanDetailsSchema,
  loanListSchema,
  type LoanList,
  type LoanListItem,
  type LoanSortColumn,
  type RoleEntry,
} from '../../src/contract/loans';
import { WHOLE_NUMBER_MESSAGE } from '../../src/contract/common';
import { PATHS } from '../../src/contract/paths';
import { DEFAULT_ROLE_FILTER, deriveAssetStatus, loanTypeLabel } from '../../src/domain/loan';
import { TEXTS } from '../../src/domain/texts';
import { refreshLoanListIndex } from '../../src/server/db/loan-list-index';
import { loanListSql, NARROWING_CANDIDATES } from '../../src/server/db/loan-list-query';
import { poolOf } from '../../src/server/db/pg-pool';
import { writeTransaction } from '../../src/server/db/write-transaction';
import { loanListEntries, loanListItems, loanListSearch } from '../../src/server/db/schema';
import { createLoanListWorld, type LoanListWorld } from './support/loan-list-world';
import { insertLoan } from './support/loan-rows';
import { TEST_CONFIG } from './support/server-fixtures';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
let world: LoanListWorld;

beforeAll(async () => {
  world = await createLoanListWorld(server.db, server.app);
});

const listUrl = (query: Record<string, string | number> = {}) => {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  return `${PATHS.loans}${params.size ? `?${params}` : ''}`;
};

async function list(query: Record<string, string | number> = {}, participantId?: string): Promise<LoanList> {
  const response = await world.callers.member.as(participantId ?? world.home).get(listUrl(query));
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return loanListSchema.parse(response.json());
}

const idsOf = (page: LoanList) => page.loans.map((loan) => loan.loanId);
/** Long enough for a NOTIFY to arrive (milliseconds), short of the page cache's time limit (a minute). */
const soon = { timeout: 2000, interval: 5 };
const sorted = (ids: readonly string[]) => [...ids].sort();

describe('GET v2 /loans: what the organization sees', () => {
  it('gives the loans on which the organization holds one of the default five roles, with the exact count', async () => {
    const page = await list({ limit: 100 });
    expect(page.totalCount).toBe(world.homeDefault.length);
    expect(sorted(idsOf(page))).toEqual(sorted(world.homeDefault));
    expect(idsOf(page)).not.toContain(world.loans.foreignOnly);
    // ORIGINATOR is not among the default roles.
    expect(idsOf(page)).not.toContain(world.loans.originated);
  });

  it("gives each item SPEC's list fields, a participant party as { participantName, provenanceId } and a plain name as text", async () => {
    const page = await list({ limit: 100 });
    const ada = page.loans.find((loan) => loan.loanId === world.loans.ada);
    expect(ada).toEqual({
      loanId: world.loans.ada,
      uli: '5493001KJTIIGC8Y1R12ADALOVELACE0000169',
      loanType: 'FIRST_LIEN_MORTGAGE',
      tradeDate: '2024-03-20',
      mortgageeOfRecord: 'DART',
      status: 'Active',
      owner: { state: 'CONFIRMED', currentValue: { participantName: 'Home Bank', provenanceId: 'pb1home' } },
      servicer: { state: 'CONFIRMED', currentValue: 'Zeta Servicing' },
      controller: { state: 'CONFIRMED', currentValue: { participantName: 'Foreign Credit', provenanceId: 'pb1foreign' } },
      subServicer: null,
      securedParty: null,
      heldRoles: ['OWNER', 'ORIGINATOR'],
      deactivationPending: false,
    });
  });

  // PostgreSQL writes the page's JSON and the route sends it unserialized: the text must be
  // exactly what the contract writes (no extra key, none missing, the same order and types).
  it.each<Record<string, string | number>>([
    { limit: 100 },
    { limit: 100, participantRoles: 'ORIGINATOR,OWNER,SERVICER,CONTROLLER,SUB_SERVICER,SECURED_PARTY', sortBy: 'controller' },
    { limit: 10, query: 'filler', sortBy: 'uli', sortDirection: 'desc' },
    { limit: 10, offset: 100_000 },
    { limit: 10, offset: 100_000, query: 'filler' },
  ])('answers text that is already what the contract writes (%j)', async (query) => {
    const response = await world.callers.member.as(world.home).get(listUrl(query));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe(JSON.stringify(loanListSchema.parse(JSON.parse(response.body))));
  });

  it('filters by each role, ORIGINATOR included, and by several at once', async () => {
    const byRole = async (roles: string) => sorted(idsOf(await list({ limit: 100, participantRoles: roles })));
    const { loans, filler } = world;
    expect(await byRole('OWNER')).toEqual(sorted([loans.ada, loans.inactive, loans.formula, ...filler.filter((_, i) => i % 2 === 0)]));
    expect(await byRole('SERVICER')).toEqual(sorted([loans.grace, loans.inactive, ...filler.filter((_, i) => i % 2 === 1)]));
    expect(await byRole('CONTROLLER')).toEqual(sorted([loans.pending]));
    expect(await byRole('SUB_SERVICER')).toEqual(sorted([loans.rejected]));
    expect(await byRole('SECURED_PARTY')).toEqual(sorted([loans.secured]));
    expect(await byRole('ORIGINATOR')).toEqual(sorted([loans.ada, loans.originated]));
    expect(await byRole('CONTROLLER,SUB_SERVICER')).toEqual(sorted([loans.pending, loans.rejected]));
    const all = await list({ limit: 100, participantRoles: 'OWNER,SERVICER,CONTROLLER,SUB_SERVICER,SECURED_PARTY,ORIGINATOR' });
    expect(all.totalCount).toBe(world.homeDefault.length + 1);
  });

  it("acts for the organization named by x-participant-id: another of the caller's organizations sees its own loans", async () => {
    const page = await list({}, world.second);
    expect(page).toEqual({ loans: [], totalCount: 0 });
  });

  it("shows the list as the other organization sees it, without the first one's loans", async () => {
    const response = await world.callers.other.as(world.foreign).get(listUrl({ limit: 100, participantRoles: 'OWNER' }));
    const page = loanListSchema.parse(response.json());
    expect(sorted(idsOf(page))).toEqual(sorted([world.loans.grace, world.loans.originated, world.loans.foreignOnly]));
  });
});

describe('GET v2 /loans: paging', () => {
  it('defaults to the first 10, most recently updated first', async () => {
    const page = await list();
    expect(page.loans).toHaveLength(10);
    expect(page.totalCount).toBe(world.homeDefault.length);
    expect(page.loans[0]?.loanId).toBe(world.loans.ada);
  });

  it.each([10, 20, 50, 100])('accepts limit %i', async (limit) => {
    const page = await list({ limit });
    expect(page.loans).toHaveLength(Math.min(limit, world.homeDefault.length));
  });

  it('pages through the whole set without gaps or repeats, in every order, from either end', async () => {
    const total = world.homeDefault.length;
    for (const sortBy of [undefined, ...LOAN_SORT_COLUMNS]) {
      for (const sortDirection of ['asc', 'desc']) {
        const order: Record<string, string> = sortBy ? { sortBy, sortDirection } : {};
        const whole = idsOf(await list({ limit: 100, ...order }));
        const pages: string[] = [];
        for (let offset = 0; offset < total; offset += 10) {
          const page = await list({ limit: 10, offset, ...order });
          expect(page.totalCount).toBe(total);
          pages.push(...idsOf(page));
        }
        expect(pages, `${sortBy} ${sortDirection}`).toEqual(whole);
      }
    }
  });

  it('answers an empty page with the count past the end', async () => {
    expect(await list({ offset: 500 })).toEqual({ loans: [], totalCount: world.homeDefault.length });
    expect(await list({ offset: 500, query: 'lovelace' })).toEqual({ loans: [], totalCount: 1 });
  });
});

/** The value each sort column orders by, as the server defines it (null: no value, last ascending). */
function sortKey(loan: LoanListItem, column: LoanSortColumn): string | number | null {
  const party = (entry: RoleEntry | null) => {
    const value = entry?.currentValue;
    return value === null || value === undefined ? null : typeof value === 'string' ? value : value.participantName;
  };
  const statusOrder = ['Deactivated', 'Pending Update', 'Rejected Update', 'Active'];
  switch (column) {
    case 'uli':
      return loan.uli;
    case 'loanType':
      return loanTypeLabel(loan.loanType);
    case 'tradeDate':
      return loan.tradeDate;
    case 'mortgageeOfRecord':
      return loan.mortgageeOfRecord;
    case 'status': {
      const label = deriveAssetStatus(
        loan.status,
        [loan.owner, loan.servicer, loan.controller, loan.subServicer, loan.securedParty].map((e) => e?.state),
      );
      return label ? statusOrder.indexOf(label) : statusOrder.length;
    }
    default:
      return party(loan[column]);
  }
}

const compareKeys = (a: string | number | null, b: string | number | null): number => {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
};

describe('GET v2 /loans: sorting over the whole filtered set', () => {
  it.each(LOAN_SORT_COLUMNS)(
    'sorts by %s ascending with the loan id breaking ties, and descending as its exact reverse',
    async (column) => {
      const ascending = (await list({ limit: 100, sortBy: column, sortDirection: 'asc' })).loans;
      const expected = [...ascending].sort((a, b) => compareKeys(sortKey(a, column), sortKey(b, column)) || (a.loanId < b.loanId ? -1 : 1));
      expect(idsOf({ loans: ascending, totalCount: 0 })).toEqual(idsOf({ loans: expected, totalCount: 0 }));
      // Ties exist in the fixture (ULIs are unique), so the tie-breaker is exercised.
      const keys = ascending.map((loan) => sortKey(loan, column));
      if (column !== 'uli') expect(new Set(keys).size).toBeLessThan(keys.length);
      const descending = await list({ limit: 100, sortBy: column, sortDirection: 'desc' });
      expect(idsOf(descending)).toEqual(idsOf({ loans: ascending, totalCount: 0 }).reverse());
    },
  );

  it('sorts before paging: the first page of a sort is the start of the whole sorted set', async () => {
    const whole = idsOf(await list({ limit: 100, sortBy: 'owner', sortDirection: 'desc' }));
    expect(idsOf(await list({ limit: 10, sortBy: 'owner', sortDirection: 'desc' }))).toEqual(whole.slice(0, 10));
  });
});

describe('GET v2 /loans: search', () => {
  it.each([
    ['a ULI fragment', 'adalovelace'],
    ['the loan number', '1000000013'],
    ['the first name', 'ada'],
    ['the last name', 'LOVELACE'],
    ['the full name', 'Ada Lovelace'],
    ['the street', 'analytical way'],
    ['the unit', 'unit 4b'],
    ['the city and state', 'Austin, TX'],
    ['the zip', '78701'],
  ])('finds a loan by %s, ignoring case', async (_field, query) => {
    const page = await list({ query });
    expect(idsOf(page)).toEqual([world.loans.ada]);
    expect(page.totalCount).toBe(1);
  });

  it('counts every match, not only the page', async () => {
    const page = await list({ query: 'filler number1', limit: 10 });
    // Number1 and Number10 to Number15.
    expect(page.totalCount).toBe(7);
    expect(page.loans).toHaveLength(7);
  });

  it('lists a loan once when its address and its borrower both match, and across fields only with a line break', async () => {
    const db = server.db;
    const both = await insertLoan(db, {
      borrowerLastName: 'Quillfeather',
      propertyStreet1: '9 Quillfeather Lane',
      parties: [{ role: 'OWNER', participantId: world.home }],
    });
    try {
      expect(await list({ query: 'quillfeather' })).toMatchObject({ totalCount: 1, loans: [{ loanId: both.id }] });
      expect(await list({ query: 'quillfeather', sortBy: 'uli', limit: 100 })).toMatchObject({ totalCount: 1 });
      // Fields are joined by line breaks: only a query holding one spans two of them.
      expect(await list({ query: 'Quillfeather\n9 Quill' })).toMatchObject({ totalCount: 1, loans: [{ loanId: both.id }] });
      expect(await list({ query: 'Quillfeather 9 Quill' })).toEqual({ loans: [], totalCount: 0 });
      // The index narrows by each piece of three characters or more, wherever its field is; a
      // shorter piece is matched in the whole text only.
      expect(await list({ query: 'r\n9 Quillfeather' })).toMatchObject({ totalCount: 1, loans: [{ loanId: both.id }] });
      expect(await list({ query: 'Quillfeather\n9' })).toMatchObject({ totalCount: 1, loans: [{ loanId: both.id }] });
      expect(await list({ query: 'Quillfeather\n8' })).toEqual({ loans: [], totalCount: 0 });
      expect(await list({ query: 'Quillfeather\nQuillfeather Lane' })).toEqual({ loans: [], totalCount: 0 });
      // Past NARROWING_CANDIDATES loans for the longest piece the other pieces narrow too: the same pages.
      // A long piece with digits is looked for by its window first ('9 Quillf'), then whole past the gate.
      expect(await list({ query: 'Quillfeather\n9 Quillfeather Lane' })).toMatchObject({ totalCount: 1, loans: [{ loanId: both.id }] });
      for (const query of [
        'Quillfeather\n9 Quill',
        'feather\n9 Quillfeather Lane',
        'Quillfeather\n8 Quill',
        'Quillfeather\n9 Quillfeather Lane',
        'Quillfeather\n9 Quillfeather Lam',
      ]) {
        const { text, values } = loanListSql(
          { participantId: world.home, roles: [...DEFAULT_ROLE_FILTER], query },
          { limit: 10, offset: 0 },
        );
        expect(values, query).toContain(NARROWING_CANDIDATES);
        for (const gate of [0, NARROWING_CANDIDATES]) {
          const forced = values.map((value) => (value === NARROWING_CANDIDATES ? gate : value));
          const { rows } = await poolOf(db).query<{ loans: string; total: number | null }>(text, forced);
          const page = await list({ query });
          expect({ loans: JSON.parse(rows[0]?.loans ?? '[]'), totalCount: rows[0]?.total ?? 0 }, `${query}, gate ${gate}`).toEqual(page);
        }
      }
    } finally {
      await db.execute(`DELETE FROM loans WHERE id = '${both.id}'` as never);
    }
  });

  it('filters from three characters in a row: one or two, or no more between line breaks, list as without a search', async () => {
    const whole = await list({ limit: 100 });
    expect(whole.totalCount).toBeGreaterThan(3);
    for (const query of ['a', 'Ad', ' ad ', 'ad\nlo', '%_']) expect(await list({ query, limit: 100 }), query).toEqual(whole);
    const three = await list({ query: 'Ada', limit: 100 });
    expect(idsOf(three)).toContain(world.loans.ada);
    expect(three.totalCount).toBeLessThan(whole.totalCount);
  });

  it('takes % and _ literally and matches nothing for text no loan holds', async () => {
    expect(await list({ query: '%%%' })).toEqual({ loans: [], totalCount: 0 });
    expect(await list({ query: 'Ada_Lovelace' })).toEqual({ loans: [], totalCount: 0 });
  });

  it('never finds a loan of another organization', async () => {
    expect(await list({ query: 'Foreigner', participantRoles: 'OWNER,SERVICER,CONTROLLER,SUB_SERVICER,SECURED_PARTY,ORIGINATOR' })).toEqual(
      {
        loans: [],
        totalCount: 0,
      },
    );
  });

  it('combines search, roles and sort', async () => {
    const page = await list({
      query: 'party',
      participantRoles: 'CONTROLLER,SUB_SERVICER,SECURED_PARTY',
      sortBy: 'status',
      sortDirection: 'asc',
    });
    expect(idsOf(page)).toEqual([world.loans.pending, world.loans.rejected, world.loans.secured]);
  });
});

describe('GET v2 /loans: date filter', () => {
  it('keeps loans updated at or after an ISO date', async () => {
    const page = await list({ oldestDateLastUpdated: '2025-06-01', limit: 100 });
    const expected = (await list({ limit: 100 })).loans.filter((loan) => [world.loans.ada, world.loans.grace].includes(loan.loanId));
    expect(sorted(idsOf(page))).toEqual(sorted(idsOf({ loans: expected, totalCount: 0 })));
    expect(page.totalCount).toBe(2);
  });

  it('counts exactly wherever the instant falls in a day, in any time zone', async () => {
    for (const since of [
      '2024-05-05',
      '2024-05-05T12:00:00Z',
      '2024-05-05T12:00:01Z',
      '2025-01-01T06:59:59-05:00',
      '2025-03-03T23:00:00+02:00',
      '2030-01-01',
    ]) {
      const page = await list({ oldestDateLastUpdated: since, limit: 100 });
      expect(page.totalCount, since).toBe(page.loans.length);
      for (const role of ['OWNER', 'SERVICER,SUB_SERVICER']) {
        const byRole = await list({ oldestDateLastUpdated: since, limit: 100, participantRoles: role });
        expect(byRole.totalCount, `${since} ${role}`).toBe(byRole.loans.length);
      }
    }
    expect((await list({ oldestDateLastUpdated: '2024-05-05T12:00:00Z', limit: 100 })).totalCount).toBeGreaterThan(
      (await list({ oldestDateLastUpdated: '2024-05-05T12:00:01Z', limit: 100 })).totalCount,
    );
  });

  it('reads a date-time with its offset: the same instant written two ways selects the same loans', async () => {
    // Grace was updated at 2025-06-01T12:00:00Z.
    expect(idsOf(await list({ oldestDateLastUpdated: '2025-06-01T08:00:00-04:00', limit: 100 }))).toContain(world.loans.grace);
    expect(idsOf(await list({ oldestDateLastUpdated: '2025-06-01T08:00:01-04:00', limit: 100 }))).not.toContain(world.loans.grace);
    expect(idsOf(await list({ oldestDateLastUpdated: '2025-06-01T12:00:00Z', limit: 100 }))).toContain(world.loans.grace);
  });

  it('combines the date with search and roles', async () => {
    const page = await list({ oldestDateLastUpdated: '2025-01-01', query: 'party', participantRoles: 'CONTROLLER' });
    expect(page).toMatchObject({ totalCount: 1 });
    expect(idsOf(page)).toEqual([world.loans.pending]);
  });
});

describe('GET v2 /loans: the list follows every change to loans, parties and organizations', () => {
  // These writes bypass the server (as another server's or a console's would): the list's page
  // cache hears of them by NOTIFY at commit (migration 0019), within milliseconds, never later.
  it('shows a new role, a transfer away, a renamed organization and a deleted loan, told by the database', async () => {
    const db = server.db;
    const before = await list({ limit: 100 });
    expect(server.app.loanPages.size).toBeGreaterThan(0);
    const fresh = await insertLoan(db, { borrowerLastName: 'Newcomer', parties: [{ role: 'OWNER', participantId: world.home }] });
    await expect.poll(async () => (await list({ limit: 100 })).totalCount, soon).toBe(before.totalCount + 1);
    // Transfer: the owner role moves to the other organization.
    await db.execute(`UPDATE loan_parties SET participant_id = '${world.foreign}' WHERE loan_id = '${fresh.id}'` as never);
    await expect.poll(async () => idsOf(await list({ limit: 100 })), soon).not.toContain(fresh.id);
    await db.execute(`UPDATE participants SET name = 'Home Bank Renamed' WHERE id = '${world.home}'` as never);
    const ownerOfAda = async () => (await list({ limit: 100 })).loans.find((loan) => loan.loanId === world.loans.ada)?.owner?.currentValue;
    await expect.poll(ownerOfAda, soon).toEqual({ participantName: 'Home Bank Renamed', provenanceId: 'pb1home' });
    const byOwner = await list({ limit: 100, sortBy: 'owner', query: 'lovelace' });
    expect(byOwner.loans[0]?.loanId).toBe(world.loans.ada);
    await db.execute(`UPDATE participants SET name = 'Home Bank' WHERE id = '${world.home}'` as never);
    await db.execute(`DELETE FROM loans WHERE id = '${fresh.id}'` as never);
    await expect.poll(async () => (await list({ limit: 100 })).totalCount, soon).toBe(before.totalCount);
  });

  it('names an organization without a provenance id by its id, in the list as in the details', async () => {
    const loan = await insertLoan(server.db, {
      borrowerLastName: 'Unprovenanced',
      parties: [{ role: 'OWNER', participantId: world.home }],
    });
    try {
      const item = (await list({ limit: 100, query: 'unprovenanced' })).loans[0];
      const response = await world.callers.member.as(world.home).get(PATHS.loanDetails(loan.id));
      const owner = loanDetailsSchema.parse(response.json()).parties.find((party) => party.role === 'OWNER');
      expect(item?.owner?.currentValue).toEqual({ participantName: expect.any(String), provenanceId: world.home });
      expect(item?.owner?.currentValue).toEqual(owner?.currentValue);
    } finally {
      await server.db.execute(`DELETE FROM loans WHERE id = '${loan.id}'` as never);
    }
  });

  it('keeps the index equal to a rebuild from scratch', async () => {
    const db = server.db;
    const rows = async (table: typeof loanListEntries | typeof loanListSearch | typeof loanListItems) =>
      (await db.select().from(table)).map((row) => JSON.stringify(row)).sort();
    const snapshot = async () => [...(await rows(loanListEntries)), ...(await rows(loanListSearch)), ...(await rows(loanListItems))];
    const counts = async () =>
      (
        await db.execute<{ participant_id: string; updated_on: string; roles: number; count: string }>(
          'SELECT participant_id, updated_on::text, roles, count FROM loan_list_counts WHERE count <> 0 ORDER BY 1, 2, 3' as never,
        )
      ).rows;
    const totals = async () =>
      (
        await db.execute<{ participant_id: string; roles: number; count: string }>(
          'SELECT participant_id, roles, count FROM loan_list_totals WHERE count <> 0 ORDER BY 1, 2' as never,
        )
      ).rows;
    // Search rows updated in place: new text, sort keys alone, another holder; and one loan no longer held.
    const moved = await insertLoan(db, { borrowerLastName: 'Mover', parties: [{ role: 'OWNER', participantId: world.home }] });
    const dropped = await insertLoan(db, { parties: [{ role: 'SERVICER', participantId: world.home }] });
    await db.execute(`UPDATE loans SET borrower_last_name = 'Moved', property_street1 = '4 Other Road' WHERE id = '${moved.id}'` as never);
    await db.execute(`UPDATE loans SET status = 'Inactive', updated_at = now() + interval '1 day' WHERE id = '${moved.id}'` as never);
    await db.execute(
      `INSERT INTO loan_parties (loan_id, role, state, participant_id) VALUES ('${moved.id}', 'SERVICER', 'CONFIRMED', '${world.foreign}')` as never,
    );
    await db.execute(`UPDATE loan_parties SET state = 'PENDING' WHERE loan_id = '${moved.id}' AND role = 'SERVICER'` as never);
    await db.execute(`DELETE FROM loan_parties WHERE loan_id = '${dropped.id}'` as never);
    try {
      expect(await list({ query: 'moved' })).toMatchObject({
        totalCount: 1,
        loans: [
          { loanId: moved.id, status: 'Inactive', servicer: { state: 'PENDING', currentValue: { participantName: 'Foreign Credit' } } },
        ],
      });
      // A loan nobody holds a role on keeps no list item.
      expect(await db.select().from(loanListItems).where(eq(loanListItems.loanId, dropped.id))).toEqual([]);
      const incremental = await snapshot();
      expect(incremental.length).toBeGreaterThan(world.homeDefault.length);
      const incrementalCounts = await counts();
      const incrementalTotals = await totals();
      // The totals are the day counts summed, kept by the triggers through inserts, updates (a role
      // added, a holder gone) and deletes.
      const summed = new Map<string, number>();
      for (const row of incrementalCounts) {
        const key = `${row.participant_id}:${row.roles}`;
        summed.set(key, (summed.get(key) ?? 0) + Number(row.count));
      }
      expect(new Map(incrementalTotals.map((row) => [`${row.participant_id}:${row.roles}`, Number(row.count)]))).toEqual(summed);
      // A rebuild is the seed's (the owner role's): it empties the index tables.
      await server.database.owner.db.transaction(async (tx) => refreshLoanListIndex(tx));
      expect(await snapshot()).toEqual(incremental);
      expect(await counts()).toEqual(incrementalCounts);
      expect(await totals()).toEqual(incrementalTotals);
    } finally {
      await db.execute(`DELETE FROM loans WHERE id IN ('${moved.id}', '${dropped.id}')` as never);
    }
  });
});

describe('GET v2 /loans: the page cache (plugins/loan-page-cache.ts)', () => {
  /** Counts the list statements the server sends PostgreSQL while `work` runs. */
  async function listQueriesDuring(work: () => Promise<unknown>): Promise<number> {
    const pool = poolOf(server.app.db);
    const query = pool.query.bind(pool);
    let count = 0;
    pool.query = ((config: unknown, ...rest: unknown[]) => {
      if (typeof config === 'object' && config !== null && String((config as { text?: string }).text).includes('loan_list_items')) count++;
      return (query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as typeof pool.query;
    try {
      await work();
    } finally {
      pool.query = query;
    }
    return count;
  }

  it('answers a repeated page without asking the database, byte for byte the same', async () => {
    const get = () => world.callers.member.as(world.home).get(listUrl({ limit: 20 }));
    const first = await get();
    let again = first;
    // Earlier tests' writes may still be announcing themselves (each empties the cache): once they
    // have, the page comes from the cache.
    await expect.poll(() => listQueriesDuring(async () => (again = await get())), soon).toBe(0);
    expect(again.body).toBe(first.body);
    // Another page, filter or sort is another key: the server.database is asked.
    expect(await listQueriesDuring(() => list({ limit: 20, sortBy: 'uli' }))).toBe(1);
  });

  it("never gives one organization's cached page to another, nor to a caller outside it", async () => {
    const home = await list({ limit: 100 });
    expect(idsOf(home)).not.toContain(world.loans.foreignOnly);
    const outsider = await world.callers.other.as(world.home).get(listUrl({ limit: 100 }));
    expect(outsider.statusCode).toBe(403);
    const foreign = loanListSchema.parse((await world.callers.other.as(world.foreign).get(listUrl({ limit: 100 }))).json());
    expect(idsOf(foreign)).toContain(world.loans.foreignOnly);
    expect(foreign.totalCount).not.toBe(home.totalCount);
  });

  it("shows this server's own committed write at once, before any notification", async () => {
    const loan = await insertLoan(server.db, { borrowerLastName: 'Cachedaway', parties: [{ role: 'OWNER', participantId: world.home }] });
    try {
      await expect.poll(async () => idsOf(await list({ limit: 100, query: 'cachedaway' })), soon).toContain(loan.id);
      await writeTransaction(server.db, (tx) =>
        tx.execute(sql`UPDATE loan_parties SET participant_id = ${world.foreign} WHERE loan_id = ${loan.id}`),
      );
      // No wait: the commit emptied the cache before writeTransaction returned.
      expect(idsOf(await list({ limit: 100, query: 'cachedaway' }))).not.toContain(loan.id);
    } finally {
      await server.db.execute(`DELETE FROM loans WHERE id = '${loan.id}'` as never);
    }
  });

  it('keeps nothing when LOAN_PAGE_CACHE_MB is 0', async () => {
    const uncached = await server.otherApp({ app: { config: { ...TEST_CONFIG, loanPageCacheMb: 0 } } });
    const member = uncached.caller(world.cookies.member, world.home);
    const url = listUrl({ limit: 10 });
    await member.get(url);
    const response = await member.get(url);
    expect(response.statusCode).toBe(200);
    expect(uncached.app.loanPages.size).toBe(0);
  });
});

describe('GET v2 /loans: refusals', () => {
  it('answers 401 without a session', async () => {
    const response = await server.anonymous.as(world.home).get(listUrl());
    expect(response.statusCode).toBe(401);
  });

  it('answers 403 Invalid participant for an organization the caller does not belong to', async () => {
    const response = await world.callers.member.as(world.foreign).get(listUrl());
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(TEXTS.invalidParticipantBody);
  });

  it.each([
    ['limit', { limit: 15 }],
    ['limit', { limit: 'ten' }],
    ['offset', { offset: -1 }],
    ['offset', { offset: 1.5 }],
    ['participantRoles', { participantRoles: 'OWNER,BORROWER' }],
    ['participantRoles', { participantRoles: '' }],
    ['oldestDateLastUpdated', { oldestDateLastUpdated: 'yesterday' }],
    // ISO's year 0000 (1 BC) passes zod's ISO checks; PostgreSQL has no year 0 and failed the statement (500).
    ['oldestDateLastUpdated', { oldestDateLastUpdated: '0000-01-01' }],
    ['oldestDateLastUpdated', { oldestDateLastUpdated: '0000-06-01T00:00:00Z' }],
    ['sortBy', { sortBy: 'borrower' }],
    ['sortDirection', { sortDirection: 'up' }],
    ['query', { query: 'x'.repeat(201) }],
    // PostgreSQL's text cannot hold U+0000: refused by the contract, never a 500 from the server.database.
    ['query', { query: 'a\u0000b' }],
  ])('answers 400 naming %s for a bad value', async (field, query) => {
    const response = await world.callers.member.as(world.home).get(listUrl(query as Record<string, string | number>));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(`querystring.${field}`);
  });

  // A number's other spellings (exponent, hex, padding, empty) were once read as numbers.
  it.each([
    ['limit', '1e1'],
    ['limit', '0x14'],
    ['limit', ' 10'],
    ['offset', ''],
    ['offset', '+5'],
  ])('answers 400 for %s=%j: digits only', async (field, value) => {
    const response = await world.callers.member.as(world.home).get(listUrl({ [field]: value }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(`querystring.${field}: ${WHOLE_NUMBER_MESSAGE}`);
  });

  it('answers 400 saying so for a parameter given twice', async () => {
    const response = await world.callers.member.as(world.home).get(`${listUrl({ limit: 10 })}&limit=20`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('querystring.limit: give this parameter once');
  });
});
