import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { NUL_CHARACTER_MESSAGE } from '../../src/contract/common';
import { PATHS } from '../../src/contract/paths';
import { TEXTS } from '../../src/domain/texts';
import { LOAN_CSV_HEADERS, neutralizeCell, UTF8_BOM } from '../../src/server/csv/loan-csv';
import { CSV_DOWNLOADS_BUSY, CSV_RETRY_AFTER_SECONDS, TOO_MANY_CSV_DOWNLOADS } from '../../src/server/csv/stream-slots';
import { connectDatabase } from '../../src/server/db/database';
import { prefersCsv } from '../../src/server/routes/loans';
import { csvRecords, parseCsv } from './support/csv-parse';
import { createLoanListWorld, type LoanListWorld } from './support/loan-list-world';
import { insertUser } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
let world: LoanListWorld;

beforeAll(async () => {
  world = await createLoanListWorld(server.db, server.app);
});

const CSV = { accept: 'text/csv' };

function csvGet(query: Record<string, string> = {}, options: { accept?: string; cookie?: string | null; participantId?: string } = {}) {
  const params = new URLSearchParams(query);
  return server
    .caller(options.cookie === null ? undefined : (options.cookie ?? world.cookies.member), options.participantId ?? world.home)
    .get(`${PATHS.loans}${params.size ? `?${params}` : ''}`, { headers: { accept: options.accept ?? CSV.accept } });
}

async function csvOf(query: Record<string, string> = {}) {
  const response = await csvGet(query);
  expect(response.statusCode, response.body).toBe(200);
  return csvRecords(response.body);
}

const ids = (records: Record<string, string>[]) => records.map((record) => record['Loan ID']).sort();

