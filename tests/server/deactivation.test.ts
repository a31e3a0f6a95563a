import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, NUL_CHARACTER_MESSAGE } from '../../src/contract/common';
import { deactivationAcceptedSchema, deactivationSubjectOfItem, DEACTIVATION_WIRE_NAMES } from '../../src/contract/deactivation';
import { loanDetailsSchema, loanEventsSchema, loanListSchema } from '../../src/contract/loans';
import { PATHS } from '../../src/contract/paths';
import { deactivationBlocker, DEACTIVATION_ENTITY_TYPES, DEACTIVATION_REASONS } from '../../src/domain/deactivation';
import { FILTERABLE_ROLES } from '../../src/domain/loan';
import { TEXTS } from '../../src/domain/texts';
import { DEACTIVATION_TEXTS as T } from '../../src/domain/deactivation-texts';
import { failDeactivation, processDeactivation, requestDeactivation } from '../../src/server/services/deactivations';
import { JOB_FAILURE_HANDLERS } from '../../src/server/jobs/job-handlers';
import { deactivationFailed } from '../../src/server/jobs/deactivation-job';
import { deactivationRequests, documents, loanEvents, loanListEntries, loans, messages, roleRequests } from '../../src/server/db/schema';
import { JOB_QUEUES } from '../../src/server/jobs/job-queues';
import { MALFORMED_FORM, ONE_FILE_ONLY, safeFileName } from '../../src/server/routes/deactivation';
import { PAYOFF_FIELDS } from '../support/deactivation-fixtures';
import { insertLoan } from './support/loan-rows';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
let member: Caller;
const ids = {} as Record<'home' | 'second' | 'foreign', string>;

const TEN_MB = 10 * 1024 * 1024;
const FILE = 'securityInstrumentAndAssignment';
/** Starts like every PDF ('%PDF-'): the server judges the content, nothing more. */
const pdf = (size = 2048) => {
  const head = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
  const tail = Buffer.from('\n%%EOF\n');
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length - tail.length), 0x20), tail]);
};

/** The form as the web server.app sends it (SPEC section 7's names). */
const VALID_FIELDS: Readonly<Record<string, string>> = {
  reason: 'removeAsMortgage',
  effectiveDate: '2026-02-01',
  assignee: 'Harbor Capital Trust',
  entityType: 'Statutory Trust',
  statePostalCode: 'DE',
  'address.street1': '500 Harbor Blvd',
  'address.street2': 'Floor 3',
  'address.city': 'Oakland',
  'address.statePostalCode': 'CA',
  'address.zipCode': '94607-1234',
  bookNumber: '1042',
  pageNumber: '77',
  instrumentNumber: '2026-0001234',
};

interface FilePart {
  readonly content: Buffer;
  readonly fileName?: string;
  readonly contentType?: string;
}

