// The audit trail: one row for each kind of write (who, acting for which organization, from where,
// the entity, the loan, the values before and after), its immutability for the server's role, the
// hash chain and its verify (a row altered or removed by the owner role is named), a loan's
// Activity (newest first, to an organization that may see the loan only) and the staff's search
// with its formula-safe CSV.
import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSearchPageSchema, loanActivityPageSchema } from '../../src/contract/audit';
import { PATHS } from '../../src/contract/paths';
import { PERMISSION_REFUSALS } from '../../src/domain/access';
import { verifyAuditChain } from '../../src/server/audit/audit-verify';
import { auditLog, roleRequests } from '../../src/server/db/schema';
import { JOB_QUEUES } from '../../src/server/jobs/job-queues';
import { failDeactivation } from '../../src/server/services/deactivations';
import { parseCsv } from './support/csv-parse';
import { insertLoan } from './support/loan-rows';
import { type SignedInCaller, useRouteTest } from './support/route-test';
import { insertParticipant, insertUser } from './support/server-fixtures';

const server = useRouteTest();
const ids = {} as Record<'home' | 'foreign' | 'stranger', string>;
const users = {} as Record<'home' | 'foreign' | 'staff', string>;
let home: SignedInCaller;
let foreign: SignedInCaller;
let stranger: SignedInCaller;
let staff: SignedInCaller;
let owner: pg.Pool;

const latestRows = async (count: number) =>
  (await server.db.select().from(auditLog).orderBy(desc(auditLog.chainSeq)).limit(count)).reverse();

const servicedByHome = () =>
  insertLoan(server.db, {
    parties: [
      { role: 'OWNER', name: 'Alpha Owner Trust' },
      { role: 'SERVICER', participantId: ids.home, provenanceId: 'pb1home' },
    ],
  });

async function requestServicerTransfer(loanId: string) {
  const response = await home.post(PATHS.loanRoleRequests(loanId), { role: 'SERVICER', participantId: ids.foreign });
  expect(response.statusCode, response.body).toBe(201);
  const [request] = await server.db.select().from(roleRequests).where(eq(roleRequests.loanId, loanId));
  if (!request?.messageId) throw new Error('no request message');
  return request;
}

const pdf = () =>
  Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(1024, 0x20), Buffer.from('\n%%EOF\n')]);

