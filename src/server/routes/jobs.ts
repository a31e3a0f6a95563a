// Batch jobs (SPEC section 7): POST v4 /jobs starts the batch download of assignment documents
// (our addition), GET v4 /jobs reports status, progress and total, GET v4 /loans/documents/zip
// streams the finished zip. A job belongs to its organization and user: anyone else's is 404.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import {
  documentsZipQuerySchema,
  jobListQuerySchema,
  jobListSchema,
  jobSchema,
  MAX_BATCH_LOANS,
  MAX_UNFINISHED_JOBS,
  startJobBodySchema,
  ZIP_MANIFEST_FILE,
  ZIP_MANIFEST_HEADERS,
  zipFileName,
  type Job,
  type StartJobBody,
} from '../../contract/jobs';
import { PATHS } from '../../contract/paths';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from '../../domain/loan';
import { BATCH_DOWNLOAD_TEXTS } from '../../domain/texts';
import type { JobOwner, JobRow } from '../db/job-repository';
import type { LoanListFilter } from '../db/loan-list-query';
import { NotFoundError } from '../domain-errors';
import { badRequest, tooManyRequests } from '../http-errors';
import { JOB_QUEUES } from '../jobs/job-queues';
import { requireMembership } from '../plugins/access';

export const JOB_NOT_FOUND = 'Job not found.';
export const ZIP_NOT_FOUND = 'No finished assignment download.';
export const ZIP_ACCESS_LOST = BATCH_DOWNLOAD_TEXTS.accessLost;
export const TOO_MANY_UNFINISHED_JOBS = `You have ${MAX_UNFINISHED_JOBS} batch downloads in progress: start another when one has finished.`;
export const TOO_MANY_LOANS = `body.filters: a batch download takes at most ${MAX_BATCH_LOANS.toLocaleString('en-US')} loans; narrow the filters`;

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const OWNERSHIP = "A job belongs to the organization (x-participant-id) and the user that started it; anyone else's answers 404.";

