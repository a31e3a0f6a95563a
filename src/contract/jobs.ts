// Batch jobs (SPEC sections 3, 4 and 7): GET v4 /jobs, and our addition POST v4 /jobs that starts
// the batch download of assignment documents (AOMs); the finished zip is GET v4 /loans/documents/zip.
import { z } from 'zod';
import { FILTERABLE_ROLES } from '../domain/loan';
import { isoInstantSchema, loanFiltersSchema, type FilterableRole } from './loan-filters';

export const JOB_TYPES = ['BATCH_DOWNLOAD_AOMS', 'RECONCILIATION'] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** PENDING: queued; RUNNING: zipping; DONE: the zip can be downloaded; FAILED: see `error`. */
export const JOB_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Statuses after which a job changes no more. */
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['DONE', 'FAILED'];

/** Most loans one batch download takes (a list of ids, or a filtered set). */
export const MAX_BATCH_LOANS = 10_000;

/**
 * Most jobs a user may have PENDING or RUNNING at once in one organization. The screen starts one
 * at a time; the cap keeps a script (or many tabs) from queueing zips of the whole set without end.
 */
export const MAX_UNFINISHED_JOBS = 3;

/** SPEC section 3's batch job: status, progress, total (documents zipped so far, of all). */
export const jobSchema = z.object({
  jobId: z.uuid(),
  type: z.enum(JOB_TYPES),
  status: z.enum(JOB_STATUSES),
  progress: z.number().int().min(0).describe('Documents zipped so far'),
  total: z.number().int().min(0).describe('Documents to zip'),
  error: z.string().nullable().describe('Why the job failed (FAILED only)'),
  delivered: z
    .boolean()
    .describe('Its zip has been asked for (GET v4 /loans/documents/zip): a DONE job not yet delivered is offered to the user once'),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Job = z.infer<typeof jobSchema>;

/** GET v4 /jobs: the caller's jobs of the type in the current organization, newest first. */
export const jobListSchema = z.array(jobSchema);
export const jobListQuerySchema = z.object({ type: z.enum(JOB_TYPES).describe('The job type: BATCH_DOWNLOAD_AOMS') });
export type JobListQuery = z.infer<typeof jobListQuerySchema>;

/** The asset list's filters as JSON (the same meaning as GET v2 /loans's query). */
export const batchFiltersSchema = z
  .object({
    // The same search text as the list's, filtering under the same three-character rule.
    query: loanFiltersSchema.shape.query,
    oldestDateLastUpdated: isoInstantSchema.optional().describe('Only loans updated at or after this instant'),
    participantRoles: z
      .array(z.enum(FILTERABLE_ROLES))
      .min(1)
      .optional()
      .describe(`Roles the organization holds on the loan (default the asset list's five)`),
  })
  .strict();
export type BatchFilters = z.infer<typeof batchFiltersSchema>;

const loanIdsSchema = z
  .array(z.uuid())
  .min(1)
  .max(MAX_BATCH_LOANS)
  .describe(`Loan ids (1 to ${MAX_BATCH_LOANS.toLocaleString('en-US')}); ids the organization may not see are left out`);

export const EXACTLY_ONE_SELECTION = 'give exactly one of loanIds or filters';

/** POST v4 /jobs: exactly one of `loanIds` (selected rows) or `filters` (the whole filtered set). */
export const startJobBodySchema = z
  .object({
    type: z.literal('BATCH_DOWNLOAD_AOMS').describe('The job type: BATCH_DOWNLOAD_AOMS'),
    loanIds: loanIdsSchema.optional(),
    filters: batchFiltersSchema.optional().describe("The asset list's filters: every loan they select"),
  })
  .strict()
  .superRefine((body, context) => {
    if ((body.loanIds === undefined) === (body.filters === undefined)) {
      context.addIssue({ code: 'custom', path: [body.loanIds ? 'filters' : 'loanIds'], message: EXACTLY_ONE_SELECTION });
    }
  })
  .describe('Exactly one of loanIds or filters');
export type StartJobBody = z.infer<typeof startJobBodySchema>;

/** GET v4 /loans/documents/zip: a job of the caller; left out, the newest finished one. */
export const documentsZipQuerySchema = z.object({
  jobId: z.uuid().optional().describe("A batch download job of the caller; default the caller's newest finished one"),
});

/** Columns of the zip's manifest.csv: one row per file in the zip. */
export const ZIP_MANIFEST_FILE = 'manifest.csv';
export const ZIP_MANIFEST_HEADERS = ['Loan ULI', 'File Name', 'SHA-256'] as const;

/** The zip's file name: `assignments-2026-01-15-<first 8 of the job id>.zip` (the day it was requested, UTC). */
export const zipFileName = (job: Pick<Job, 'jobId' | 'createdAt'>): string =>
  `assignments-${job.createdAt.slice(0, 10)}-${job.jobId.slice(0, 8)}.zip`;

export type { FilterableRole };
