// The batch download scenario of `npm run bench`: a BATCH_DOWNLOAD_AOMS job over 1,000
// loans of the largest organization, each holding a 200 KB assignment the bench inserts (once per
// data folder; a kept folder finds them again by name), run by the server's own job runner, then
// its zip streamed by the load generator. Measures the zip's streaming rate and the server's RSS
// growth from the request until the zip is read (the job's build and the stream).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { jobListSchema, jobSchema, type Job } from '../src/contract/jobs';
import { PATHS } from '../src/contract/paths';
import { DEFAULT_ROLE_FILTER } from '../src/domain/loan';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import type { DownloadResult, DownloadSpec } from './bench-load';
import { makeSizedPdf } from './bench-documents';
import { loanBenchData } from './bench-loans';

export const ZIP_SCENARIO = 'assignment zip (1,000 documents)';
export const BENCH_ZIP_LOANS = 1_000;
export const BENCH_ASSIGNMENT_BYTES = 200 * 1024;
export const BENCH_ASSIGNMENT_NAME = 'Assignment of Mortgage (bench, 200 KB)';
/** The job's build and the download may each take this long at most. */
export const ZIP_TIMEOUT_MS = 300_000;
const MB = 1024 * 1024;
const INSERT_BATCH = 100;

export interface ZipBenchReport {
  readonly loans: number;
  /** ASSIGNMENT documents the job zipped (the bench's 200 KB ones and the seed's own). */
  readonly documents: number;
  readonly insertedDocuments: number;
  readonly zipBytes: number;
  /** From POST v4 /jobs until GET v4 /jobs says DONE. */
  readonly buildSeconds: number;
  readonly streamSeconds: number;
  readonly streamMbPerSecond: number;
  /** Server process RSS right before the request, and its peak until the zip was read. */
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  readonly rssGrowthMb: number;
  /** The peak while the job built the zip (before the download started). */
  readonly rssBuildPeakMb: number;
  readonly rssSamples: number;
}

export interface ZipBenchContext {
  readonly connectionString: string;
  readonly baseUrl: string;
  readonly cookieFor: (email: string) => Promise<string>;
  /** The load generator's download (a separate process: it does not share the server's event loop). */
  readonly download: (spec: DownloadSpec) => Promise<DownloadResult>;
  /** The server process's RSS in bytes. */
  readonly residentBytes: () => number;
}

/** 1,000 loans of the largest organization, each with the bench's 200 KB assignment (inserted when missing). */
async function prepareLoans(
  connectionString: string,
  participantId: string,
): Promise<{ loanIds: string[]; inserted: number; documents: number }> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const loans = await client.query<{ loan_id: string }>(
      `SELECT DISTINCT loan_id FROM loan_parties WHERE participant_id = $1 AND role = ANY($2::text[]) ORDER BY loan_id LIMIT $3`,
      [participantId, [...DEFAULT_ROLE_FILTER], BENCH_ZIP_LOANS],
    );
    const loanIds = loans.rows.map((row) => row.loan_id);
    const missing = (
      await client.query<{ id: string }>(
        `SELECT u.id FROM unnest($1::uuid[]) AS u(id)
         WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.loan_id = u.id AND d.name = $2)`,
        [loanIds, BENCH_ASSIGNMENT_NAME],
      )
    ).rows.map((row) => row.id);
    if (missing.length > 0) {
      const content = await makeSizedPdf(BENCH_ASSIGNMENT_BYTES);
      const hash = createHash('sha256').update(content).digest('hex');
      for (let start = 0; start < missing.length; start += INSERT_BATCH) {
        await client.query(
          `INSERT INTO documents (loan_id, name, type, hash, file_name, file_type, content_type, doc_type, size_bytes, content)
           SELECT id, $2, 'ASSIGNMENT', $3, 'assignment-of-mortgage-recorded.pdf', 'pdf', 'application/pdf', 'ASSIGNMENT', $4, $5
           FROM unnest($1::uuid[]) AS id`,
          [missing.slice(start, start + INSERT_BATCH), BENCH_ASSIGNMENT_NAME, hash, content.length, content],
        );
      }
    }
    const counted = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents WHERE loan_id = ANY($1::uuid[]) AND type = 'ASSIGNMENT'`,
      [loanIds],
    );
    return { loanIds, inserted: missing.length, documents: counted.rows[0]?.n ?? 0 };
  } finally {
    await client.end();
  }
}

export async function runZipBench(context: ZipBenchContext): Promise<{ report?: ZipBenchReport; skipped?: string }> {
  const data = await loanBenchData(context.connectionString);
  if (!data) return { skipped: 'no organization holds loans' };
  const prepared = await prepareLoans(context.connectionString, data.participantId);
  if (prepared.loanIds.length < BENCH_ZIP_LOANS)
    return { skipped: `the largest organization holds ${prepared.loanIds.length} loans (< 1,000)` };
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
    const response = await fetch(context.baseUrl + PATHS.jobs, {
      method: 'POST',
      headers: { ...headers, origin: new URL(context.baseUrl).origin, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: prepared.loanIds }),
    });
    if (response.status !== 202)
      return { skipped: `POST ${PATHS.jobs} answered ${response.status}: ${(await response.text()).slice(0, 120)}` };
    const job = jobSchema.parse(await response.json());
    let current: Job | undefined;
    while (performance.now() - started < ZIP_TIMEOUT_MS) {
      const listed = await fetch(`${context.baseUrl}${PATHS.jobs}?type=BATCH_DOWNLOAD_AOMS`, { headers });
      current = jobListSchema.parse(await listed.json()).find((candidate) => candidate.jobId === job.jobId);
      if (current?.status === 'DONE' || current?.status === 'FAILED') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (current?.status !== 'DONE') return { skipped: `the job ended ${current?.status ?? 'nowhere'}: ${current?.error ?? 'timed out'}` };
    const buildSeconds = (performance.now() - started) / 1000;
    const buildPeak = Math.max(peak, context.residentBytes());

    const downloaded = await context.download({
      url: `${context.baseUrl}${PATHS.documentsZip}?jobId=${job.jobId}`,
      headers,
      timeoutMs: ZIP_TIMEOUT_MS,
    });
    peak = Math.max(peak, context.residentBytes());
    const length = Number(downloaded.headers['content-length']);
    if (downloaded.status !== 200 || downloaded.bytes !== length) {
      return { skipped: `zip: status ${downloaded.status}, ${downloaded.bytes} bytes of ${length}` };
    }
    const streamSeconds = downloaded.elapsedMs / 1000;
    return {
      report: {
        loans: prepared.loanIds.length,
        documents: current.total,
        insertedDocuments: prepared.inserted,
        zipBytes: downloaded.bytes,
        buildSeconds,
        streamSeconds,
        streamMbPerSecond: streamSeconds > 0 ? downloaded.bytes / MB / streamSeconds : 0,
        rssBeforeMb: before / MB,
        rssPeakMb: peak / MB,
        rssGrowthMb: (peak - before) / MB,
        rssBuildPeakMb: buildPeak / MB,
        rssSamples: samples,
      },
    };
  } finally {
    clearInterval(sampler);
  }
}