/** A multipart/form-data body: text fields, then the file (if any). */
function multipart(fields: Readonly<Record<string, string>>, file: FilePart | null) {
  const boundary = `----registry${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${FILE}"; filename="${file.fileName ?? 'instrument.pdf'}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/pdf'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function submit(
  loanId: string,
  options: { fields?: Readonly<Record<string, string>>; file?: FilePart | null; participantId?: string; cookie?: string | null } = {},
) {
  const body = multipart(options.fields ?? VALID_FIELDS, options.file === undefined ? { content: pdf() } : options.file);
  const session = options.cookie === undefined ? member.cookie : (options.cookie ?? undefined);
  return server.caller(session, options.participantId ?? ids.home).post(PATHS.loanDeactivate(loanId), body.payload, {
    headers: { 'content-type': body.contentType },
  });
}

/** A fresh loan the home organization can deactivate (owner), or with the given parties. */
async function deactivatableLoan(parties?: Parameters<typeof insertLoan>[1]['parties'], status: 'Active' | 'Inactive' = 'Active') {
  return insertLoan(server.db, { status, parties: parties ?? [{ role: 'OWNER', participantId: ids.home }] });
}

async function recorded(loanId: string) {
  const db = server.db;
  return {
    requests: await db.select().from(deactivationRequests).where(eq(deactivationRequests.loanId, loanId)),
    documents: await db.select().from(documents).where(eq(documents.loanId, loanId)),
    events: await db.select().from(loanEvents).where(eq(loanEvents.loanId, loanId)),
    messages: await db.select().from(messages).where(eq(messages.targetId, loanId)),
    loan: (await db.select().from(loans).where(eq(loans.id, loanId)))[0],
  };
}

async function expectNothingRecorded(loanId: string) {
  const rows = await recorded(loanId);
  expect(rows.requests).toEqual([]);
  expect(rows.documents).toEqual([]);
  expect(rows.events.map((event) => event.eventType)).toEqual(['REGISTRATION']);
}

const messageOf = (response: { json(): unknown }) => errorBodySchema.parse(response.json()).message;

beforeAll(async () => {
  const home = await insertParticipant(server.db, { name: 'Home Bank' });
  const second = await insertParticipant(server.db, { name: 'Second Trust' });
  const foreign = await insertParticipant(server.db, { name: 'Foreign Credit' });
  Object.assign(ids, { home: home.id, second: second.id, foreign: foreign.id });
  await insertUser(server.db, {
    email: 'member@registry.test',
    memberships: [{ participantId: home.id, isDefault: true }, { participantId: second.id }],
  });
  member = await server.signIn('member@registry.test');
});

describe('POST v1 /loans/{loanId}/deactivate', () => {
  it('records the instrument, the Requested event and the request, and queues the processing', async () => {
    const loan = await deactivatableLoan();
    const content = pdf(200_000);
    const response = await submit(loan.id, { file: { content, fileName: 'C:\\scans\\instrument.pdf' } });
    expect(response.statusCode).toBe(202);
    const accepted = deactivationAcceptedSchema.parse(response.json());
    expect(accepted).toEqual({ id: expect.any(String), loanId: loan.id, status: 'SUBMITTED' });

    const rows = await recorded(loan.id);
    expect(rows.documents).toHaveLength(1);
    const [document] = rows.documents;
    expect(document).toMatchObject({
      type: 'DEACTIVATION_INSTRUMENT',
      docType: 'DEACTIVATION_INSTRUMENT',
      name: 'Security Instrument and Assignment',
      fileName: 'instrument.pdf',
      contentType: 'application/pdf',
      sizeBytes: content.length,
      hash: createHash('sha256').update(content).digest('hex'),
    });
    expect(Buffer.compare(document?.content ?? Buffer.alloc(0), content)).toBe(0);
    expect(rows.requests).toEqual([
      expect.objectContaining({
        id: accepted.id,
        participantId: ids.home,
        reason: 'removeAsMortgage',
        effectiveDate: '2026-02-01',
        assignee: 'Harbor Capital Trust',
        entityType: 'Statutory Trust',
        statePostalCode: 'DE',
        street1: '500 Harbor Blvd',
        street2: 'Floor 3',
        city: 'Oakland',
        state: 'CA',
        zip: '94607-1234',
        documentId: document?.id,
        bookNumber: '1042',
        pageNumber: '77',
        instrumentNumber: '2026-0001234',
        status: 'SUBMITTED',
      }),
    ]);
    // The history shows the waiting request (SPEC section 4) before anything is processed.
    const events = loanEventsSchema.parse((await member.as(ids.home).get(PATHS.loanEvents(loan.id))).json());
    expect(events[0]).toMatchObject({
      eventType: 'DEACTIVATION_REQUESTED',
      state: 'Requested',
      eventDescription: 'Deactivation requested by Home Bank: remove the product as mortgagee',
      effectiveDate: null,
      requestedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      participant: { participantId: ids.home, participantName: 'Home Bank' },
    });
    expect(rows.loan).toMatchObject({ status: 'Active', deactivated: false });
  });

  it('processes the request in its job: Inactive, confirmed in the history, completed, the organization told; twice changes nothing', async () => {
    const loan = await deactivatableLoan();
    const response = await submit(loan.id);
    const { id: requestId } = deactivationAcceptedSchema.parse(response.json());
    expect(await server.app.jobs.runPending(JOB_QUEUES.processDeactivation)).toBeGreaterThanOrEqual(1);

    const after = await recorded(loan.id);
    expect(after.loan).toMatchObject({ status: 'Inactive', deactivated: true });
    expect(after.requests.map((request) => request.status)).toEqual(['COMPLETED']);
    expect(after.messages).toEqual([
      expect.objectContaining({
        participantId: ids.home,
        targetType: 'LOAN',
        targetId: loan.id,
        message: `Deactivation of asset ${loan.uli} is complete.`,
        read: false,
        archived: false,
        isActionable: false,
      }),
    ]);
    const events = loanEventsSchema.parse((await member.as(ids.home).get(PATHS.loanEvents(loan.id))).json());
    expect(events.map((event) => [event.eventType, event.state])).toEqual([
      ['DEACTIVATION', 'Confirmed'],
      ['DEACTIVATION_REQUESTED', 'Confirmed'],
      ['REGISTRATION', 'Confirmed'],
    ]);
    expect(events[0]).toMatchObject({
      eventDescription: 'Asset deactivated at the request of Home Bank',
      effectiveDate: '2026-02-01',
      participant: { participantId: ids.home, participantName: 'Home Bank' },
    });

    // The asset list index (kept by triggers) and the details say Deactivated.
    const [entry] = await server.db
      .select({ statusRank: loanListEntries.statusRank })
      .from(loanListEntries)
      .where(and(eq(loanListEntries.loanId, loan.id), eq(loanListEntries.participantId, ids.home)));
    expect(entry?.statusRank).toBe(1);
    const listed = await member.as(ids.home).get(`${PATHS.loans}?limit=100&sortBy=status`);
    expect(listed.statusCode, listed.body).toBe(200);
    const list = loanListSchema.parse(listed.json());
    expect(list.loans.find((item) => item.loanId === loan.id)?.status).toBe('Inactive');
    const details = loanDetailsSchema.parse((await member.as(ids.home).get(PATHS.loanDetails(loan.id))).json());
    expect(details.loan).toMatchObject({ deactivated: true, loanData: expect.objectContaining({ status: 'Inactive' }) });

    // Idempotent: the same request processed again, and the queue run again, change nothing.
    expect(await processDeactivation(server.db, requestId)).toBe('alreadyCompleted');
    await server.app.jobs.runPending(JOB_QUEUES.processDeactivation);
    const again = await recorded(loan.id);
    expect(again.events).toHaveLength(after.events.length);
    expect(again.messages).toHaveLength(1);
    expect(again.loan?.updatedAt).toEqual(after.loan?.updatedAt);
  });

  it("lists each item with the organization's roles and whether a deactivation request waits, as the rule needs them", async () => {
    const loan = await deactivatableLoan([
      { role: 'OWNER', participantId: ids.home },
      { role: 'SERVICER', participantId: ids.second },
      { role: 'CONTROLLER', participantId: ids.home },
    ]);
    const historyWaits = await insertLoan(server.db, {
      parties: [{ role: 'SERVICER', participantId: ids.home }],
      events: [{}, { eventType: 'DEACTIVATION_REQUESTED', state: 'Requested', effectiveDate: null }],
    });
    const itemOf = async (loanId: string, participantId = ids.home) => {
      const listed = await member.as(participantId).get(`${PATHS.loans}?limit=100&participantRoles=${FILTERABLE_ROLES.join(',')}`);
      expect(listed.statusCode, listed.body).toBe(200);
      return loanListSchema.parse(listed.json()).loans.find((item) => item.loanId === loanId);
    };
    expect(await itemOf(loan.id)).toMatchObject({ heldRoles: ['OWNER', 'CONTROLLER'], deactivationPending: false });
    expect(await itemOf(loan.id, ids.second)).toMatchObject({ heldRoles: ['SERVICER'], deactivationPending: false });
    // A request recorded in the history (as the seed writes some) waits too.
    expect(await itemOf(historyWaits.id)).toMatchObject({ heldRoles: ['SERVICER'], deactivationPending: true });

    expect((await submit(loan.id)).statusCode).toBe(202);
    const waiting = await itemOf(loan.id);
    expect(waiting).toMatchObject({ status: 'Active', deactivationPending: true });
    expect(deactivationBlocker(deactivationSubjectOfItem(waiting!))).toBe(T.alreadyRequested);
    expect(await itemOf(loan.id, ids.second)).toMatchObject({ deactivationPending: true });

    await server.app.jobs.runPending(JOB_QUEUES.processDeactivation);
    const processed = await itemOf(loan.id);
    expect(processed).toMatchObject({ status: 'Inactive', deactivationPending: false });
    expect(deactivationBlocker(deactivationSubjectOfItem(processed!))).toBe(T.alreadyInactive);
  });

  it('accepts the servicer, a payoff without an assignee (dropped if sent), a 5-digit zip, a lower-case state and no optional fields', async () => {
    const loan = await deactivatableLoan([
      { role: 'OWNER', participantId: ids.foreign },
      { role: 'SERVICER', participantId: ids.home },
    ]);
    const fields = {
      reason: 'payoff',
      effectiveDate: '2026-03-15',
      assignee: 'Ignored Assignee',
      entityType: 'Corporation',
      statePostalCode: 'PR',
      'address.street1': ' 1 Main Street ',
      'address.city': 'San Juan',
      'address.statePostalCode': 'pr',
      'address.zipCode': '00901',
    };
    const response = await submit(loan.id, { fields });
    expect(response.statusCode).toBe(202);
    const [request] = (await recorded(loan.id)).requests;
    expect(request).toMatchObject({
      reason: 'payoff',
      assignee: null,
      street1: '1 Main Street',
      street2: null,
      state: 'PR',
      zip: '00901',
      bookNumber: null,
      pageNumber: null,
      instrumentNumber: null,
    });
  });

  it('accepts a PDF of exactly 10 MB', async () => {
    const loan = await deactivatableLoan();
    const response = await submit(loan.id, { file: { content: pdf(TEN_MB) } });
    expect(response.statusCode).toBe(202);
    expect((await recorded(loan.id)).documents[0]?.sizeBytes).toBe(TEN_MB);
  });
});

describe('validation (SPEC section 5): 400 naming the field, nothing recorded', () => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ['reason', '', T.reasonRequired],
    ['reason', 'retire', `must be one of ${DEACTIVATION_REASONS.join(', ')}`],
    ['effectiveDate', '', T.effectiveDateRequired],
    ['effectiveDate', '2026-02-30', T.invalidDate],
    ['effectiveDate', '02-01-2026', T.invalidDate],
    // ISO's year 0000: PostgreSQL has no year 0 (the insert failed: 500).
    ['effectiveDate', '0000-01-01', T.invalidDate],
    ['entityType', '', T.entityTypeRequired],
    ['entityType', 'Pirate Ship', `must be one of ${DEACTIVATION_ENTITY_TYPES.join(', ')}`],
    ['statePostalCode', '', T.statePostalCodeRequired],
    ['statePostalCode', 'ZZ', 'Please enter a valid state'],
    ['address.street1', '   ', T.street1Required],
    ['address.city', '', T.cityRequired],
    ['address.statePostalCode', '', 'Please enter a valid state'],
    ['address.statePostalCode', 'California', 'Please enter a valid state'],
    ['address.zipCode', '', T.invalidZip],
    ['address.zipCode', '9460', T.invalidZip],
    ['address.zipCode', '946071', T.invalidZip],
    ['address.zipCode', 'ABCDE', T.invalidZip],
    ['assignee', 'x'.repeat(201), T.tooLong(200)],
    ['address.street2', 'x'.repeat(201), T.tooLong(200)],
    ['bookNumber', '1'.repeat(51), T.tooLong(50)],
    ['pageNumber', '1'.repeat(51), T.tooLong(50)],
    ['instrumentNumber', '1'.repeat(51), T.tooLong(50)],
    // PostgreSQL's text cannot hold U+0000: a 400 from the rules, never a 500 from the database.
    ['address.street1', 'Main\u0000St', NUL_CHARACTER_MESSAGE],
    ['address.city', 'Oak\u0000land', NUL_CHARACTER_MESSAGE],
    ['assignee', 'Trust\u0000', NUL_CHARACTER_MESSAGE],
    ['bookNumber', '1\u00002', NUL_CHARACTER_MESSAGE],
  ];

  it.each(cases)('%s = %j: %s', async (field, value, message) => {
    const loan = await deactivatableLoan();
    const response = await submit(loan.id, { fields: { ...VALID_FIELDS, [field]: value } });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(`${field}: ${message}`);
    await expectNothingRecorded(loan.id);
  });

  it('requires the file', async () => {
    const loan = await deactivatableLoan();
    const response = await submit(loan.id, { file: null });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(`${FILE}: ${T.fileRequired}`);
    await expectNothingRecorded(loan.id);
  });

  it('names every missing field of an empty form, in form order', async () => {
    const loan = await deactivatableLoan();
    const response = await submit(loan.id, { fields: {}, file: null });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(
      [
        `reason: ${T.reasonRequired}`,
        `effectiveDate: ${T.effectiveDateRequired}`,
        `entityType: ${T.entityTypeRequired}`,
        `statePostalCode: ${T.statePostalCodeRequired}`,
        `address.street1: ${T.street1Required}`,
        `address.city: ${T.cityRequired}`,
        `address.statePostalCode: ${T.invalidState}`,
        `address.zipCode: ${T.invalidZip}`,
        `${FILE}: ${T.fileRequired}`,
      ].join('; '),
    );
  });

  it('uses SPEC section 7 names on the wire', () => {
    expect(DEACTIVATION_WIRE_NAMES['address.state']).toBe('address.statePostalCode');
    expect(DEACTIVATION_WIRE_NAMES['address.zip']).toBe('address.zipCode');
  });

  it('answers 400 naming the parameter for a malformed loan id', async () => {
    const response = await submit('not-a-loan');
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toMatch(/^params\.loanId: /);
  });
});

describe('the file (SPEC sections 5 and 9)', () => {
  it('refuses a file over 10 MB with 413', async () => {
    const loan = await deactivatableLoan();
    const response = await submit(loan.id, { file: { content: pdf(TEN_MB + 1) } });
    expect(response.statusCode).toBe(413);
    expect(messageOf(response)).toBe(`${FILE}: File size cannot be more than 10MB`);
    await expectNothingRecorded(loan.id);
  });

  it('refuses a renamed non-PDF with 415, whatever its name and declared type', async () => {
    const loan = await deactivatableLoan();
    const notPdf = Buffer.from('PK\u0003\u0004 this is a zip archive named like a PDF');
    const response = await submit(loan.id, { file: { content: notPdf, fileName: 'instrument.pdf', contentType: 'application/pdf' } });
    expect(response.statusCode).toBe(415);
    expect(messageOf(response)).toBe(`${FILE}: ${T.fileNotPdf}`);
    await expectNothingRecorded(loan.id);
  });

  it('accepts a PDF by its content, whatever its name', async () => {
    const loan = await deactivatableLoan();
    const response = await submit(loan.id, { file: { content: pdf(), fileName: 'scan.bin', contentType: 'application/octet-stream' } });
    expect(response.statusCode).toBe(202);
  });

  it('keeps a file name fit to show: no folders, no control or direction characters, and a .pdf ending', async () => {
    expect(safeFileName('C:\\scans\\deed.PDF')).toBe('deed.PDF');
    expect(safeFileName('evil\u202Efdp.exe')).toBe('evilfdp.exe.pdf');
    expect(safeFileName('line\r\nbreak\u0000.pdf')).toBe('linebreak.pdf');
    expect(safeFileName('../..')).toBe('security-instrument-and-assignment.pdf');
    expect(safeFileName('\u200B')).toBe('security-instrument-and-assignment.pdf');
    const long = safeFileName(`${'x'.repeat(300)}.exe`);
    expect(long).toHaveLength(255);
    expect(long.endsWith('.pdf')).toBe(true);

    const loan = await deactivatableLoan();
    const response = await submit(loan.id, { file: { content: pdf(), fileName: 'scan\u202Efdp.exe' } });
    expect(response.statusCode).toBe(202);
    expect((await recorded(loan.id)).documents[0]?.fileName).toBe('scanfdp.exe.pdf');
  });

  it('refuses a second file with 400 naming the field, and records nothing', async () => {
    const loan = await deactivatableLoan();
    const body = multipart(VALID_FIELDS, { content: pdf() });
    const boundary = body.contentType.split('boundary=')[1] ?? '';
    const secondFile = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${FILE}"; filename="second.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n`,
    );
    const payload = Buffer.concat([secondFile, body.payload]);
    const response = await member
      .as(ids.home)
      .post(PATHS.loanDeactivate(loan.id), payload, { headers: { 'content-type': body.contentType } });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(ONE_FILE_ONLY);
    await expectNothingRecorded(loan.id);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const loan = await deactivatableLoan();
    const response = await member
      .as(ids.home)
      .post(PATHS.loanDeactivate(loan.id), JSON.stringify(VALID_FIELDS), { headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(415);
    expect(messageOf(response)).toBe(T.notMultipart);
  });
});