export function toJob(row: JobRow): Job {
  return {
    jobId: row.id,
    type: row.type,
    status: row.status,
    progress: row.progress,
    total: row.total,
    error: row.status === 'FAILED' ? (row.error ?? 'Failed') : null,
    delivered: row.deliveredAt !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The organization and user a product call acts for. */
function ownerOf(request: FastifyRequest): JobOwner {
  const membership = requireMembership(request);
  // requireMembership passed, so the tenancy hook found the caller's registry user.
  const userId = request.registryUser?.id;
  if (!userId) throw new NotFoundError(JOB_NOT_FOUND);
  return { participantId: membership.participant.id, userId };
}

/** An ISO date is the start of that day in UTC; a date-time keeps its offset (as the asset list). */
const toInstant = (value: string | undefined): string | undefined => (value && value.length === 10 ? `${value}T00:00:00Z` : value);

function selectionOf(participantId: string, body: StartJobBody): LoanListFilter {
  if (body.loanIds)
    return { participantId, roles: [...FILTERABLE_ROLES], loanIds: [...new Set(body.loanIds.map((id) => id.toLowerCase()))] };
  const filters = body.filters ?? {};
  return {
    participantId,
    roles: filters.participantRoles ? [...new Set(filters.participantRoles)] : [...DEFAULT_ROLE_FILTER],
    query: filters.query || undefined,
    updatedSince: toInstant(filters.oldestDateLastUpdated),
  };
}

export async function jobRoutes(app: FastifyInstance): Promise<void> {
  const jobs = app.repositories.jobs;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    PATHS.jobs,
    {
      config: { access: 'member' },
      schema: {
        tags: ['jobs'],
        summary: 'Start a batch download of assignment documents (AOMs) of selected loans or of a filtered set',
        description:
          'Our addition to SPEC section 7. Give exactly one of `loanIds` (selected rows; ids the organization may not see are ' +
          "left out without a word, like the CSV) or `filters` (the asset list's filters: every loan they select, at most " +
          `${MAX_BATCH_LOANS.toLocaleString('en-US')}). Answers 202 with the PENDING job; poll GET v4 /jobs until DONE, then ` +
          `GET v4 /loans/documents/zip. The zip has one folder per loan (its ULI) with the loan's ASSIGNMENT documents, and ` +
          `${ZIP_MANIFEST_FILE} (${ZIP_MANIFEST_HEADERS.join(', ')}) of every file. A caller has at most ${MAX_UNFINISHED_JOBS} ` +
          'jobs PENDING or RUNNING in an organization at once: one more answers 429.',
        body: startJobBodySchema,
        response: {
          202: jobSchema.describe('The job, PENDING'),
          ...errors,
          429: errorBodySchema.describe(`The caller already has ${MAX_UNFINISHED_JOBS} jobs PENDING or RUNNING in this organization`),
        },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request);
      const loanIds = await jobs.visibleLoanIds(selectionOf(owner.participantId, request.body), MAX_BATCH_LOANS + 1);
      if (loanIds.length > MAX_BATCH_LOANS) throw badRequest(TOO_MANY_LOANS);
      const total = await jobs.countAssignmentDocuments(loanIds);
      const id = randomUUID();
      const row = await jobs.startJob(
        { ...owner, id, type: 'BATCH_DOWNLOAD_AOMS', total, loanIds },
        (tx) => app.jobs.send(JOB_QUEUES.batchDownloadAoms, { jobId: id, loanIds }, { tx, id }),
        MAX_UNFINISHED_JOBS,
      );
      if (!row) throw tooManyRequests(TOO_MANY_UNFINISHED_JOBS);
      return reply.code(202).send(toJob(row));
    },
  );

  routes.get(
    PATHS.jobs,
    {
      config: { access: 'member' },
      schema: {
        tags: ['jobs'],
        summary: "The caller's jobs of a type in the current organization, newest first (at most 20)",
        description: `Each job has its status (PENDING, RUNNING, DONE, FAILED), progress and total (documents), and the error of a FAILED one. ${OWNERSHIP}`,
        querystring: jobListQuerySchema,
        response: { 200: jobListSchema, ...errors },
      },
    },
    async (request) => {
      const rows = await jobs.listJobs(ownerOf(request), request.query.type);
      return rows.map(toJob);
    },
  );

  routes.get(
    PATHS.documentsZip,
    {
      config: { access: 'member' },
      schema: {
        tags: ['jobs'],
        summary: 'The zip of a finished batch download of assignment documents (streamed)',
        description:
          `One folder per loan (its ULI) holding the loan's ASSIGNMENT documents, and ${ZIP_MANIFEST_FILE} ` +
          `(${ZIP_MANIFEST_HEADERS.join(', ')}) of every file; a document whose content no longer matches its SHA-256 is left ` +
          `out and listed in left-out.csv. Without \`jobId\`, the caller's newest finished job. ${OWNERSHIP} ` +
          'Given only while the organization still holds a role on every loan of the job (404 otherwise: start a new download). ' +
          'The first request for a job marks it `delivered`.',
        querystring: documentsZipQuerySchema,
        produces: ['application/zip'],
        response: {
          200: {
            description: 'The zip (attachment)',
            content: { 'application/zip': { schema: z.string().describe('Zip archive (binary)') } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request);
      const { jobId } = request.query;
      const row = await jobs.findDownloadableJob(owner, 'BATCH_DOWNLOAD_AOMS', jobId?.toLowerCase());
      if (!row) throw new NotFoundError(jobId ? JOB_NOT_FOUND : ZIP_NOT_FOUND);
      // Asked for once, offered no more (also when access is lost: that answer was the offer).
      await jobs.markJobDelivered(row.id);
      // Access is checked again at each download: since the job ran, a loan may have moved on.
      if (!(await jobs.holdsEveryLoanOfJob(row.id, owner.participantId))) throw new NotFoundError(ZIP_ACCESS_LOST);
      reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${zipFileName(toJob(row))}"`)
        .header('cache-control', 'no-store');
      if (row.resultSizeBytes !== null) reply.header('content-length', String(row.resultSizeBytes));
      // A stream is not the typed JSON body: send it through the untyped reply (as the CSV does).
      return (reply as FastifyReply).send(jobs.streamJobFile(row.id));
    },
  );
}
