// Reconciliation against a loan tape: POST v4 /reconciliations (hostile tapes refused or read),
// the job run in-process by server.app.jobs.runPending, the report paged and as CSV, and what the
// report never shows (another organization's loans, a change to the registry).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import {
  differencesPageSchema,
  MAX_UNFINISHED_RECONCILIATIONS,
  reconciliationListSchema,
  reconciliationSchema,
  TAPE_FILE_FIELD,
  type Difference,
  type Reconciliation,
} from '../../src/contract/reconciliation';
import { RECONCILIATION_CSV_HEADERS, RECONCILIATION_TEXTS, TAPE_MAX_BYTES } from '../../src/domain/reconciliation';
import { JOB_QUEUES } from '../../src/server/jobs/job-queues';
import { rechunk } from '../../src/server/services/reconciliations';
import { RECONCILIATION_NOT_DONE, RECONCILIATION_NOT_FOUND, TOO_MANY_RECONCILIATIONS } from '../../src/server/routes/reconciliations';
import { parseCsv } from './support/csv-parse';
import { insertLoan } from './support/loan-rows';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
const org = {} as Record<'home' | 'other' | 'servicer' | 'newServicer', string>;
type TestLoan = { id: string; uli: string; loanNumber: string };
const loans = {} as Record<'matching' | 'differs' | 'missing' | 'byId' | 'foreign', TestLoan>;
let asMember: Caller;
let asColleague: Caller;

