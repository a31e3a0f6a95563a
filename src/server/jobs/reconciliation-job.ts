// The reconciliation of a loan tape: reads the stored tape chunk by chunk through a streaming CSV
// parser, stages its rows in a temporary table by COPY, and lets PostgreSQL compare them with the
// organization's loans in a few set-based statements (reconciliation-repository.ts). Nothing in
// the registry is written but the report.
//
// Bounded memory: one chunk of the tape and the parser's current record at a time; the COPY's
// backpressure holds the parser. Idempotent: the staging and the report are one transaction, so an
// attempt stopped half-way (a restart) leaves nothing, and the next reads the tape again.
import { once } from 'node:events';
import { parse, type CsvError } from 'csv-parse';
import { z } from 'zod';
import { RECONCILIATION_TEXTS, type TapeColumns, type TapeField } from '../../domain/reconciliation';
import { updateJob } from '../db/job-repository';
import {
  deleteDifferences,
  deleteTape,
  findReconciliation,
  openStaging,
  readTapeChunk,
  stagedLine,
  unreadableLine,
  type StagedRow,
} from '../db/reconciliation-repository';
import type { JobFailureHandler, JobHandler } from './job-runner';

export const reconciliationDataSchema = z.object({ jobId: z.uuid() });

/** How often progress reaches the jobs table. */
const PROGRESS_INTERVAL_MS = 300;
/** A record longer than this is unreadable (a quote left open swallows the rest of the file otherwise whole). */
const MAX_RECORD_BYTES = 1024 * 1024;
/** Characters of staged rows written to the COPY at once. */
const COPY_BATCH_CHARS = 256 * 1024;

/**
 * The CSV parser for tapes: any line ending, a BOM dropped, stray quotes kept as text, a bad record
 * skipped. Line numbers are counted by the reader (csv-parse's `info` made parsing three times slower);
 * blank lines come as records of one empty cell so that they count.
 */
export function tapeParser() {
  return parse({
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_records_with_error: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_BYTES,
  });
}

const newlines = (cells: readonly string[]) => cells.reduce((sum, cell) => sum + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);

/** A tape record as staged, or why it cannot be read. */
export function stageRecord(cells: readonly string[], line: number, columns: TapeColumns, width: number): StagedRow | string {
  if (cells.length !== width) return RECONCILIATION_TEXTS.columnCount(cells.length, width);
  const cell = (field: TapeField) => {
    const index = columns[field];
    return index === undefined ? undefined : (cells[index] ?? '').trim();
  };
  const uli = cell('uli')?.toUpperCase() || null;
  const loanNumber = cell('loanNumber') || null;
  const key = columns.uli !== undefined ? uli : loanNumber;
  if (!key) return RECONCILIATION_TEXTS.noKey;
  const values: Partial<Record<TapeField, string>> = {};
  for (const field of ['owner', 'servicer', 'subServicer', 'controller', 'securedParty', 'status'] as const) {
    const value = cell(field);
    if (value !== undefined) values[field] = value;
  }
  return { line, uli, loanNumber, values };
}

export const runReconciliation: JobHandler = async (context, data) => {
  const { db, log } = context;
  const { jobId } = reconciliationDataSchema.parse(data);
  const job = await findReconciliation(db, jobId);
  if (!job || job.status === 'DONE' || job.status === 'FAILED') return;

  await deleteDifferences(db, jobId);
  await updateJob(db, jobId, { status: 'RUNNING', progress: 0, error: null });
  const width = Math.max(...Object.values(job.columns).map((index) => index + 1));
  const key = job.columns.uli !== undefined ? 'uli' : 'loanNumber';

  const startedAt = Date.now();
  const staging = await openStaging(db, jobId);
  try {
    const parser = tapeParser();
    let header = true;
    let rows = 0;
    let headerWidth = width;
    /** The line the next record starts on. */
    let nextLine = 1;
    // Rows go to the COPY in batches (a write per row made a socket write per row); while the COPY
    // catches up, the parser waits, and with it the reading of the tape.
    let batch = '';
    const flush = () => {
      if (!batch) return;
      const ready = staging.rows.write(batch);
      batch = '';
      if (!ready) {
        parser.pause();
        staging.rows.once('drain', () => parser.resume());
      }
    };
    // Records and skipped ones arrive in the file's order ('data', not an async iterator that buffers).
    parser.on('data', (record: string[]) => {
      const line = nextLine;
      nextLine += 1 + newlines(record);
      if (record.length === 1 && record[0] === '') return;
      if (header) {
        header = false;
        headerWidth = Math.max(width, record.length);
        return;
      }
      rows += 1;
      const staged = stageRecord(record, line, job.columns, headerWidth);
      if (typeof staged === 'string') staging.unreadable.write(unreadableLine(jobId, line, staged));
      else {
        batch += stagedLine(jobId, staged);
        if (batch.length >= COPY_BATCH_CHARS) flush();
      }
    });
    parser.on('skip', (error: CsvError & { lines?: number }) => {
      rows += 1;
      const line = error.lines ?? nextLine;
      staging.unreadable.write(unreadableLine(jobId, line, RECONCILIATION_TEXTS.malformedRow(error.message.split(':')[0] ?? error.code)));
      nextLine = line + 1;
    });
    const parsed = new Promise<void>((resolve, reject) => {
      parser.on('end', () => {
        flush();
        resolve();
      });
      parser.on('error', reject);
    });

    let read = 0;
    let reported = Date.now();
    for (let chunkNo = 0; ; chunkNo++) {
      await context.step();
      const chunk = await readTapeChunk(db, jobId, chunkNo);
      if (!chunk) break;
      if (!parser.write(chunk)) await once(parser, 'drain');
      read += chunk.length;
      if (Date.now() - reported >= PROGRESS_INTERVAL_MS) {
        reported = Date.now();
        await updateJob(db, jobId, { progress: read }, 'RUNNING');
      }
    }
    parser.end();
    await parsed;
    await staging.endCopy();
    const staged = Date.now();
    await updateJob(db, jobId, { progress: read }, 'RUNNING');
    const counts = await staging.compare(jobId, job.participantId, key, job.fields, rows);
    await staging.release();
    log.info({ jobId, rows, counts, stagingMs: staged - startedAt, compareMs: Date.now() - staged }, 'tape reconciled');
  } catch (error) {
    await staging.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
};

/** The last attempt failed: the job shows FAILED with a message the user can read, and its tape goes. */
export const reconciliationFailed: JobFailureHandler = async (context, data) => {
  const parsed = reconciliationDataSchema.safeParse(data);
  if (!parsed.success) return;
  const { jobId } = parsed.data;
  await deleteTape(context.db, jobId);
  const job = await findReconciliation(context.db, jobId);
  if (!job || job.status === 'DONE') return;
  await updateJob(context.db, jobId, { status: 'FAILED', error: RECONCILIATION_TEXTS.failed });
};
