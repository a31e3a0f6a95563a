// The audit trail's reads: a loan's Activity (its audit rows, newest first) and the registry
// staff's search of the whole log (JSON pages, or every matching row as CSV).
import { z } from 'zod';
import { inputText } from './common';
import { pageAnswerOf, pageQueryOf } from './paging';

/** One audit row as the screens show it. */
export const auditTrailEntrySchema = z.object({
  id: z.number().int(),
  chainSeq: z.number().int().describe("The row's place in the hash chain"),
  occurredAt: z.iso.datetime({ offset: true }),
  actorUserId: z.uuid().nullable(),
  actorEmail: z.string().nullable().describe("Null for the job runner, and on a loan's Activity for another organization's user"),
  actingOrganizationId: z.uuid().nullable(),
  actingOrganizationName: z.string().nullable().describe('The organization the user acted for (null: registry staff or the job runner)'),
  clientAddress: z.string().nullable(),
  action: z
    .string()
    .describe('role-transfer.requested, role-transfer.confirmed, deactivation.requested, document.added, user.invited, ...'),
  targetType: z.string(),
  targetId: z.string().nullable(),
  loanId: z.uuid().nullable(),
  before: z.unknown().describe('The values before the change (null for a creation)'),
  after: z.unknown().describe('The values after the change (null for a removal)'),
});
export type AuditTrailEntry = z.infer<typeof auditTrailEntrySchema>;

/** GET v1 /loans/{id}/activity. */
export const loanActivityQuerySchema = pageQueryOf({});
export const loanActivityPageSchema = pageAnswerOf('entries', auditTrailEntrySchema, "The loan's audit rows");
export type LoanActivityPage = z.infer<typeof loanActivityPageSchema>;

const dateTime = (name: string) =>
  inputText()
    .trim()
    .refine((value) => !Number.isNaN(Date.parse(value)), { message: `${name} must be a date or date-time (ISO 8601)` })
    .optional()
    .describe(`${name}: an ISO 8601 date or date-time`);

/** GET v2 /audit: every field optional; all given must match. */
export const auditSearchQuerySchema = pageQueryOf({
  participantId: z.uuid().optional().describe('The organization concerned or acted for'),
  user: inputText().trim().max(200).optional().describe("A user's id, or any part of the e-mail"),
  targetType: inputText()
    .trim()
    .max(100)
    .optional()
    .describe('organization, user, profile, role-request, deactivation-request, document, ...'),
  entityId: inputText().trim().max(200).optional().describe("The entity's id, or a loan's id (every row of the loan)"),
  from: dateTime('from'),
  to: dateTime('to'),
});
export type AuditSearchQuery = z.output<typeof auditSearchQuerySchema>;
/** The search's filters as the web sends them (empty ones left out). */
export interface AuditLogFilters {
  readonly participantId?: string;
  readonly user?: string;
  readonly targetType?: string;
  readonly entityId?: string;
  readonly from?: string;
  readonly to?: string;
}
export type AuditLogQuery = AuditLogFilters & { readonly limit: number; readonly offset: number };
export const auditSearchPageSchema = pageAnswerOf('entries', auditTrailEntrySchema, 'Audit rows matching the search');
export type AuditSearchPage = z.infer<typeof auditSearchPageSchema>;

/** The search's CSV columns, in order. */
export const AUDIT_CSV_COLUMNS = [
  'chainSeq',
  'occurredAt',
  'actorUserId',
  'actorEmail',
  'actingOrganization',
  'clientAddress',
  'action',
  'targetType',
  'targetId',
  'loanId',
  'before',
  'after',
] as const;
