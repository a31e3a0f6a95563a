// The deactivation scenario of `npm run bench`: POST v1 /loans/{loanId}/deactivate with
// a 10 MB PDF, as the form sends it (multipart, SPEC section 7's names). A loan takes one request
// (a second is 409), so the bench creates active loans for the largest organization, each
// submitted once (warm-up and measured requests never share one), and removes them afterwards,
// which leaves a kept data folder as it was. The server's job runner processes the requests
// meanwhile, as it would in production.
//
// Uploads of 10 MB are not a many-at-once workload (a person fills in a form first), and each one
// costs tens of milliseconds of CPU on both sides (multipart parsing, SHA-256, PostgreSQL writing
// 10 MB to its table and WAL): the scenario runs two at a time (BENCH_DEACTIVATION_CONCURRENCY),
// in a child process (this module, forked with --deactivation-client) so the load does not share
// the server's event loop.
import { randomBytes, randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PATHS } from '../src/contract/paths';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import { uliCheckDigits } from '../src/domain/uli';
import { runClosedLoop, type LoadResult } from './bench-load';
import { loanBenchData } from './bench-loans';

export const DEACTIVATION_SCENARIO = 'deactivation submit (10 MB PDF)';
export const DEACTIVATION_CONCURRENCY = Number(process.env.BENCH_DEACTIVATION_CONCURRENCY) || 2;
export const DEACTIVATION_PDF_BYTES = 10 * 1024 * 1024;
/** Loans made for the scenario, found again by this loan-number prefix (also after an interrupted run). */
const LOAN_NUMBER_PREFIX = 'BENCH-DEACT-';
/** Enough for the warm-up and the measured run at the pace a 2-core machine takes. */
const LOANS_PER_RUN = 600;
const CLIENT_FLAG = '--deactivation-client';
const BENCH_LEI = '5493001KJTIIGC8Y1R12';

export interface DeactivationLoadOptions {
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly timeoutMs: number;
}

interface ClientRun {
  readonly type: 'run';
  readonly baseUrl: string;
  readonly cookie: string;
  readonly participantId: string;
  readonly loanIds: readonly string[];
  readonly concurrency: number;
  readonly options: DeactivationLoadOptions;
}

type ClientAnswer = { readonly type: 'result'; readonly result: LoadResult } | { readonly type: 'error'; readonly message: string };

// ---------------------------------------------------------------------------------------------
// The load generator (child process).

/**
 * A 10 MB PDF shaped like a scan: a few text objects, then one image stream of incompressible
 * bytes (as JPEG or Flate data is), then the trailer. The text up front matters: PostgreSQL tries
 * to compress a stored value whose start compresses, so a PDF of random bytes alone would flatter.
 */