describe('GET v2 /loans with Accept: text/csv', () => {
  it('answers a CSV attachment with a header row', async () => {
    const response = await csvGet();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers.vary).toMatch(/\bAccept\b/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="assets-\d{4}-\d{2}-\d{2}\.csv"$/);
    // The byte order mark first, so Excel reads UTF-8 (the demo's non-Latin names stay readable).
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.body.startsWith(`${UTF8_BOM}${LOAN_CSV_HEADERS[0]},`)).toBe(true);
    expect(parseCsv(response.body)[0]).toEqual([...LOAN_CSV_HEADERS]);
  });

  it('holds every matching row, not one page', async () => {
    const records = await csvOf({ limit: '10' });
    expect(records).toHaveLength(world.homeDefault.length);
    expect(ids(records)).toEqual([...world.homeDefault].sort());
  });

  it('writes dates MM-dd-yyyy, labels, the derived status, names and N/A for a HELOC controller', async () => {
    const records = await csvOf({ query: 'lovelace' });
    expect(records).toEqual([
      {
        'Loan ID': world.loans.ada,
        ULI: '5493001KJTIIGC8Y1R12ADALOVELACE0000169',
        'Loan Number': '1000000013',
        Type: 'Mortgage',
        'Trade Date': '03-20-2024',
        'Mortgagee of Record': 'DART',
        Status: 'Active',
        Borrower: 'Ada Lovelace',
        'Property Address': '12 Analytical Way, Unit 4B, Austin, TX 78701',
        Owner: 'Home Bank',
        Servicer: 'Zeta Servicing',
        Controller: 'Foreign Credit',
        'Sub-Servicer': '',
        'Secured Party': '',
      },
    ]);
    const [secured] = await csvOf({ query: 'secured party' });
    expect(secured).toMatchObject({ Type: 'Crypto HELOC', Controller: 'N/A', Owner: 'Beta Holdings', 'Secured Party': 'Home Bank' });
    const [inactive] = await csvOf({ query: 'closed account' });
    expect(inactive?.Status).toBe('Deactivated');
    const [pending] = await csvOf({ query: 'pending party' });
    expect(pending?.Status).toBe('Pending Update');
  });

  it('neutralises cells that begin with =, +, -, @, tab or carriage return, and keeps quotes, commas and line breaks intact', async () => {
    const [formula] = await csvOf({ query: 'hyperlink' });
    expect(formula).toMatchObject({
      'Mortgagee of Record': "'@SUM(A1:A2)",
      Borrower: '\'=HYPERLINK("http://x.test","click") O\'Brien, "Jr."',
      'Property Address': "'+1 Plus Street, Line\nBreak, IL 62704",
      Servicer: "'-2+3",
      Controller: "'\tTabbed Trust",
      'Sub-Servicer': "'\rReturn Co",
    });
    // No cell of the file starts with a formula character.
    const response = await csvGet();
    for (const row of parseCsv(response.body)) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('applies the filters and the sort of the list', async () => {
    expect(ids(await csvOf({ participantRoles: 'CONTROLLER,SUB_SERVICER' }))).toEqual([world.loans.pending, world.loans.rejected].sort());
    expect(ids(await csvOf({ oldestDateLastUpdated: '2025-06-01' }))).toEqual([world.loans.ada, world.loans.grace].sort());
    const byUli = (await csvOf({ sortBy: 'uli', sortDirection: 'desc' })).map((record) => record.ULI);
    expect(byUli).toEqual([...byUli].sort().reverse());
  });

  it('gives the listed ids the organization may see, ORIGINATOR included, and silently leaves out the others', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const loanIds = [world.loans.ada, world.loans.originated, world.loans.foreignOnly, unknown].join(',');
    expect(ids(await csvOf({ loanIds }))).toEqual([world.loans.ada, world.loans.originated].sort());
    // Only foreign ids: a header and no rows, never an error.
    const response = await csvGet({ loanIds: world.loans.foreignOnly });
    expect(response.statusCode).toBe(200);
    expect(parseCsv(response.body)).toEqual([[...LOAN_CSV_HEADERS]]);
  });

  it('answers JSON to a client that prefers JSON or names no type', async () => {
    for (const accept of ['application/json', '*/*', 'application/json, text/csv;q=0.5']) {
      const response = await csvGet({}, { accept });
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      // Chosen by Accept: a cache must keep the JSON and the CSV apart.
      expect(response.headers.vary).toMatch(/\bAccept\b/);
    }
  });

  it('refuses without a session (401), for a foreign organization (403) and for a bad query (400 naming the field)', async () => {
    expect((await csvGet({}, { cookie: null })).statusCode).toBe(401);
    const foreign = await csvGet({}, { participantId: world.foreign });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(TEXTS.invalidParticipantBody);
    const badIds = await csvGet({ loanIds: 'not-a-uuid' });
    expect(badIds.statusCode).toBe(400);
    expect(badIds.json().message).toContain('querystring.loanIds');
    const badRoles = await csvGet({ participantRoles: 'BORROWER' });
    expect(badRoles.statusCode).toBe(400);
    expect(badRoles.json().message).toContain('querystring.participantRoles');
    // Refused before the download starts: a NUL once failed in the server.database after a 200 and cut the file off.
    const nul = await csvGet({ query: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    expect(nul.headers['content-disposition']).toBeUndefined();
    expect(nul.json().message).toBe(`querystring.query: ${NUL_CHARACTER_MESSAGE}`);
  });
});

describe('CSV rules', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('neutralises %j as %j', (cell, expected) => {
    expect(neutralizeCell(cell)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['text/csv', true],
    ['text/csv, application/json', true],
    ['application/json, text/csv', false],
    ['application/json;q=0.5, text/csv', true],
    ['text/csv;q=0', false],
    ['*/*', false],
  ])('Accept %j prefers CSV: %j', (accept, expected) => {
    expect(prefersCsv(accept)).toBe(expected);
  });
});

describe('CSV downloads that hold the database', () => {
  it("stream at most 2 per identity (429) and 4 per server (503); the server's other calls go on", async () => {
    const extra = ['csv-two@registry.test', 'csv-three@registry.test'];
    for (const email of extra) await insertUser(server.db, { email, memberships: [{ participantId: world.home, isDefault: true }] });
    const [second, third] = await Promise.all(extra.map((email) => server.signIn(email, { participantId: world.home })));
    // A server whose main pool has two connections only: the four streams wait on connections of
    // the server's CSV pool, so the main pool stays free for every other call. And two connections
    // of the test's own.
    const handle = connectDatabase(server.database.url, 2);
    const busyServer = await server.otherApp({ db: handle.db });
    const blocker = new pg.Client({ connectionString: server.database.ownerUrl });
    // The server's role, which may see its own sessions' waits.
    const observer = new pg.Client({ connectionString: server.database.url });
    await Promise.all([blocker.connect(), observer.connect()]);
    const waiting = async () =>
      (await observer.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'")).rows[0]?.n;
    // Sessions are rows of the database, so the sessions signed in on the test's app hold here too.
    const on = (caller: Caller | undefined) => busyServer.caller(caller?.cookie, world.home);
    const get = (caller: Caller | undefined) => on(caller).get(PATHS.loans, { headers: { accept: CSV.accept } });
    let held: Promise<{ statusCode: number }>[];
    try {
      // Every CSV statement waits behind this lock, holding its connection and its slot, as an unread download does.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE loan_list_entries IN ACCESS EXCLUSIVE MODE');
      held = [get(world.callers.member), get(world.callers.member), get(second), get(second)];
      await expect.poll(waiting, { timeout: 5000 }).toBe(4);

      const mine = await get(world.callers.member);
      expect(mine.statusCode).toBe(429);
      expect(mine.json().message).toBe(TOO_MANY_CSV_DOWNLOADS);
      const busy = await get(third);
      expect(busy.statusCode).toBe(503);
      expect(busy.json().message).toBe(CSV_DOWNLOADS_BUSY);
      expect(busy.headers['retry-after']).toBe(String(CSV_RETRY_AFTER_SECONDS));
      // The main pool still has its connections for everything else.
      const others = await Promise.all([
        on(third).get(PATHS.usersMe),
        on(third).get(`${PATHS.messages}?limit=10`),
        on(second).get(PATHS.usersMe),
      ]);
      expect(others.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    } finally {
      await blocker.query('COMMIT');
      await Promise.all([blocker.end(), observer.end()]);
    }
    try {
      expect((await Promise.all(held)).map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
      // Their slots came back.
      expect((await get(world.callers.member)).statusCode).toBe(200);
      expect((await get(third)).statusCode).toBe(200);
    } finally {
      await busyServer.close();
      await handle.close();
    }
  });

  it('answers an error status when the statement fails before the first row, not a 200 cut short', async () => {
    const blocker = new pg.Client({ connectionString: server.database.ownerUrl });
    const observer = new pg.Client({ connectionString: server.database.url });
    await Promise.all([blocker.connect(), observer.connect()]);
    try {
      // The CSV statement waits behind the lock; then it is canceled, as statement_timeout or an operator would.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE loan_list_entries IN ACCESS EXCLUSIVE MODE');
      const pending = csvGet();
      const canceled = async () =>
        (
          await observer.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM (SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND usename = current_user) c",
          )
        ).rows[0]?.n;
      await expect.poll(canceled, { timeout: 5000 }).toBe(1);
      const response = await pending;
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.json().message).not.toMatch(/cancel|statement|SQL/i);
    } finally {
      await blocker.query('COMMIT');
      await Promise.all([blocker.end(), observer.end()]);
    }
    // The connection and the slot came back: the next download is whole.
    expect((await csvGet()).statusCode).toBe(200);
  });
});