function deactivationForm() {
  const fields: Record<string, string> = {
    reason: 'removeAsMortgage',
    effectiveDate: '2026-02-01',
    assignee: 'Harbor Capital Trust',
    entityType: 'Statutory Trust',
    statePostalCode: 'DE',
    'address.street1': '500 Harbor Blvd',
    'address.city': 'Oakland',
    'address.statePostalCode': 'CA',
    'address.zipCode': '94607',
    bookNumber: '1042',
    pageNumber: '77',
    instrumentNumber: '2026-0001234',
  };
  const boundary = `----audit${randomUUID()}`;
  const chunks = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const payload = Buffer.concat([
    Buffer.from(chunks.join('')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="securityInstrumentAndAssignment"; filename="instrument.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    pdf(),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

beforeAll(async () => {
  for (const org of ['home', 'foreign', 'stranger'] as const) ids[org] = (await insertParticipant(server.db, { name: `${org} org` })).id;
  users.home = (
    await insertUser(server.db, { email: 'home@audit.test', memberships: [{ participantId: ids.home, isDefault: true }] })
  ).user.id;
  users.foreign = (
    await insertUser(server.db, { email: 'foreign@audit.test', memberships: [{ participantId: ids.foreign, isDefault: true }] })
  ).user.id;
  await insertUser(server.db, { email: 'stranger@audit.test', memberships: [{ participantId: ids.stranger, isDefault: true }] });
  users.staff = (
    await insertUser(server.db, { email: 'staff@audit.test', roles: { 'service-dart': ['ROLE_DART_ADMIN'] }, memberships: [] })
  ).user.id;
  home = await server.signIn('home@audit.test', { participantId: ids.home });
  foreign = await server.signIn('foreign@audit.test', { participantId: ids.foreign });
  stranger = await server.signIn('stranger@audit.test', { participantId: ids.stranger });
  staff = await server.signIn('staff@audit.test');
  owner = new pg.Pool({ connectionString: server.database.ownerUrl, max: 1 });
});

afterAll(async () => {
  await owner?.end();
});

describe('the audit row of each kind of write', () => {
  it('a transfer request: who, for which organization, from where, the loan, the party before and after', async () => {
    const loan = await servicedByHome();
    const request = await requestServicerTransfer(loan.id);
    const [row] = await latestRows(1);
    expect(row).toMatchObject({
      action: 'role-transfer.requested',
      targetType: 'role-request',
      targetId: request.id,
      loanId: loan.id,
      participantId: ids.home,
      actingParticipantId: ids.home,
      actorUserId: users.home,
      actorEmail: 'home@audit.test',
      clientAddress: '127.0.0.1',
    });
    expect(row?.identityId).toMatch(/^[0-9a-f-]{36}$/);
    expect(row?.before).toEqual({ party: { role: 'SERVICER', participantId: ids.home, participantName: 'home org', state: 'CONFIRMED' } });
    expect(row?.after).toMatchObject({
      party: { role: 'SERVICER', participantId: ids.home, state: 'PENDING' },
      request: { state: 'PENDING', receiver: { id: ids.foreign, name: 'foreign org' } },
      event: { state: 'Requested', role: 'SERVICER' },
    });
  });

  it('an answered message: the transfer confirmed, the role moved to the receiver', async () => {
    const loan = await servicedByHome();
    const request = await requestServicerTransfer(loan.id);
    const response = await foreign.patch(PATHS.messages, { uuid: request.messageId, response: true });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await latestRows(1);
    expect(row).toMatchObject({
      action: 'role-transfer.confirmed',
      targetId: request.id,
      loanId: loan.id,
      actingParticipantId: ids.foreign,
      actorEmail: 'foreign@audit.test',
    });
    expect(row?.before).toMatchObject({ party: { participantId: ids.home, state: 'PENDING' }, message: { response: null } });
    expect(row?.after).toMatchObject({
      party: { participantId: ids.foreign, participantName: 'foreign org', state: 'CONFIRMED' },
      request: { state: 'CONFIRMED' },
      message: { id: request.messageId, response: true },
      event: { state: 'Confirmed' },
    });
  });

  it('an answered message: the transfer rejected, the role where it was', async () => {
    const loan = await servicedByHome();
    const request = await requestServicerTransfer(loan.id);
    expect((await foreign.patch(PATHS.messages, { uuid: request.messageId, response: false })).statusCode).toBe(200);
    const [row] = await latestRows(1);
    expect(row).toMatchObject({ action: 'role-transfer.rejected', loanId: loan.id });
    expect(row?.after).toMatchObject({ party: { participantId: ids.home, state: 'REJECTED' }, request: { state: 'REJECTED' } });
  });

  it('a refused write leaves no row', async () => {
    const before = await latestRows(1);
    const loan = await servicedByHome();
    const response = await home.post(PATHS.loanRoleRequests(loan.id), { role: 'SERVICER', participantId: ids.home });
    expect(response.statusCode).toBe(400);
    expect(await latestRows(1)).toEqual(before);
  });

  it('a deactivation: the document added and the request, then its processing by the job runner (no user)', async () => {
    const loan = await insertLoan(server.db, { parties: [{ role: 'OWNER', participantId: ids.home, provenanceId: 'pb1home' }] });
    const form = deactivationForm();
    const response = await home.post(PATHS.loanDeactivate(loan.id), form.payload, { headers: { 'content-type': form.contentType } });
    expect(response.statusCode, response.body).toBe(202);
    const { id: requestId } = response.json() as { id: string };
    const [document, requested] = await latestRows(2);
    expect(document).toMatchObject({
      action: 'document.added',
      targetType: 'document',
      loanId: loan.id,
      actorEmail: 'home@audit.test',
      before: null,
    });
    expect(document?.after).toMatchObject({ fileName: 'instrument.pdf', sizeBytes: pdf().length });
    expect(requested).toMatchObject({ action: 'deactivation.requested', targetId: requestId, loanId: loan.id });
    expect(requested?.before).toEqual({ loan: { status: 'Active', deactivated: false } });
    expect(requested?.after).toMatchObject({ request: { status: 'SUBMITTED', reason: 'removeAsMortgage' } });

    await server.app.jobs.runPending(JOB_QUEUES.processDeactivation);
    const [completed] = await latestRows(1);
    expect(completed).toMatchObject({
      action: 'deactivation.completed',
      targetId: requestId,
      actorUserId: null,
      actorEmail: null,
      identityId: null,
      actingParticipantId: null,
    });
    expect(completed?.before).toMatchObject({ loan: { status: 'Active', deactivated: false } });
    expect(completed?.after).toMatchObject({ loan: { status: 'Inactive', deactivated: true }, request: { status: 'COMPLETED' } });
  });

  it('a deactivation that fails for good', async () => {
    const loan = await insertLoan(server.db, { parties: [{ role: 'OWNER', participantId: ids.home, provenanceId: 'pb1home' }] });
    const form = deactivationForm();
    const response = await home.post(PATHS.loanDeactivate(loan.id), form.payload, { headers: { 'content-type': form.contentType } });
    const { id: requestId } = response.json() as { id: string };
    expect(await failDeactivation(server.db, requestId)).toBe('failed');
    const [failed] = await latestRows(1);
    expect(failed).toMatchObject({ action: 'deactivation.failed', targetId: requestId, loanId: loan.id });
    expect(failed?.after).toMatchObject({ request: { status: 'FAILED' } });
  });

  it('an administration write: registry staff act for no organization', async () => {
    const id = randomUUID();
    const response = await staff.post(PATHS.participants, {
      id,
      participantName: 'Audit Lending',
      organizationName: 'Audit Lending LLC',
      code: 'AUD',
      email: 'ops@audit-lending.test',
      phoneNumber: '(415) 555-0100',
      address: { street: '1 Pier Way', city: 'Oakland', state: 'CA', zip: '94607' },
      grantedLimitedPowerOfAttorney: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    const [row] = await latestRows(1);
    expect(row).toMatchObject({
      action: 'organization.created',
      participantId: id,
      actingParticipantId: null,
      actorUserId: users.staff,
      actorEmail: 'staff@audit.test',
      before: null,
    });
    expect(row?.identityId).not.toBeNull();
    expect(row?.after).toMatchObject({ name: 'Audit Lending', code: 'AUD' });
  });

  it('keeps who acted after the user is removed', async () => {
    const [row] = await server.db.select().from(auditLog).where(eq(auditLog.actorUserId, users.home)).limit(1);
    // The row holds the values, not a reference: nothing to cascade.
    const { rows } = await owner.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_constraint WHERE conrelid = 'audit_log'::regclass AND contype = 'f'
         AND conkey && (SELECT array_agg(attnum) FROM pg_attribute WHERE attrelid = 'audit_log'::regclass
           AND attname IN ('actor_user_id', 'identity_id', 'loan_id', 'acting_participant_id'))`,
    );
    expect(rows[0]?.count).toBe(0);
    expect(row?.actorEmail).toBe('home@audit.test');
  });
});

describe("immutability for the server's role", () => {
  it('refuses UPDATE, DELETE and TRUNCATE of the log, and any use of the chain head', async () => {
    for (const statement of [
      sql`UPDATE audit_log SET action = 'tampered'`,
      sql`DELETE FROM audit_log`,
      sql`TRUNCATE audit_log`,
      sql`SELECT * FROM audit_chain_head`,
      sql`UPDATE audit_chain_head SET hash = ''`,
    ]) {
      await expect(server.db.execute(statement)).rejects.toMatchObject({ cause: expect.objectContaining({ code: '42501' }) });
    }
  });

  it('sets the chain columns itself, whatever an insert gives', async () => {
    await server.db.execute(sql`
      INSERT INTO audit_log (action, target_type, chain_seq, prev_hash, row_hash) VALUES ('probe', 'test', 999999, 'forged', 'forged')`);
    const [row] = await latestRows(1);
    expect(row?.action).toBe('probe');
    expect(row?.chainSeq).not.toBe(999999);
    expect(row?.rowHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await verifyAuditChain(owner)).mismatch).toBeNull();
  });
});

describe('the hash chain and its verify', () => {
  it('holds over concurrent writers: each row follows the one before it', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        server.db.execute(sql`INSERT INTO audit_log (action, target_type, target_id) VALUES ('probe', 'test', ${String(index)})`),
      ),
    );
    const result = await verifyAuditChain(owner, 7);
    expect(result.mismatch).toBeNull();
    const { rows } = await owner.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    expect(result.rows).toBe(rows[0]?.count);
  });

  it('names the first row the owner role altered, and holds again once it is put back', async () => {
    const { rows } = await owner.query<{ chain_seq: string; id: string; after: string }>(
      'SELECT chain_seq, id, after::text FROM audit_log ORDER BY chain_seq LIMIT 1 OFFSET 2',
    );
    const target = rows[0]!;
    await owner.query(`UPDATE audit_log SET after = '{"tampered": true}' WHERE id = $1`, [target.id]);
    const broken = await verifyAuditChain(owner);
    expect(broken.mismatch).toEqual({
      chainSeq: Number(target.chain_seq),
      id: Number(target.id),
      reason: 'its content does not match its hash',
    });
    expect(broken.rows).toBe(Number(target.chain_seq) - 1);
    await owner.query('UPDATE audit_log SET after = $2::jsonb WHERE id = $1', [target.id, target.after]);
    expect((await verifyAuditChain(owner)).mismatch).toBeNull();
  });

  it('names a removed row, and a removed last row by the chain head', async () => {
    const { rows } = await owner.query<{ chain_seq: string; row: string }>(
      'SELECT chain_seq, row_to_json(a)::text AS row FROM audit_log a ORDER BY chain_seq DESC LIMIT 2',
    );
    const [last, beforeLast] = rows as [{ chain_seq: string; row: string }, { chain_seq: string; row: string }];
    await owner.query('DELETE FROM audit_log WHERE chain_seq = $1', [beforeLast.chain_seq]);
    expect((await verifyAuditChain(owner)).mismatch).toMatchObject({
      chainSeq: Number(last.chain_seq),
      reason: `row ${beforeLast.chain_seq} is missing (the next is ${last.chain_seq})`,
    });
    await owner.query('DELETE FROM audit_log WHERE chain_seq = $1', [last.chain_seq]);
    expect((await verifyAuditChain(owner)).mismatch).toMatchObject({
      id: null,
      reason: `the chain head names row ${last.chain_seq}, the log ends at row ${Number(beforeLast.chain_seq) - 1}`,
    });
    // Put back as they were (the trigger would rechain an insert: it is switched off for the owner's repair).
    await owner.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_chain');
    for (const row of [beforeLast, last])
      await owner.query('INSERT INTO audit_log OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_record(null::audit_log, $1::json)', [
        row.row,
      ]);
    await owner.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_chain');
    expect((await verifyAuditChain(owner)).mismatch).toBeNull();
  });

  it('npm run audit:verify exits 1 naming the row, 0 on an intact chain', async () => {
    const { execFile } = await import('node:child_process');
    const run = () =>
      new Promise<{ code: number; output: string }>((resolve) => {
        execFile(
          'npx',
          ['tsx', 'scripts/audit-verify.ts'],
          { env: { ...process.env, MIGRATION_DATABASE_URL: server.database.ownerUrl } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
        );
      });
    const intact = await run();
    expect(intact.output).toMatch(/The audit chain holds: \d+ rows checked/);
    expect(intact.code).toBe(0);
    const { rows } = await owner.query<{ id: string; chain_seq: string; action: string }>(
      'SELECT id, chain_seq, action FROM audit_log ORDER BY chain_seq LIMIT 1',
    );
    const first = rows[0]!;
    await owner.query(`UPDATE audit_log SET action = 'tampered' WHERE id = $1`, [first.id]);
    const broken = await run();
    expect(broken.code).toBe(1);
    expect(broken.output).toContain(
      `The audit chain is broken at row ${first.chain_seq} (id ${first.id}): its content does not match its hash`,
    );
    await owner.query('UPDATE audit_log SET action = $2 WHERE id = $1', [first.id, first.action]);
  }, 60_000);
});

describe("a loan's Activity", () => {
  it("lists the loan's rows newest first, naming another organization by its name only", async () => {
    const loan = await servicedByHome();
    const request = await requestServicerTransfer(loan.id);
    expect((await foreign.patch(PATHS.messages, { uuid: request.messageId, response: false })).statusCode).toBe(200);
    const response = await home.get(PATHS.loanActivity(loan.id), { query: { limit: '10' } });
    expect(response.statusCode, response.body).toBe(200);
    const page = loanActivityPageSchema.parse(response.json());
    expect(page.totalCount).toBe(2);
    expect(page.entries.map((entry) => entry.action)).toEqual(['role-transfer.rejected', 'role-transfer.requested']);
    expect(page.entries[0]).toMatchObject({
      actingOrganizationName: 'foreign org',
      actorEmail: null,
      actorUserId: null,
      clientAddress: null,
    });
    expect(page.entries[1]).toMatchObject({
      actingOrganizationName: 'home org',
      actorEmail: 'home@audit.test',
      clientAddress: '127.0.0.1',
    });
    // The receiver, asked and now holding no role, took part: 410 as on the asset page; a stranger learns nothing (404).
    expect((await foreign.get(PATHS.loanActivity(loan.id))).statusCode).toBe(410);
    expect((await stranger.get(PATHS.loanActivity(loan.id))).statusCode).toBe(404);
    expect((await stranger.get(PATHS.loanActivity(randomUUID()))).statusCode).toBe(404);
    expect((await server.anonymous.as(ids.home).get(PATHS.loanActivity(loan.id))).statusCode).toBe(401);
  });

  it('pages', async () => {
    const loan = await servicedByHome();
    const request = await requestServicerTransfer(loan.id);
    await foreign.patch(PATHS.messages, { uuid: request.messageId, response: true });
    const second = await foreign.get(PATHS.loanActivity(loan.id), { query: { limit: '10', offset: '1' } });
    const page = loanActivityPageSchema.parse(second.json());
    expect(page.totalCount).toBe(2);
    expect(page.entries.map((entry) => entry.action)).toEqual(['role-transfer.requested']);
  });
});

describe('the staff search of the whole log', () => {
  it('filters by organization, user, entity and time', async () => {
    const byUser = auditSearchPageSchema.parse(
      (await staff.get(PATHS.auditLog, { query: { user: 'foreign@audit', limit: '100' } })).json(),
    );
    expect(byUser.totalCount).toBeGreaterThan(0);
    expect(byUser.entries.every((entry) => entry.actorEmail === 'foreign@audit.test')).toBe(true);
    const byOrganization = auditSearchPageSchema.parse(
      (await staff.get(PATHS.auditLog, { query: { participantId: ids.foreign, targetType: 'role-request', limit: '100' } })).json(),
    );
    expect(byOrganization.entries.length).toBeGreaterThan(0);
    expect(byOrganization.entries.every((entry) => entry.actingOrganizationId === ids.foreign)).toBe(true);
    const loan = byOrganization.entries[0]!.loanId!;
    const byEntity = auditSearchPageSchema.parse((await staff.get(PATHS.auditLog, { query: { entityId: loan } })).json());
    expect(byEntity.entries.every((entry) => entry.loanId === loan)).toBe(true);
    const future = auditSearchPageSchema.parse((await staff.get(PATHS.auditLog, { query: { from: '2999-01-01' } })).json());
    expect(future.totalCount).toBe(0);
    const bad = await staff.get(PATHS.auditLog, { query: { from: 'yesterday' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('from must be a date or date-time');
  });

  it('exports the filtered view as formula-safe CSV', async () => {
    await server.db.execute(sql`INSERT INTO audit_log (action, target_type, target_id) VALUES ('probe', 'formula', '=HYPERLINK("x")')`);
    const response = await staff.get(PATHS.auditLog, { query: { targetType: 'formula' }, headers: { accept: 'text/csv' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const records = parseCsv(response.body.replace(/^\uFEFF/, ''));
    expect(records[0]).toEqual([
      'chainSeq',
      'occurredAt',
      'actorUserId',
      'actorEmail',
      'actingOrganization',
      'clientAddress',
      'action',
      'targetType',
      'targetId',
      'loanId',
      'before',
      'after',
    ]);
    expect(records).toHaveLength(2);
    expect(records[1]![8]).toBe(`'=HYPERLINK("x")`);
  });

  it('is refused to anyone but registry staff', async () => {
    const response = await home.get(PATHS.auditLog);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: PERMISSION_REFUSALS['registry-staff'] });
  });
});
