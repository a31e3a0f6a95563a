// Reconciliation against a loan tape (our addition to SPEC section 7): POST v4 /reconciliations
// uploads the tape (multipart) and starts its job; GET v4 /reconciliations lists the caller's,
// newest first; GET .../{jobId}/differences pages the report; GET .../{jobId}/csv streams it.
import { z } from 'zod';
import { DIFFERENCE_KINDS, TAPE_MAX_BYTES, TAPE_FIELDS } from '../domain/reconciliation';
import { JOB_STATUSES } from './jobs';
import { pageAnswerOf, pageQueryOf } from './paging';

/** The multipart field that carries the tape. */
export const TAPE_FILE_FIELD = 'tape';

/** Most reconciliations a user may have PENDING or RUNNING at once in one organization. */
export const MAX_UNFINISHED_RECONCILIATIONS = 2;

export const reconciliationCountsSchema = z.object({
  NOT_IN_REGISTRY: z.number().int().min(0).describe('Tape loans the organization holds no role on (or that do not exist)'),
  MISSING_FROM_TAPE: z.number().int().min(0).describe('Loans the organization holds a role on that the tape lacks'),
  FIELD_DIFFERS: z.number().int().min(0).describe('Fields whose tape value differs from the registry'),
  UNREADABLE_ROW: z.number().int().min(0).describe('Rows that could not be read'),
});
export type ReconciliationCounts = z.infer<typeof reconciliationCountsSchema>;

export const reconciliationSchema = z.object({
  jobId: z.uuid(),
  status: z.enum(JOB_STATUSES),
  progress: z.number().int().min(0).describe('Tape bytes read so far'),
  total: z.number().int().min(0).describe('Tape bytes'),
  error: z.string().nullable().describe('Why it failed (FAILED only)'),
  fileName: z.string(),
  rows: z.number().int().min(0).describe('Loan rows read from the tape (DONE only; 0 before)'),
  fields: z.array(z.enum(TAPE_FIELDS)).describe('The fields the tape gives, by its header'),
  counts: reconciliationCountsSchema.nullable().describe('Differences per kind (DONE only)'),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
export const reconciliationListSchema = z.array(reconciliationSchema);

export const reconciliationParamsSchema = z.object({ jobId: z.uuid().describe('The reconciliation (its job id)') });

export const differenceSchema = z.object({
  kind: z.enum(DIFFERENCE_KINDS),
  line: z.number().int().min(1).nullable().describe('The tape line (null for a loan missing from the tape)'),
  uli: z.string().nullable(),
  loanNumber: z.string().nullable(),
  field: z.enum(TAPE_FIELDS).nullable().describe('FIELD_DIFFERS: the field'),
  tapeValue: z.string().nullable(),
  registryValue: z.string().nullable(),
  detail: z.string().nullable().describe('UNREADABLE_ROW: why'),
});
export type Difference = z.infer<typeof differenceSchema>;

export const differencesQuerySchema = pageQueryOf({
  kind: z.enum(DIFFERENCE_KINDS).optional().describe('Only differences of this kind'),
});
export type DifferencesQuery = z.infer<typeof differencesQuerySchema>;
export const differencesPageSchema = pageAnswerOf('differences', differenceSchema, 'Differences of the view in all');
export type DifferencesPage = z.infer<typeof differencesPageSchema>;

/** For OpenAPI: the multipart body (read by the handler). */
export const reconciliationMultipartSchema = z.object({
  [TAPE_FILE_FIELD]: z.string().describe(`The loan tape: CSV with a header row, at most ${TAPE_MAX_BYTES / 1024 / 1024} MB`),
});