describe('a request whose processing failed for good', () => {
  it('is FAILED, its event Rejected, its organization told, and the loan may be asked for again', async () => {
    const loan = await deactivatableLoan();
    const accepted = await submit(loan.id);
    expect(accepted.statusCode).toBe(202);
    const requestId = (await recorded(loan.id)).requests[0]?.id ?? '';
    // The queue's last retry calls this handler (job-runner.ts failedForGood).
    expect(JOB_FAILURE_HANDLERS[JOB_QUEUES.processDeactivation]).toBe(deactivationFailed);
    expect(await failDeactivation(server.db, requestId)).toBe('failed');

    const rows = await recorded(loan.id);
    expect(rows.requests.map((request) => request.status)).toEqual(['FAILED']);
    expect(rows.events.find((event) => event.eventType === 'DEACTIVATION_REQUESTED')?.state).toBe('Rejected');
    expect(rows.messages.map((message) => message.message)).toContain(T.failedMessage(loan.uli));
    expect(rows.loan).toMatchObject({ status: 'Active', deactivated: false });
    // Failing twice, or a completed request, changes nothing.
    expect(await failDeactivation(server.db, requestId)).toBe('notSubmitted');
    expect(await failDeactivation(server.db, randomUUID())).toBe('missing');
    // Not blocked by the failed one: a new request is accepted.
    expect((await submit(loan.id)).statusCode).toBe(202);
  });
});