function multipart(content: Buffer | string, fileName = 'tape.csv', field = TAPE_FILE_FIELD) {
  const boundary = `----registry${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(content: Buffer | string, fileName?: string, caller: Caller = asMember) {
  const body = multipart(content, fileName);
  return caller.post(PATHS.reconciliations, body.payload, { headers: body.headers });
}

async function list(caller: Caller = asMember): Promise<Reconciliation[]> {
  const response = await caller.get(PATHS.reconciliations);
  expect(response.statusCode, response.body).toBe(200);
  return reconciliationListSchema.parse(response.json());
}

/** Uploads, runs the job, answers the finished reconciliation. */
async function reconcile(content: string | Buffer, caller: Caller = asMember): Promise<Reconciliation> {
  const response = await upload(content, 'tape.csv', caller);
  expect(response.statusCode, response.body).toBe(202);
  const started = reconciliationSchema.parse(response.json());
  expect(started.status).toBe('PENDING');
  await server.app.jobs.runPending(JOB_QUEUES.reconcileTape);
  const done = (await list(caller)).find((job) => job.jobId === started.jobId);
  expect(done?.status, done?.error ?? '').toBe('DONE');
  return done as Reconciliation;
}

async function differences(jobId: string, query = '', caller: Caller = asMember): Promise<Difference[]> {
  const response = await caller.get(`${PATHS.reconciliationDifferences(jobId)}?limit=100${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return differencesPageSchema.parse(response.json()).differences;
}

const tape = (...lines: string[]) => lines.join('\r\n') + '\r\n';

beforeAll(async () => {
  const db = server.db;
  org.home = (await insertParticipant(db, { name: 'Home Bank' })).id;
  org.other = (await insertParticipant(db, { name: 'Other Trust' })).id;
  org.servicer = (await insertParticipant(db, { name: 'Steady Servicing' })).id;
  org.newServicer = (await insertParticipant(db, { name: 'New Servicing' })).id;
  await insertUser(db, {
    email: 'member@registry.test',
    memberships: [{ participantId: org.home, isDefault: true }, { participantId: org.other }],
  });
  await insertUser(db, { email: 'colleague@registry.test', memberships: [{ participantId: org.home, isDefault: true }] });
  asMember = server.caller((await server.signIn('member@registry.test')).cookie, org.home);
  asColleague = server.caller((await server.signIn('colleague@registry.test')).cookie, org.home);

  const held = (servicer: string) => ({
    parties: [
      { role: 'OWNER', participantId: org.home },
      { role: 'SERVICER', participantId: servicer },
    ],
  });
  for (const name of ['matching', 'differs', 'missing', 'byId'] as const) {
    const loan = await insertLoan(db, held(org.servicer));
    loans[name] = { id: loan.id, uli: loan.uli, loanNumber: loan.loanNumber };
  }
  const foreign = await insertLoan(db, { parties: [{ role: 'OWNER', participantId: org.other }] });
  loans.foreign = { id: foreign.id, uli: foreign.uli, loanNumber: foreign.loanNumber };
});

describe('POST v4 /reconciliations refuses what is not a loan tape, and stores nothing', () => {
  const countJobs = async () =>
    (await server.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM jobs WHERE type = 'RECONCILIATION'`)).rows[0]?.n;

  it.each([
    ['a PDF', '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n\u0000\u0000', 'tape.csv', 415, RECONCILIATION_TEXTS.notCsv],
    ['a spreadsheet by its name', 'ULI,Servicer\n', 'tape.xlsx', 415, RECONCILIATION_TEXTS.notCsv],
    ['no loan key in its header', 'Borrower,Servicer\nAda,Steady\n', 'tape.csv', 400, RECONCILIATION_TEXTS.noLoanKey],
    ['semicolons for commas', 'ULI;Servicer\nX;Y\n', 'tape.csv', 400, RECONCILIATION_TEXTS.wrongDelimiter],
    ['nothing in it', '', 'tape.csv', 400, RECONCILIATION_TEXTS.empty],
  ])('%s', async (_case, content, fileName, status, message) => {
    const before = await countJobs();
    const response = await upload(content, fileName);
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toContain(message);
    expect(await countJobs()).toBe(before);
  });

  it('invalid UTF-8 bytes are not a CSV file', async () => {
    const response = await upload(Buffer.from([0x55, 0x4c, 0x49, 0x0a, 0xff, 0xfe, 0xc3, 0x28, 0x0a]));
    expect(response.statusCode).toBe(415);
  });

  it('a tape of 50 MB and 1 byte is refused with 413, and nothing is kept; 50 MB exactly is taken', async () => {
    const before = await countJobs();
    const header = `ULI,Status\n`;
    const filler = (size: number) => {
      const content = Buffer.alloc(size, 'A'.charCodeAt(0));
      content.write(header, 0, 'utf8');
      // Lines of 'AAAA...' : unreadable rows, not a loan: the size is what counts here.
      for (let at = header.length + 1000; at < size; at += 1000) content[at] = 0x0a;
      return content;
    };
    const tooLarge = await upload(filler(TAPE_MAX_BYTES + 1));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toContain(RECONCILIATION_TEXTS.tooLarge);
    expect(await countJobs()).toBe(before);
    const chunks = await server.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM reconciliation_tape_chunks`);
    expect(chunks.rows[0]?.n).toBe(0);

    const exact = await upload(filler(TAPE_MAX_BYTES));
    expect(exact.statusCode, exact.body).toBe(202);
    const job = reconciliationSchema.parse(exact.json());
    expect(job.total).toBe(TAPE_MAX_BYTES);
    // Not run here: it would take the test's time for nothing; the colleague's turn is not taken.
    await server.db.execute(sql`DELETE FROM jobs WHERE id = ${job.jobId}`);
  }, 60_000);

  it('answers 415 to a body that is not multipart and 400 without the tape field', async () => {
    const json = await asMember.post(PATHS.reconciliations, '{}', { headers: { 'content-type': 'application/json' } });
    expect(json.statusCode).toBe(415);
    const body = multipart('ULI\nX\n', 'tape.csv', 'file');
    const wrongField = await asMember.post(PATHS.reconciliations, body.payload, { headers: body.headers });
    expect(wrongField.statusCode).toBe(400);
  });

  it('refuses the anonymous caller and a participant the caller is not a member of', async () => {
    const body = multipart('ULI\nX\n');
    expect((await server.anonymous.post(PATHS.reconciliations, body.payload, { headers: body.headers })).statusCode).toBe(401);
    const stranger = await asMember.as(org.servicer).post(PATHS.reconciliations, body.payload, { headers: body.headers });
    expect(stranger.statusCode).toBe(403);
  });
});

