// Reconciliation against a loan tape (our addition to SPEC section 7). POST v4 /reconciliations takes
// the tape (multipart, at most 50 MB), judges it by its first bytes and its header, stores it and
// queues its comparison (jobs/reconciliation-job.ts); GET v4 /reconciliations reports status and
// progress (and the counts once DONE); the report is paged and downloaded as CSV. A reconciliation
// belongs to its organization and user: anyone else's answers 404.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { parse as parseSync } from 'csv-parse/sync';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import { PATHS } from '../../contract/paths';
import {
  differencesPageSchema,
  differencesQuerySchema,
  MAX_UNFINISHED_RECONCILIATIONS,
  reconciliationListSchema,
  reconciliationMultipartSchema,
  reconciliationParamsSchema,
  reconciliationSchema,
  TAPE_FILE_FIELD,
  type Difference,
  type Reconciliation,
} from '../../contract/reconciliation';
import {
  hasLoanKey,
  RECONCILIATION_CSV_HEADERS,
  RECONCILIATION_TEXTS,
  reconciliationFileName,
  TAPE_MAX_BYTES,
  tapeColumns,
  type TapeColumns,
} from '../../domain/reconciliation';
import { csvLine, neutralizeCell, UTF8_BOM } from '../csv/loan-csv';
import type { JobOwner } from '../db/job-repository';
import type { ReconciliationRow } from '../db/reconciliation-repository';
import { ConflictError, NotFoundError } from '../domain-errors';
import { ApiError, badRequest, tooManyRequests } from '../http-errors';
import { JOB_QUEUES } from '../jobs/job-queues';
import { requireMembership } from '../plugins/access';

export const RECONCILIATION_NOT_FOUND = 'Reconciliation not found.';
export const RECONCILIATION_NOT_DONE = 'The reconciliation has not finished: its report is not ready.';
export const TOO_MANY_RECONCILIATIONS = `You have ${MAX_UNFINISHED_RECONCILIATIONS} reconciliations in progress: upload another tape when one has finished.`;
export const NOT_MULTIPART = `Send the tape as multipart/form-data, in the field '${TAPE_FILE_FIELD}'.`;
export const NO_TAPE = `${TAPE_FILE_FIELD}: ${RECONCILIATION_TEXTS.chooseFile}`;

/** Bytes of the tape read before it is judged (its header must lie within them). */
const HEAD_BYTES = 64 * 1024;
/** File names a tape may have (or none): a spreadsheet or a PDF saved under its own name is refused at once. */
const TAPE_EXTENSIONS = new Set(['', '.csv', '.txt']);

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const OWNERSHIP =
  "A reconciliation belongs to the organization (x-participant-id) and the user that started it; anyone else's answers 404.";

