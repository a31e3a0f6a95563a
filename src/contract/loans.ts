// Loans of SPEC sections 3 and 7: the asset list (JSON and CSV), details and events.
import { z } from 'zod';
import { FILTERABLE_ROLES, LOAN_STATUSES, ROLE_STATES } from '../domain/loan';
import { pageQuerySchema } from './paging';
import { profileInfoSchema } from './participants';

// The paging pair lives with the other paged-list helpers; the loans' schemas name it from here too.
export { pageLimitSchema, pageOffsetSchema, pageQuerySchema } from './paging';

export {
  LOAN_SORT_COLUMNS,
  SORT_DIRECTIONS,
  isoInstantSchema,
  loanFiltersSchema,
  participantRolesSchema,
  type FilterableRole,
  type LoanSortColumn,
  type SortDirection,
} from './loan-filters';
import { loanFiltersSchema } from './loan-filters';

/** GET v2 /loans (JSON). */
export const loanListQuerySchema = loanFiltersSchema.extend(pageQuerySchema.shape);
export type LoanListQuery = z.input<typeof loanListQuerySchema>;

/** A comma-joined list of loan ids (uuids). */
export const loanIdsSchema = z
  .string()
  .max(100_000)
  .transform((value, context) => {
    const ids = value
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length === 0 || ids.some((id) => !z.uuid().safeParse(id).success)) {
      context.addIssue({ code: 'custom', message: 'must be a comma-joined list of loan ids (uuids)' });
      return z.NEVER;
    }
    return [...new Set(ids.map((id) => id.toLowerCase()))];
  })
  .describe('Comma-joined loan ids; when present, only these loans (of those the organization may see)');

/** GET v2 /loans with Accept: text/csv. */
export const loanCsvQuerySchema = loanFiltersSchema.extend({ loanIds: loanIdsSchema.optional() });
export type LoanCsvQuery = z.input<typeof loanCsvQuerySchema>;

/** GET /service-dart/figure/secure/api/v2/loans: pool assets as CSV. */
export const poolAssetsCsvQuerySchema = z.object({
  loanIds: loanIdsSchema.optional(),
  poolDenomination: z.uuid().optional().describe('A pool id: every asset of the pool'),
});

/** A role entry's current value: a plain name, or a participant. */
export const partyValueSchema = z.union([z.string(), z.object({ participantName: z.string(), provenanceId: z.string() })]);
export type PartyValue = z.infer<typeof partyValueSchema>;

export const roleEntrySchema = z.object({ state: z.enum(ROLE_STATES), currentValue: partyValueSchema.nullable() });
export type RoleEntry = z.infer<typeof roleEntrySchema>;

/** SPEC section 3: loan list item. A role the loan has no party for is null. */
export const loanListItemSchema = z.object({
  loanId: z.uuid(),
  uli: z.string(),
  loanType: z.string(),
  tradeDate: z.iso.date().nullable(),
  mortgageeOfRecord: z.string().nullable(),
  status: z.enum(LOAN_STATUSES),
  owner: roleEntrySchema.nullable(),
  servicer: roleEntrySchema.nullable(),
  controller: roleEntrySchema.nullable(),
  subServicer: roleEntrySchema.nullable(),
  securedParty: roleEntrySchema.nullable(),
  /** The roles the current organization holds on the loan (what it may do with it depends on them). */
  heldRoles: z.array(z.enum(FILTERABLE_ROLES)),
  /** A deactivation request of the loan waits to be processed. */
  deactivationPending: z.boolean(),
});
export type LoanListItem = z.infer<typeof loanListItemSchema>;

export const loanListSchema = z.object({ loans: z.array(loanListItemSchema), totalCount: z.number().int().min(0) });
export type LoanList = z.infer<typeof loanListSchema>;

export const loanIdParamsSchema = z.object({ id: z.uuid() });

/** A loan party in the details: its role entry plus the participant's profile when it is one. */
export const loanPartySchema = roleEntrySchema.extend({
  role: z.string(),
  participantId: z.uuid().nullable(),
  profileInfo: profileInfoSchema.nullable(),
});
export type LoanParty = z.infer<typeof loanPartySchema>;

/** GET v1 /loans/{id}/details (SPEC section 3). */
export const loanDetailsSchema = z.object({
  loan: z.object({
    loanId: z.uuid(),
    loanData: z.object({
      loan: z.object({ uli: z.string(), loanNumber: z.string(), loanType: z.string() }),
      note: z.object({
        amount: z.number(),
        noteDate: z.iso.date(),
        noteLocation: z.string().nullable(),
        modification: z.boolean(),
        assumption: z.boolean(),
      }),
      primaryParty: z.object({ firstName: z.string(), lastName: z.string() }),
      additionalParties: z.array(z.object({ partyType: z.string(), firstName: z.string(), lastName: z.string() })),
      status: z.enum(LOAN_STATUSES),
      dartAsOriginalMortgagee: z.boolean(),
    }),
    propertyAddress: z.object({
      street1: z.string(),
      street2: z.string().nullable(),
      city: z.string(),
      state: z.string(),
      zip: z.string(),
    }),
    deactivated: z.boolean(),
    tradeDate: z.iso.date().nullable(),
    mortgageeOfRecord: z.string().nullable(),
    updatedAt: z.iso.datetime({ offset: true }),
  }),
  parties: z.array(loanPartySchema),
});
export type LoanDetails = z.infer<typeof loanDetailsSchema>;

/** SPEC section 3: loan event. */
export const loanEventSchema = z.object({
  id: z.uuid(),
  state: z.string(),
  eventType: z.string(),
  eventDescription: z.string(),
  effectiveDate: z.iso.date().nullable(),
  requestedDate: z.iso.date().nullable(),
  participant: z.object({ participantId: z.uuid(), participantName: z.string() }).nullable(),
  created: z.iso.datetime({ offset: true }),
});
export type LoanEvent = z.infer<typeof loanEventSchema>;
export const loanEventsSchema = z.array(loanEventSchema);