describe('the report', () => {
  let result: Reconciliation;
  let report: Difference[];

  beforeAll(async () => {
    // A hostile tape: a BOM, quoted cells with commas, quotes and a line break, a formula, a row
    // cut short, a row without a key, a key twice, a stray quote, and another organization's loan.
    result = await reconcile(
      '\uFEFF' +
        tape(
          'Loan ULI,Loan Number,Servicer,Status,Owner',
          `${loans.matching.uli},${loans.matching.loanNumber},Steady Servicing,active,"Home Bank"`,
          `${loans.differs.uli},${loans.differs.loanNumber},"=HYPERLINK(""http://evil.test"",""x"")",Active,Home Bank`,
          `${loans.byId.uli.toLowerCase()},"${loans.byId.loanNumber}",${org.servicer},Active,"Home\nBank"`,
          `${loans.foreign.uli},${loans.foreign.loanNumber},Steady Servicing,Active,Other Trust`,
          `US0000000000000000000000,LN-NONE,Steady Servicing,Active,Home Bank`,
          `${loans.matching.uli},${loans.matching.loanNumber},Steady Servicing,Active,Home Bank`,
          `,LN-X,Steady Servicing,Active,Home Bank`,
          `${loans.missing.uli},cut short`,
          `BAD"ULI,LN,"Steady, Servicing",Active,Home Bank`,
        ),
    );
    report = await differences(result.jobId);
  });

  it('counts each kind, and the tape rows', () => {
    expect(result.counts).toEqual({ NOT_IN_REGISTRY: 3, MISSING_FROM_TAPE: 1, FIELD_DIFFERS: 2, UNREADABLE_ROW: 3 });
    expect(result.rows).toBe(9);
    expect(result.fields).toEqual(['uli', 'loanNumber', 'owner', 'servicer', 'status']);
    expect(result.progress).toBe(result.total);
  });

  it('a tape loan the organization holds no role on is "not in the registry", like one that does not exist', () => {
    const notInRegistry = report.filter((row) => row.kind === 'NOT_IN_REGISTRY');
    expect(notInRegistry.map((row) => row.uli)).toEqual([loans.foreign.uli, 'US0000000000000000000000', 'BAD"ULI']);
    expect(notInRegistry.map((row) => row.line)).toEqual([6, 7, 11]);
    // Nothing of the foreign loan is told: no field, no registry value.
    expect(notInRegistry[0]).toMatchObject({ field: null, registryValue: null, loanNumber: loans.foreign.loanNumber });
  });

  it("the organization's loan the tape lacks is missing from the tape", () => {
    expect(report.filter((row) => row.kind === 'MISSING_FROM_TAPE')).toEqual([
      expect.objectContaining({ uli: loans.missing.uli, loanNumber: loans.missing.loanNumber, line: null }),
    ]);
  });

  it('fields that differ: field, tape value, registry value; names match without regard to case, parties also by id', () => {
    const differs = report.filter((row) => row.kind === 'FIELD_DIFFERS');
    expect(differs).toEqual([
      expect.objectContaining({
        line: 3,
        uli: loans.differs.uli,
        field: 'servicer',
        tapeValue: '=HYPERLINK("http://evil.test","x")',
        registryValue: 'Steady Servicing',
      }),
      // The cell with a line break: its row starts on line 4 and ends on 5. Its servicer, given by id, matches.
      expect.objectContaining({ line: 4, uli: loans.byId.uli, field: 'owner', tapeValue: 'Home\nBank', registryValue: 'Home Bank' }),
    ]);
    expect(differs.some((row) => row.uli === loans.matching.uli && row.field !== 'status')).toBe(false);
  });

  it('unreadable rows with their line numbers and why', () => {
    const unreadable = report.filter((row) => row.kind === 'UNREADABLE_ROW');
    expect(unreadable.map((row) => [row.line, row.detail])).toEqual([
      [8, RECONCILIATION_TEXTS.duplicateKey(2)],
      [9, RECONCILIATION_TEXTS.noKey],
      [10, RECONCILIATION_TEXTS.columnCount(2, 5)],
    ]);
  });

  it('pages by kind', async () => {
    const page = await asMember.get(`${PATHS.reconciliationDifferences(result.jobId)}?limit=10&offset=1&kind=NOT_IN_REGISTRY`);
    expect(page.statusCode).toBe(200);
    const parsed = differencesPageSchema.parse(page.json());
    expect(parsed.totalCount).toBe(3);
    expect(parsed.differences.map((row) => row.uli)).toEqual(['US0000000000000000000000', 'BAD"ULI']);
  });

  it('downloads the report as CSV, formula cells neutralised', async () => {
    const response = await asMember.get(PATHS.reconciliationCsv(result.jobId));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="reconciliation-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv"$/);
    const rows = parseCsv(response.body.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual([...RECONCILIATION_CSV_HEADERS]);
    expect(rows).toHaveLength(1 + report.length);
    expect(rows).toContainEqual(expect.arrayContaining([`'=HYPERLINK("http://evil.test","x")`]));
    expect(response.body).not.toContain(',=HYPERLINK');
  });

  it('changes nothing in the registry', async () => {
    const parties = await server.db.execute<{ participant_id: string }>(
      sql`SELECT participant_id FROM loan_parties WHERE loan_id = ${loans.differs.id} AND role = 'SERVICER'`,
    );
    expect(parties.rows[0]?.participant_id).toBe(org.servicer);
  });

  it("is the caller's own: another user of the organization, or the caller for another organization, gets 404", async () => {
    expect((await asColleague.get(PATHS.reconciliationDifferences(result.jobId))).statusCode).toBe(404);
    expect((await asColleague.get(PATHS.reconciliationCsv(result.jobId))).json().message).toBe(RECONCILIATION_NOT_FOUND);
    expect((await asMember.as(org.other).get(PATHS.reconciliationCsv(result.jobId))).statusCode).toBe(404);
    expect((await list(asColleague)).some((job) => job.jobId === result.jobId)).toBe(false);
  });
});