export function toReconciliation(row: ReconciliationRow): Reconciliation {
  return {
    jobId: row.jobId,
    status: row.status,
    progress: Math.min(row.progress, row.total),
    total: row.total,
    error: row.status === 'FAILED' ? (row.error ?? RECONCILIATION_TEXTS.failed) : null,
    fileName: row.fileName,
    rows: row.rows,
    fields: row.fields,
    counts: row.status === 'DONE' ? row.counts : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function ownerOf(request: FastifyRequest): JobOwner {
  const membership = requireMembership(request);
  const userId = request.registryUser?.id;
  if (!userId) throw new NotFoundError(RECONCILIATION_NOT_FOUND);
  return { participantId: membership.participant.id, userId };
}

/** A name fit to show: no folders, no control or format characters, not endless. */
function safeTapeName(name: string | undefined): string {
  const base = path
    .basename((name ?? '').replaceAll('\\', '/'))
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim();
  return (base || 'tape.csv').slice(0, 255);
}

/** Whether the bytes can be text: no NUL, and UTF-8 (a character cut at the end of the head allowed). */
function looksLikeText(head: Buffer, complete: boolean): boolean {
  if (head.includes(0)) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(head, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/** The tape's columns by its first line, or the refusal that says what is wrong with it. */
export function judgeTape(fileName: string, head: Buffer, complete: boolean): TapeColumns | ApiError {
  if (!TAPE_EXTENSIONS.has(path.extname(fileName).toLowerCase()) || !looksLikeText(head, complete))
    return new ApiError(415, `${TAPE_FILE_FIELD}: ${RECONCILIATION_TEXTS.notCsv}`);
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? '';
  if (firstLine.trim() === '') return badRequest(`${TAPE_FILE_FIELD}: ${RECONCILIATION_TEXTS.empty}`);
  let header: string[];
  try {
    header = (parseSync(firstLine, { relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? [];
  } catch {
    header = firstLine.split(',');
  }
  const columns = tapeColumns(header);
  if (hasLoanKey(columns)) return columns;
  // A header of one cell holding another separator: a tape saved with semicolons or tabs.
  if (header.length <= 1 && /[;\t|]/.test(firstLine)) return badRequest(`${TAPE_FILE_FIELD}: ${RECONCILIATION_TEXTS.wrongDelimiter}`);
  return badRequest(`${TAPE_FILE_FIELD}: ${RECONCILIATION_TEXTS.noLoanKey}`);
}

/** The report's rows as CSV text, formula-safe, a page of rows per chunk. */
function reportCsv(pages: NodeJS.ReadableStream): NodeJS.ReadableStream {
  const cell = (value: string | number | null) => neutralizeCell(value === null ? '' : String(value));
  const encode = new Transform({
    writableObjectMode: true,
    transform(rows: Difference[], _encoding, done) {
      let text = '';
      for (const row of rows)
        text += csvLine([row.kind, row.line, row.uli, row.loanNumber, row.field, row.tapeValue, row.registryValue, row.detail].map(cell));
      done(null, text);
    },
  });
  encode.push(UTF8_BOM + csvLine(RECONCILIATION_CSV_HEADERS));
  pipeline(pages, encode).catch(() => undefined);
  return encode;
}

/** The body is read by the handler (multipart); its schema is there for OpenAPI. */
const bodyReadByHandler: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

export async function reconciliationRoutes(app: FastifyInstance): Promise<void> {
  // Past 50 MB the file is cut off (and the rest read and dropped): answered 413, nothing kept.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: TAPE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const repository = app.repositories.reconciliations;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    PATHS.reconciliations,
    {
      config: { access: 'member' },
      schema: {
        tags: ['reconciliation'],
        summary: 'Uploads a loan tape and starts its reconciliation with the registry',
        description:
          `multipart/form-data with the tape in the field '${TAPE_FILE_FIELD}': CSV with a header row naming a ULI or Loan Number ` +
          'column and any of Owner, Servicer, Sub-Servicer, Controller, Secured Party (a name or a participant id) and Status. ' +
          '400: no tape, an empty one, or a header with no loan key or another separator; 413: over 50 MB; 415: not CSV by its ' +
          'name or bytes, or a body that is not multipart; 429: the caller already has ' +
          `${MAX_UNFINISHED_RECONCILIATIONS} reconciliations PENDING or RUNNING. 202: the tape is stored and its job queued; ` +
          'poll GET v4 /reconciliations until DONE. Nothing in the registry is changed.',
        consumes: ['multipart/form-data'],
        body: reconciliationMultipartSchema,
        response: {
          202: reconciliationSchema.describe('The reconciliation, PENDING'),
          ...errors,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
        },
      },
      validatorCompiler: bodyReadByHandler,
    },
    async (request, reply) => {
      const owner = ownerOf(request);
      if (!request.isMultipart()) throw new ApiError(415, NOT_MULTIPART);
      const part = await request.file().catch(() => undefined);
      if (!part || part.fieldname !== TAPE_FILE_FIELD) {
        part?.file.resume();
        throw badRequest(NO_TAPE);
      }
      const fileName = safeTapeName(part.filename);
      // The head: enough to judge the file before anything is stored.
      const iterator = (part.file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
      const head: Buffer[] = [];
      let headBytes = 0;
      let ended = false;
      while (headBytes < HEAD_BYTES) {
        const next = await iterator.next();
        if (next.done) {
          ended = true;
          break;
        }
        head.push(next.value);
        headBytes += next.value.length;
      }
      const drain = async () => {
        for (let next = await iterator.next(); !next.done; next = await iterator.next());
      };
      const judged = judgeTape(fileName, Buffer.concat(head, headBytes), ended);
      if (judged instanceof ApiError) {
        await drain();
        throw part.file.truncated ? new ApiError(413, `${TAPE_FILE_FIELD}: ${RECONCILIATION_TEXTS.tooLarge}`) : judged;
      }
      async function* tape(): AsyncGenerator<Buffer> {
        yield* head;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
        if (part?.file.truncated) throw new ApiError(413, `${TAPE_FILE_FIELD}: ${RECONCILIATION_TEXTS.tooLarge}`);
      }
      const id = randomUUID();
      const row = await app.services.reconciliations
        .startReconciliation(
          { ...owner, id, fileName, columns: judged },
          tape(),
          (tx) => app.jobs.send(JOB_QUEUES.reconcileTape, { jobId: id }, { tx, id }),
          MAX_UNFINISHED_RECONCILIATIONS,
        )
        .catch(async (error: unknown) => {
          await drain().catch(() => undefined);
          throw error;
        });
      if (!row) {
        await drain();
        throw tooManyRequests(TOO_MANY_RECONCILIATIONS);
      }
      return reply.code(202).send(toReconciliation(row));
    },
  );

  routes.get(
    PATHS.reconciliations,
    {
      config: { access: 'member' },
      schema: {
        tags: ['reconciliation'],
        summary: "The caller's reconciliations in the current organization, newest first (at most 20)",
        description: `Status (PENDING, RUNNING, DONE, FAILED), progress and total (tape bytes), and once DONE the counts per kind. ${OWNERSHIP}`,
        response: { 200: reconciliationListSchema, ...errors },
      },
    },
    async (request) => (await repository.listReconciliations(ownerOf(request))).map(toReconciliation),
  );

  /** The caller's finished reconciliation (404 for anyone else's, 409 before it is DONE). */
  async function finishedReconciliation(request: FastifyRequest, jobId: string): Promise<ReconciliationRow> {
    const row = await repository.findOwnedReconciliation(ownerOf(request), jobId.toLowerCase());
    if (!row) throw new NotFoundError(RECONCILIATION_NOT_FOUND);
    if (row.status !== 'DONE') throw new ConflictError(RECONCILIATION_NOT_DONE);
    return row;
  }

  routes.get(
    PATHS.reconciliationDifferencesPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['reconciliation'],
        summary: "A page of a finished reconciliation's report, optionally of one kind",
        description:
          "In the report's order: tape loans not in the registry (or not visible to the organization: the two are alike), " +
          "the organization's loans missing from the tape, fields that differ (field, tape value, registry value), then unreadable " +
          `rows with their line numbers. 409 until the reconciliation is DONE. ${OWNERSHIP}`,
        params: reconciliationParamsSchema,
        querystring: differencesQuerySchema,
        response: { 200: differencesPageSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const row = await finishedReconciliation(request, request.params.jobId);
      const { kind, limit, offset } = request.query;
      return repository.listDifferences(row.jobId, { kind, limit, offset });
    },
  );

  routes.get(
    PATHS.reconciliationCsvPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['reconciliation'],
        summary: "A finished reconciliation's report as CSV (streamed)",
        description: `Columns ${RECONCILIATION_CSV_HEADERS.join(', ')}; a cell a spreadsheet would read as a formula starts with a quote. 409 until DONE. ${OWNERSHIP}`,
        params: reconciliationParamsSchema,
        produces: ['text/csv'],
        response: {
          200: { description: 'The report (attachment)', content: { 'text/csv': { schema: z.string().describe('CSV') } } },
          ...errors,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const row = await finishedReconciliation(request, request.params.jobId);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${reconciliationFileName(toReconciliation(row))}"`)
        .header('cache-control', 'no-store');
      return (reply as FastifyReply).send(reportCsv(repository.streamDifferences(row.jobId)));
    },
  );
}
