// The reconciliation scenario of `npm run bench`: a loan tape of 400,000 rows against the largest
// organization, uploaded with curl (its own process: the upload's buffers are not the server's),
// compared by the server's own job runner. The tape is written by PostgreSQL (COPY ... TO STDOUT
// straight into a file): the organization's loans, every 100th left out (missing from the tape),
// every 100th servicer changed (a difference), and made-up loans (not in the registry) up to
// 400,000 rows. Measures the time from the upload until GET v4 /reconciliations says DONE, and the
// server's RSS growth over that time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { reconciliationListSchema, reconciliationSchema, TAPE_FILE_FIELD, type Reconciliation } from '../src/contract/reconciliation';
import { PATHS } from '../src/contract/paths';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import { loanBenchData } from './bench-loans';

export const RECONCILE_SCENARIO = 'reconcile a 400,000-row tape';
export const RECONCILE_TAPE_ROWS = 400_000;
/** The upload and the job may take this long at most. */
const RECONCILE_TIMEOUT_MS = 600_000;
const MB = 1024 * 1024;

export interface ReconcileBenchReport {
  readonly organizationLoans: number;
  readonly tapeRows: number;
  readonly tapeBytes: number;
  readonly uploadSeconds: number;
  /** From the upload's start until DONE. */
  readonly seconds: number;
  readonly counts: NonNullable<Reconciliation['counts']>;
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  readonly rssGrowthMb: number;
  readonly rssSamples: number;
}

export interface ReconcileBenchContext {
  readonly connectionString: string;
  readonly baseUrl: string;
  readonly cookieFor: (email: string) => Promise<string>;
  /** The server process's RSS in bytes. */
  readonly residentBytes: () => number;
}

/** Writes the tape into `file` (PostgreSQL makes the CSV); answers its rows. */
async function writeTape(connectionString: string, participantId: string, file: string): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const query = `
      WITH org AS (
        SELECT l.uli, l.loan_number, l.status, e.owner_name, e.servicer_name, row_number() OVER (ORDER BY e.loan_id) AS n
        FROM loan_list_entries e JOIN loans l ON l.id = e.loan_id WHERE e.participant_id = '${participantId}'
      ), kept AS (
        SELECT * FROM org WHERE n % 100 <> 1 ORDER BY n LIMIT ${RECONCILE_TAPE_ROWS}
      )
      SELECT uli AS "ULI", loan_number AS "Loan Number", owner_name AS "Owner",
        CASE WHEN n % 100 = 2 THEN 'Changed Servicing LLC' ELSE servicer_name END AS "Servicer", status AS "Status"
      FROM kept
      UNION ALL
      SELECT 'BENCH' || lpad(g::text, 19, '0'), 'BENCH-' || g, 'Nobody', 'Nobody Servicing', 'Active'
      FROM generate_series(1, greatest(0, ${RECONCILE_TAPE_ROWS} - (SELECT count(*) FROM kept))) AS g`;
    if (!/^[0-9a-f-]{36}$/.test(participantId)) throw new Error('not a participant id');
    await pipeline(client.query(copyTo(`COPY (${query}) TO STDOUT WITH (FORMAT csv, HEADER true)`)), fs.createWriteStream(file));
    return RECONCILE_TAPE_ROWS;
  } finally {
    await client.end();
  }
}

/** curl -F: the multipart upload from the file, in a process of its own. */
function curlUpload(url: string, headers: Record<string, string>, file: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const args = ['-s', '-o', '-', '-w', '\n%{http_code}', '-F', `${TAPE_FILE_FIELD}=@${file};type=text/csv`];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    const child = spawn('curl', [...args, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const at = output.lastIndexOf('\n');
      resolve({ status: Number(output.slice(at + 1)), body: output.slice(0, at) });
    });
  });
}

export async function runReconcileBench(context: ReconcileBenchContext): Promise<{ report?: ReconcileBenchReport; skipped?: string }> {
  const data = await loanBenchData(context.connectionString);
  if (!data) return { skipped: 'no organization holds loans' };
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tape-'));
  const file = path.join(folder, 'tape.csv');
  try {
    const tapeRows = await writeTape(context.connectionString, data.participantId, file);
    const tapeBytes = fs.statSync(file).size;
    const headers = { cookie: await context.cookieFor(data.email), [PARTICIPANT_HEADER]: data.participantId };

    const before = context.residentBytes();
    let peak = before;
    let samples = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, context.residentBytes());
      samples++;
    }, 20);
    try {
      const started = performance.now();
      const response = await curlUpload(
        context.baseUrl + PATHS.reconciliations,
        { ...headers, origin: new URL(context.baseUrl).origin },
        file,
      );
      if (response.status !== 202)
        return { skipped: `POST ${PATHS.reconciliations} answered ${response.status}: ${response.body.slice(0, 160)}` };
      const uploadSeconds = (performance.now() - started) / 1000;
      const job = reconciliationSchema.parse(JSON.parse(response.body));
      let current: Reconciliation | undefined;
      while (performance.now() - started < RECONCILE_TIMEOUT_MS) {
        const listed = await fetch(context.baseUrl + PATHS.reconciliations, { headers });
        current = reconciliationListSchema.parse(await listed.json()).find((candidate) => candidate.jobId === job.jobId);
        if (current?.status === 'DONE' || current?.status === 'FAILED') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      peak = Math.max(peak, context.residentBytes());
      if (current?.status !== 'DONE' || !current.counts)
        return { skipped: `the job ended ${current?.status ?? 'nowhere'}: ${current?.error ?? 'timed out'}` };
      return {
        report: {
          organizationLoans: data.loans,
          tapeRows,
          tapeBytes,
          uploadSeconds,
          seconds,
          counts: current.counts,
          rssBeforeMb: before / MB,
          rssPeakMb: peak / MB,
          rssGrowthMb: (peak - before) / MB,
          rssSamples: samples,
        },
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