describe('refusals', () => {
  it.each([
    ['no boundary', 'multipart/form-data', '--x\r\n'],
    ['an empty boundary', 'multipart/form-data; boundary=', '{"reason":"x"}'],
    ['a body cut off mid-part', 'multipart/form-data; boundary=cut', '--cut\r\nContent-Disposition: form-data; name="reason"\r\n\r\nSal'],
  ])('answers 400, never 500, to a multipart body with %s, and records nothing', async (_case, contentType, payload) => {
    const loan = await deactivatableLoan();
    const response = await member.as(ids.home).post(PATHS.loanDeactivate(loan.id), payload, { headers: { 'content-type': contentType } });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(MALFORMED_FORM);
    await expectNothingRecorded(loan.id);
  });

  it('answers 400 (not 403, which the web reads as Invalid participant) to an organization that holds a role but neither owner nor servicer', async () => {
    const loan = await deactivatableLoan([
      { role: 'OWNER', participantId: ids.foreign },
      { role: 'CONTROLLER', participantId: ids.home },
    ]);
    const response = await submit(loan.id);
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(T.notOwnerOrServicer);
    await expectNothingRecorded(loan.id);
  });

  it('answers 404 alike for a loan of another organization and one that does not exist', async () => {
    const foreign = await deactivatableLoan([{ role: 'OWNER', participantId: ids.foreign }]);
    for (const loanId of [foreign.id, randomUUID()]) {
      const response = await submit(loanId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Loan not found.' });
    }
    await expectNothingRecorded(foreign.id);
  });

  it('acts for the organization in the header: the same user, another organization, another answer', async () => {
    const loan = await deactivatableLoan([{ role: 'OWNER', participantId: ids.second }]);
    expect((await submit(loan.id, { participantId: ids.home })).statusCode).toBe(404);
    expect((await submit(loan.id, { participantId: ids.second })).statusCode).toBe(202);
  });

  it('answers 409 for a loan already inactive', async () => {
    const loan = await deactivatableLoan(undefined, 'Inactive');
    const response = await submit(loan.id);
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(T.alreadyInactive);
    await expectNothingRecorded(loan.id);
  });

  it('answers 409 while a request is pending, and for the deactivated loan after processing', async () => {
    const loan = await deactivatableLoan();
    expect((await submit(loan.id)).statusCode).toBe(202);
    const second = await submit(loan.id);
    expect(second.statusCode).toBe(409);
    expect(messageOf(second)).toBe(T.alreadyRequested);
    await server.app.jobs.runPending(JOB_QUEUES.processDeactivation);
    const third = await submit(loan.id);
    expect(third.statusCode).toBe(409);
    expect(messageOf(third)).toBe(T.alreadyInactive);
    expect((await recorded(loan.id)).requests).toHaveLength(1);
  });

  it('answers 409 while a role transfer of the loan awaits its answer (a deactivated loan keeps none open)', async () => {
    const loan = await insertLoan(server.db, {
      parties: [
        { role: 'OWNER', participantId: ids.home },
        { role: 'SERVICER', participantId: ids.home, state: 'PENDING' },
      ],
    });
    await server.db.insert(roleRequests).values({
      loanId: loan.id,
      role: 'SERVICER',
      requesterParticipantId: ids.home,
      receiverParticipantId: ids.foreign,
      state: 'PENDING',
    });
    const response = await submit(loan.id);
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(T.transferPending);
    await expectNothingRecorded(loan.id);
    // Once answered, the loan may be deactivated.
    await server.db.update(roleRequests).set({ state: 'REJECTED', answeredAt: new Date() }).where(eq(roleRequests.loanId, loan.id));
    expect((await submit(loan.id)).statusCode).toBe(202);
  });

  it('answers 409 for a loan whose history holds a deactivation request still waiting', async () => {
    const loan = await insertLoan(server.db, {
      parties: [{ role: 'OWNER', participantId: ids.home }],
      events: [{}, { eventType: 'DEACTIVATION_REQUESTED', state: 'Requested', effectiveDate: null }],
    });
    const response = await submit(loan.id);
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(T.alreadyRequested);
  });

  it('decides two simultaneous requests for one loan one after the other: one 202, one 409', async () => {
    const loan = await deactivatableLoan();
    const answers = await Promise.all([submit(loan.id), submit(loan.id)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
    expect((await recorded(loan.id)).requests).toHaveLength(1);
  });

  it('answers 401 without a session and 403 Invalid participant for a foreign organization', async () => {
    const loan = await deactivatableLoan();
    expect((await submit(loan.id, { cookie: null })).statusCode).toBe(401);
    const foreign = await submit(loan.id, { participantId: ids.foreign });
    expect(foreign.statusCode).toBe(403);
    expect(messageOf(foreign)).toBe(TEXTS.invalidParticipantBody);
    await expectNothingRecorded(loan.id);
  });

  it('records nothing when the job cannot be queued: one transaction', async () => {
    const loan = await deactivatableLoan();
    const attempt = requestDeactivation(
      server.db,
      {
        loanId: loan.id,
        participantId: ids.home,
        participantName: 'Home Bank',
        userId: null,
        fields: PAYOFF_FIELDS,
        instrument: { fileName: 'instrument.pdf', content: pdf(), hash: createHash('sha256').update(pdf()).digest('hex') },
      },
      async () => {
        throw new Error('queue unavailable');
      },
    );
    await expect(attempt).rejects.toThrow('queue unavailable');
    await expectNothingRecorded(loan.id);
  });
});

describe('OpenAPI', () => {
  it('documents the multipart body with SPEC section 7 field names and the file as binary', async () => {
    const response = await server.anonymous.get('/registry/api-docs/json');
    const document = response.json() as {
      paths: Record<
        string,
        { post?: { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } } }
      >;
    };
    const operation = document.paths['/service-dart/secure/api/v1/loans/{loanId}/deactivate']?.post;
    const properties = operation?.requestBody?.content?.['multipart/form-data']?.schema?.properties ?? {};
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(Object.values(DEACTIVATION_WIRE_NAMES)));
    expect(properties[FILE]).toMatchObject({ type: 'string', format: 'binary' });
  });
});