describe('keyed by loan number', () => {
  it('matches on the loan number, and tells a servicer that differs', async () => {
    const result = await reconcile(
      tape(
        'loan_number,SERVICER NAME',
        `${loans.matching.loanNumber},Steady Servicing`,
        `${loans.differs.loanNumber},New Servicing`,
        `${loans.byId.loanNumber},Steady Servicing`,
        `${loans.foreign.loanNumber},Steady Servicing`,
      ),
    );
    expect(result.counts).toEqual({ NOT_IN_REGISTRY: 1, MISSING_FROM_TAPE: 1, FIELD_DIFFERS: 1, UNREADABLE_ROW: 0 });
    const report = await differences(result.jobId, '&kind=FIELD_DIFFERS');
    expect(report).toEqual([expect.objectContaining({ field: 'servicer', tapeValue: 'New Servicing', registryValue: 'Steady Servicing' })]);
  });
});

describe('the job', () => {
  it('is PENDING with its total, the report 409 until DONE; a stopped attempt leaves nothing and the next one finishes', async () => {
    const content = tape('ULI', loans.matching.uli, loans.differs.uli);
    const response = await upload(content);
    const started = reconciliationSchema.parse(response.json());
    expect(started).toMatchObject({ status: 'PENDING', progress: 0, total: Buffer.byteLength(content), counts: null });
    const early = await asMember.get(PATHS.reconciliationDifferences(started.jobId));
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(RECONCILIATION_NOT_DONE);

    // An attempt that dies after staging (as a server stopped half-way) rolls back; the tape is still there.
    await server.db.execute(sql`UPDATE jobs SET status = 'RUNNING' WHERE id = ${started.jobId}`);
    const stored = await server.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reconciliation_tape_chunks WHERE job_id = ${started.jobId}`,
    );
    expect(stored.rows[0]?.n).toBe(1);
    await server.app.jobs.runPending(JOB_QUEUES.reconcileTape);
    const done = (await list()).find((job) => job.jobId === started.jobId);
    expect(done?.counts).toEqual({ NOT_IN_REGISTRY: 0, MISSING_FROM_TAPE: 2, FIELD_DIFFERS: 0, UNREADABLE_ROW: 0 });
    // Once DONE the tape is no longer kept.
    const left = await server.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reconciliation_tape_chunks WHERE job_id = ${started.jobId}`,
    );
    expect(left.rows[0]?.n).toBe(0);
  });

  it(`takes at most ${MAX_UNFINISHED_RECONCILIATIONS} unfinished per user at once (429)`, async () => {
    const started = [];
    for (let n = 0; n < MAX_UNFINISHED_RECONCILIATIONS; n++) started.push((await upload(tape('ULI', loans.matching.uli))).statusCode);
    expect(started.every((status) => status === 202)).toBe(true);
    const refused = await upload(tape('ULI', loans.matching.uli));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(TOO_MANY_RECONCILIATIONS);
    await server.app.jobs.runPending(JOB_QUEUES.reconcileTape);
    expect((await upload(tape('ULI', loans.matching.uli))).statusCode).toBe(202);
    await server.app.jobs.runPending(JOB_QUEUES.reconcileTape);
  });

  it('rechunks an upload into chunks of the stored size', async () => {
    async function* pieces() {
      yield Buffer.alloc(3, 1);
      yield Buffer.alloc(6, 2);
      yield Buffer.alloc(2, 3);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of rechunk(pieces(), 4)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.length)).toEqual([4, 4, 3]);
    expect(Buffer.concat(chunks)).toEqual(Buffer.concat([Buffer.alloc(3, 1), Buffer.alloc(6, 2), Buffer.alloc(2, 3)]));
  });
});
