// POST v1 /loans/{loanId}/deactivate (SPEC sections 3, 5 and 7): a multipart form with the
// deactivation fields and the security instrument and assignment (a PDF of at most 10 MB). The
// fields follow the rules of src/contract/deactivation.ts, the form's own; the file is judged by
// its first bytes, not its name. The instrument, the DEACTIVATION_REQUESTED event, the request and
// its processing job are recorded in one transaction; the job (jobs/deactivation-job.ts) then
// deactivates the loan.
import { auditActorOf } from '../audit/audit-actor';
import { createHash } from 'node:crypto';
import path from 'node:path';
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import {
  deactivationAcceptedSchema,
  deactivationErrors,
  deactivationFieldsSchema,
  deactivationMultipartSchema,
  deactivationParamsSchema,
  describeDeactivationErrors,
  draftOf,
  fieldOfWireName,
  INSTRUMENT_FILE_FIELD,
  type DeactivationTextField,
} from '../../contract/deactivation';
import { PATHS } from '../../contract/paths';
import { DEACTIVATION_FILE_MAX_BYTES, hasPdfSignature, PDF_CONTENT_TYPE } from '../../domain/deactivation';
import { DEACTIVATION_TEXTS } from '../../domain/deactivation-texts';
import { ApiError, badRequest, isApiError } from '../http-errors';
import { JOB_QUEUES } from '../jobs/job-queues';
import { requireMembership } from '../plugins/access';

const DEFAULT_FILE_NAME = 'security-instrument-and-assignment.pdf';
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The uploaded instrument, read whole (at most 10 MB are kept; past that it is only counted as too large). */
interface ReceivedFile {
  readonly fileName: string;
  readonly content: Buffer;
  readonly hash: string;
  readonly truncated: boolean;
}

interface ReceivedForm {
  readonly values: Partial<Record<DeactivationTextField, string>>;
  readonly file: ReceivedFile | null;
}

/**
 * A file name fit to keep and to show other organizations: no folders; no control or format
 * characters (U+202E would show 'evil\u202Efdp.exe' as 'evilexe.pdf'); not empty, not endless; and
 * ending in .pdf, as the content was checked to be a PDF, whatever the name claimed.
 */
export function safeFileName(name: string | undefined): string {
  const base = path
    .basename((name ?? '').replaceAll('\\', '/'))
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim();
  if (!base || base === '.' || base === '..') return DEFAULT_FILE_NAME;
  const pdfName = /\.pdf$/i.test(base) ? base : `${base}.pdf`;
  return pdfName.length <= 255 ? pdfName : `${pdfName.slice(0, 251)}.pdf`;
}

/**
 * Reads every part of the request (so the answer never races the upload): text fields by their
 * form names (the first of a repeated one), the instrument hashed as it streams. Unknown parts are
 * read and dropped.
 */
export const MALFORMED_FORM = 'The multipart form could not be read (a missing boundary or a cut-off body)';

const FORM_LIMITS = { files: 1, fields: 30, parts: 40 } as const;
export const ONE_FILE_ONLY = `${INSTRUMENT_FILE_FIELD}: send one file, the security instrument and assignment (a PDF)`;
/** @fastify/multipart's limit errors, in words that tell the caller what to change (its own say 'reach files limit'). */
const FORM_LIMIT_ERRORS: Readonly<Record<string, () => ApiError>> = {
  FST_FILES_LIMIT: () => badRequest(ONE_FILE_ONLY),
  FST_FIELDS_LIMIT: () => new ApiError(413, `The form has too many fields (at most ${FORM_LIMITS.fields})`),
  FST_PARTS_LIMIT: () => new ApiError(413, `The form has too many parts (at most ${FORM_LIMITS.parts})`),
};

