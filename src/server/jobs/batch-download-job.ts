// The batch download of assignment documents (AOMs): zips the ASSIGNMENT documents of the job's
// loans (one folder per loan, named by its ULI) with a manifest.csv (loan ULI, file name, SHA-256
// of every file) into job_files, chunk by chunk, so any server can stream it later.
//
// Bounded memory: document contents are read in small batches (by count and size) and a batch is
// read only when the zip has written out what came before; the zip leaves in 1 MiB chunks.
// Idempotent: an attempt starts by deleting the chunks a previous attempt left.
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import yazl from 'yazl';
import { MAX_BATCH_LOANS, ZIP_MANIFEST_FILE, ZIP_MANIFEST_HEADERS } from '../../contract/jobs';
import { BATCH_DOWNLOAD_TEXTS } from '../../domain/texts';
import { neutralizeCell } from '../csv/loan-csv';
import {
  deleteJobFile,
  findJob,
  insertJobFileChunk,
  listAssignmentDocuments,
  readDocumentContents,
  updateJob,
  type AssignmentDocumentRow,
} from '../db/job-repository';
import type { JobContext, JobFailureHandler, JobHandler } from './job-runner';

/** The job's data in pg-boss: the product job's id and the loans resolved when it was requested. */
export const batchDownloadDataSchema = z.object({
  jobId: z.uuid(),
  loanIds: z.array(z.uuid()).max(MAX_BATCH_LOANS),
});
export type BatchDownloadData = z.infer<typeof batchDownloadDataSchema>;

/** Size of a stored chunk of the zip. */
export const ZIP_CHUNK_BYTES = 1024 * 1024;
/** Most document bytes read in one query, and most zip bytes not yet stored. */
const READ_BATCH_BYTES = 2 * 1024 * 1024;
const READ_BATCH_DOCUMENTS = 64;
/** How often progress reaches the jobs table (also shows the job is alive). */
const PROGRESS_INTERVAL_MS = 300;

/** The file's place in the zip: `<ULI>/<file name>`, with path separators and control characters out. */
export function zipEntryName(uli: string, fileName: string, taken: Set<string>): string {
  // Path separators and control characters (code points below 32, and 127) become '_'.
  const clean = (text: string) =>
    [...text].map((char) => (char === '/' || char === '\\' || char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127 ? '_' : char)).join('');
  const safe = (text: string) => clean(text).replace(/^\.+/, '_') || 'document.pdf';
  const folder = safe(uli);
  const base = safe(fileName);
  let name = `${folder}/${base}`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) {
    const dot = base.lastIndexOf('.');
    name = dot > 0 ? `${folder}/${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${folder}/${base} (${n})`;
  }
  taken.add(name.toLowerCase());
  return name;
}