function scannedPdf(size: number): Buffer {
  const head = Buffer.from(
    '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n' +
      '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' +
      '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
      '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>\nendobj\n' +
      '5 0 obj\n<< /Length 44 >>\nstream\nq 612 0 0 792 0 0 cm /Im1 Do Q\nendstream\nendobj\n',
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 6 >>\n%%EOF\n');
  const imageLength = size - head.length - tail.length - 256;
  const imageHead = Buffer.from(
    `4 0 obj\n<< /Type /XObject /Subtype /Image /Width 2550 /Height 3300 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${imageLength} >>\nstream\n`,
  );
  const pdf = Buffer.concat([head, imageHead, randomBytes(imageLength), tail]);
  return Buffer.concat([pdf, Buffer.alloc(size - pdf.length, 0x0a)]);
}

/** The form's fields and the PDF in one multipart body. */
function multipartBody(): { body: Buffer; contentType: string } {
  const boundary = `----registry-bench-${randomUUID()}`;
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
    instrumentNumber: '2026-0001234',
  };
  const pdf = scannedPdf(DEACTIVATION_PDF_BYTES);
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const body = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="securityInstrumentAndAssignment"; filename="instrument.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function runClient(run: ClientRun): Promise<LoadResult> {
  const { body, contentType } = multipartBody();
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  const submit = (loanId: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const request = http.request(
        run.baseUrl + PATHS.loanDeactivate(loanId),
        {
          method: 'POST',
          agent,
          signal: AbortSignal.timeout(run.options.timeoutMs),
          headers: {
            origin: new URL(run.baseUrl).origin,
            cookie: run.cookie,
            [PARTICIPANT_HEADER]: run.participantId,
            'content-type': contentType,
            'content-length': String(body.length),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve(response.statusCode === 202 ? undefined : `status ${response.statusCode}: ${text.slice(0, 120)}`),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  const result = await runClosedLoop(DEACTIVATION_SCENARIO, { ...run.options, concurrency: run.concurrency }, () => {
    const loanId = run.loanIds[next];
    if (loanId === undefined) return undefined;
    next++;
    return () => submit(loanId);
  });
  agent.destroy();
  return result;
}

if (process.argv.includes(CLIENT_FLAG) && process.send) {
  process.on('disconnect', () => process.exit(0));
  process.once('message', (run: ClientRun) => {
    runClient(run).then(
      (result) => process.send?.({ type: 'result', result } satisfies ClientAnswer),
      (error: unknown) =>
        process.send?.({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies ClientAnswer),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The loans (parent process).

/** Removes the scenario's loans (and what cascades: parties, events, documents, requests) and their messages. */
async function removeBenchLoans(client: pg.Client): Promise<number> {
  const ids = (await client.query<{ id: string }>(`SELECT id FROM loans WHERE loan_number LIKE $1`, [`${LOAN_NUMBER_PREFIX}%`])).rows.map(
    (row) => row.id,
  );
  if (ids.length === 0) return 0;
  await client.query(`DELETE FROM messages WHERE target_type = 'LOAN' AND target_id = ANY($1::text[])`, [ids]);
  await client.query(`DELETE FROM loans WHERE id = ANY($1::uuid[])`, [ids]);
  return ids.length;
}

/** Active loans the organization owns, made for the scenario (valid ULIs, one OWNER party each). */
async function createBenchLoans(client: pg.Client, participantId: string, count: number): Promise<string[]> {
  const run = Date.now().toString(36).toUpperCase().slice(-7);
  const ulis = Array.from({ length: count }, (_, index) => {
    const body = `${BENCH_LEI}BD${run}${String(index).padStart(6, '0')}`;
    return `${body}${uliCheckDigits(body)}`;
  });
  const created = await client.query<{ loan_id: string }>(
    `WITH created AS (
       INSERT INTO loans (uli, loan_number, loan_type, status, note_amount, note_date, borrower_first_name, borrower_last_name,
         property_street1, property_city, property_state, property_zip)
       SELECT u.uli, $2 || u.n, 'FIGURE_HELOC', 'Active', 100000, current_date, 'Bench', 'Deactivation',
         '1 Bench Street', 'Springfield', 'IL', '62701'
       FROM unnest($1::text[]) WITH ORDINALITY AS u(uli, n)
       RETURNING id)
     INSERT INTO loan_parties (loan_id, role, state, participant_id)
     SELECT id, 'OWNER', 'CONFIRMED', $3 FROM created RETURNING loan_id`,
    [ulis, LOAN_NUMBER_PREFIX, participantId],
  );
  return created.rows.map((row) => row.loan_id);
}

/** Waits (bounded) until the job runner has completed every request on the scenario's loans, so removing them races no job. */
async function waitForProcessing(client: pg.Client, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = (
      await client.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM deactivation_requests d JOIN loans l ON l.id = d.loan_id
         WHERE l.loan_number LIKE $1 AND d.status <> 'COMPLETED'`,
        [`${LOAN_NUMBER_PREFIX}%`],
      )
    ).rows[0]?.count as number;
    if (waiting === 0 || Date.now() > deadline) return waiting;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface DeactivationBenchOutcome {
  readonly result?: LoadResult;
  /** Why the scenario did not run. */
  readonly skipped?: string;
  /** Requests the job runner had not completed when the loans were removed (0 expected). */
  readonly unprocessed?: number;
}

/** Creates the loans, runs the submits from a child process, waits for their processing and removes the loans. */
export async function runDeactivationBench(input: {
  readonly connectionString: string;
  readonly baseUrl: string;
  readonly cookieFor: (email: string) => Promise<string>;
  readonly options: DeactivationLoadOptions;
}): Promise<DeactivationBenchOutcome> {
  const data = await loanBenchData(input.connectionString);
  if (!data) return { skipped: 'no organization holds loans' };
  const client = new pg.Client({ connectionString: input.connectionString });
  await client.connect();
  try {
    await removeBenchLoans(client);
    const loanIds = await createBenchLoans(client, data.participantId, LOANS_PER_RUN);
    const cookie = await input.cookieFor(data.email);
    process.stdout.write(`  ${DEACTIVATION_SCENARIO} (${DEACTIVATION_CONCURRENCY} concurrent, ${loanIds.length} loans made for it)...`);
    const child = fork(fileURLToPath(import.meta.url), [CLIENT_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answer: ClientAnswer;
    try {
      answer = await new Promise<ClientAnswer>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${DEACTIVATION_SCENARIO}: no answer`)),
          input.options.warmupMs + input.options.durationMs + 2 * input.options.timeoutMs + 30_000,
        );
        child.once('message', (message: ClientAnswer) => {
          clearTimeout(timer);
          resolve(message);
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`the deactivation load generator exited (${code})`));
        });
        child.send({
          type: 'run',
          baseUrl: input.baseUrl,
          cookie,
          participantId: data.participantId,
          loanIds,
          concurrency: DEACTIVATION_CONCURRENCY,
          options: input.options,
        } satisfies ClientRun);
      });
    } finally {
      child.removeAllListeners('exit');
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (answer.type === 'error') throw new Error(`${DEACTIVATION_SCENARIO}: ${answer.message}`);
    const result = answer.result;
    // A run without one success has no p95 (NaN, null once it crossed the IPC channel).
    process.stdout.write(` ${result.count} requests, p95 ${typeof result.p95 === 'number' ? result.p95.toFixed(2) : '-'} ms\n`);
    const unprocessed = await waitForProcessing(client, 60_000);
    return { result, unprocessed };
  } finally {
    await removeBenchLoans(client).catch((error: unknown) =>
      console.error(`  could not remove the deactivation bench loans: ${error instanceof Error ? error.message : String(error)}`),
    );
    await client.end();
  }
}