async function receiveForm(parts: AsyncIterableIterator<Multipart>): Promise<ReceivedForm> {
  const values: Partial<Record<DeactivationTextField, string>> = {};
  let file: ReceivedFile | null = null;
  for await (const part of parts) {
    const field = fieldOfWireName(part.fieldname);
    if (part.type === 'file') {
      if (field !== INSTRUMENT_FILE_FIELD || file) {
        part.file.resume();
        continue;
      }
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        hash.update(chunk);
        chunks.push(chunk);
      }
      const truncated = part.file.truncated;
      file = {
        fileName: safeFileName(part.filename),
        content: truncated ? Buffer.alloc(0) : Buffer.concat(chunks),
        hash: hash.digest('hex'),
        truncated,
      };
    } else if (field && field !== INSTRUMENT_FILE_FIELD && values[field] === undefined && typeof part.value === 'string') {
      values[field] = part.value;
    }
  }
  return { values, file };
}

/** The instrument as the shared file rule sees it: its size, and PDF when its bytes say so. */
const instrumentInfo = (file: ReceivedFile | null) =>
  file && {
    size: file.truncated ? DEACTIVATION_FILE_MAX_BYTES + 1 : file.content.length,
    type: hasPdfSignature(file.content) ? PDF_CONTENT_TYPE : 'application/octet-stream',
  };

/** The body is read by the handler (multipart); its schema is there for OpenAPI. Params go through zod. */
const bodyReadByHandler: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

export async function deactivationRoutes(app: FastifyInstance): Promise<void> {
  // Only this plugin's routes take multipart. Past 10 MB the file is cut off (and the rest of the
  // upload read and dropped), so a large file is answered 413 after the request has been read.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: DEACTIVATION_FILE_MAX_BYTES, fieldSize: 16 * 1024, ...FORM_LIMITS },
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    PATHS.loanDeactivatePattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['loans'],
        summary: 'Requests the deactivation of a loan (processed asynchronously)',
        description:
          'multipart/form-data with the fields below and the PDF. 400 names each invalid field; 413: a file over 10 MB; ' +
          '415: a file that is not a PDF by its content, or a body that is not multipart. Only an organization holding the ' +
          'OWNER or SERVICER role may ask (else 400); a loan it holds no role on is 404; a loan already inactive, with a ' +
          'pending request or with a role transfer awaiting its answer is 409. 202: the request is recorded and its processing queued.',
        consumes: ['multipart/form-data'],
        params: deactivationParamsSchema,
        body: deactivationMultipartSchema,
        response: { 202: deactivationAcceptedSchema, ...errors, 413: errorBodySchema, 415: errorBodySchema },
      },
      validatorCompiler: bodyReadByHandler,
    },
    async (request, reply) => {
      const membership = requireMembership(request);
      if (!request.isMultipart()) throw new ApiError(415, DEACTIVATION_TEXTS.notMultipart);
      const loanId = request.params.loanId.toLowerCase();
      const { values, file } = await receiveForm(request.parts()).catch((error: unknown) => {
        // busboy's own errors (no boundary, a cut-off body) are the client's: 400, not 500.
        const limitError = FORM_LIMIT_ERRORS[String((error as { code?: unknown }).code)];
        if (limitError) throw limitError();
        if (isApiError(error) || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
        throw badRequest(MALFORMED_FORM);
      });

      const draft = draftOf(values);
      const invalid = deactivationErrors(draft, instrumentInfo(file));
      const fileError = invalid[INSTRUMENT_FILE_FIELD];
      const named = (message: string) => `${INSTRUMENT_FILE_FIELD}: ${message}`;
      if (fileError === DEACTIVATION_TEXTS.fileTooLarge) throw new ApiError(413, named(fileError));
      if (fileError === DEACTIVATION_TEXTS.fileNotPdf) throw new ApiError(415, named(fileError));
      if (Object.keys(invalid).length > 0 || !file) throw badRequest(describeDeactivationErrors(invalid));

      const { requestId } = await app.services.deactivations.requestDeactivation(
        {
          loanId,
          participantId: membership.participant.id,
          participantName: membership.participant.name,
          userId: request.registryUser?.id ?? null,
          fields: deactivationFieldsSchema.parse(draft),
          instrument: { fileName: file.fileName, content: file.content, hash: file.hash },
        },
        (tx, requestId) => app.jobs.send(JOB_QUEUES.processDeactivation, { requestId }, { tx }),
        auditActorOf(request),
      );
      return reply.code(202).send({ id: requestId, loanId, status: 'SUBMITTED' as const });
    },
  );
}