/** One CSV line, fields quoted when needed and formula starts neutralised. */
export function csvLine(fields: readonly string[]): string {
  return (
    fields
      .map((field) => neutralizeCell(field))
      .map((field) => (/[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field))
      .join(',') + '\r\n'
  );
}

/** Splits documents into read batches bounded by count and bytes. */
function* readBatches(documents: readonly AssignmentDocumentRow[]): Generator<AssignmentDocumentRow[]> {
  let batch: AssignmentDocumentRow[] = [];
  let bytes = 0;
  for (const document of documents) {
    if (batch.length > 0 && (batch.length >= READ_BATCH_DOCUMENTS || bytes + document.sizeBytes > READ_BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(document);
    bytes += document.sizeBytes;
  }
  if (batch.length > 0) yield batch;
}

/** Writes the zip's output into job_files in chunks; `written` counts the bytes seen so far. */
class ChunkWriter {
  written = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private chunkNo = 0;
  private waiters: (() => void)[] = [];
  failure: unknown;

  constructor(
    private readonly context: JobContext,
    private readonly jobId: string,
  ) {}

  async consume(output: NodeJS.ReadableStream): Promise<number> {
    try {
      for await (const piece of output as AsyncIterable<Buffer>) {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
        if (this.pendingBytes >= ZIP_CHUNK_BYTES) await this.flush();
        this.written += piece.length;
        this.wake();
      }
      await this.flush();
      return this.chunkNo;
    } catch (error) {
      this.failure = error;
      this.wake();
      throw error;
    }
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await insertJobFileChunk(this.context.db, this.jobId, this.chunkNo, bytes);
    this.chunkNo += 1;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once at most `limit` of the `added` bytes are still on their way out. */
  async catchUp(added: number, limit: number): Promise<void> {
    while (added - this.written > limit) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    if (this.failure) throw this.failure;
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export const runBatchDownloadAoms: JobHandler = async (context, data) => {
  const { db, log } = context;
  const { jobId, loanIds } = batchDownloadDataSchema.parse(data);
  const job = await findJob(db, jobId);
  // Gone (its organization deleted) or already finished by an earlier attempt: nothing to do.
  if (!job || job.status === 'DONE' || job.status === 'FAILED') return;

  await deleteJobFile(db, jobId);
  const documents = await listAssignmentDocuments(db, loanIds);
  await updateJob(db, jobId, { status: 'RUNNING', progress: 0, total: documents.length, error: null, resultSizeBytes: null });

  const zip = new yazl.ZipFile();
  const writer = new ChunkWriter(context, jobId);
  const stored = writer.consume(zip.outputStream);
  // A failure of the writer surfaces through catchUp; keep it from being reported unhandled meanwhile.
  stored.catch(() => undefined);

  const taken = new Set<string>();
  const manifest = [csvLine(ZIP_MANIFEST_HEADERS)];
  const leftOut: string[] = [];
  let added = 0;
  let progress = 0;
  let reported = Date.now();
  try {
    for (const batch of readBatches(documents)) {
      await writer.catchUp(added, READ_BATCH_BYTES);
      const contents = await readDocumentContents(
        db,
        batch.map((document) => document.id),
      );
      for (const document of batch) {
        await context.step();
        const content = contents.get(document.id);
        progress += 1;
        if (!content) continue; // deleted since the job started
        const hash = sha256(content);
        if (hash !== document.hash) {
          // Content that no longer matches its SHA-256 is never handed out as sound.
          leftOut.push(csvLine([document.uli, document.fileName, BATCH_DOWNLOAD_TEXTS.hashMismatch]));
          log.warn({ documentId: document.id }, 'assignment left out of the zip: content does not match its SHA-256');
          continue;
        }
        const name = zipEntryName(document.uli, document.fileName, taken);
        // Stored, not deflated: PDFs are mostly compressed already, and storing keeps the job fast.
        // A lazy stream, not addBuffer: yazl keeps an addBuffer entry's bytes until the zip ends,
        // which would hold every document in memory; this holder lets go once they are written.
        const holder: { content: Buffer | null } = { content };
        zip.addReadStreamLazy(name, { compress: false, mtime: document.createdAt, size: content.length }, (callback) => {
          const stream = new PassThrough();
          stream.end(holder.content);
          holder.content = null;
          callback(null, stream);
        });
        added += content.length;
        manifest.push(csvLine([document.uli, name.slice(name.indexOf('/') + 1), hash]));
        if (Date.now() - reported >= PROGRESS_INTERVAL_MS) {
          reported = Date.now();
          await updateJob(db, jobId, { progress }, 'RUNNING');
        }
      }
    }
    zip.addBuffer(Buffer.from(manifest.join(''), 'utf8'), ZIP_MANIFEST_FILE, { compress: true });
    if (leftOut.length > 0) {
      const header = csvLine(['Loan ULI', 'File Name', 'Reason']);
      zip.addBuffer(Buffer.from(header + leftOut.join(''), 'utf8'), 'left-out.csv', { compress: true });
    }
    zip.end();
    await stored;
  } catch (error) {
    // Stop the writer; the next attempt deletes what it stored.
    (zip.outputStream as NodeJS.ReadableStream & { destroy?: (error?: Error) => void }).destroy?.();
    throw error;
  }
  await updateJob(db, jobId, { status: 'DONE', progress: documents.length, resultSizeBytes: writer.written }, 'RUNNING');
  log.info({ jobId, documents: documents.length, bytes: writer.written }, 'assignment zip stored');
};

/** The last attempt failed: the job shows FAILED with a message the user can read, and its chunks go. */
export const batchDownloadAomsFailed: JobFailureHandler = async (context, data) => {
  const parsed = batchDownloadDataSchema.safeParse(data);
  if (!parsed.success) return;
  const { jobId } = parsed.data;
  await deleteJobFile(context.db, jobId);
  const job = await findJob(context.db, jobId);
  if (!job || job.status === 'DONE') return;
  await updateJob(context.db, jobId, { status: 'FAILED', error: BATCH_DOWNLOAD_TEXTS.failed });
};
