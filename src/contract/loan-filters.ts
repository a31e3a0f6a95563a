// The asset list's filters and sorts, apart from the loans' answers: the batch download's job
// contract (loaded with every page) needs them, the loan schemas load with the loan screens.
import { z } from 'zod';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from '../domain/loan';
import { inputText, isoInstantInput } from './common';

/** Columns the asset list can be sorted by, on the server, over the whole filtered set. */
export const LOAN_SORT_COLUMNS = [
  'uli',
  'loanType',
  'tradeDate',
  'mortgageeOfRecord',
  'status',
  'owner',
  'servicer',
  'controller',
  'subServicer',
  'securedParty',
] as const;
export type LoanSortColumn = (typeof LOAN_SORT_COLUMNS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export type FilterableRole = (typeof FILTERABLE_ROLES)[number];

/** A comma-joined list of roles, e.g. `OWNER,SERVICER`; SPEC's default five when absent. */
export const participantRolesSchema = z
  .string()
  .max(200)
  .transform((value, context) => {
    const roles = value
      .split(',')
      .map((role) => role.trim())
      .filter(Boolean);
    const unknown = roles.filter((role) => !(FILTERABLE_ROLES as readonly string[]).includes(role));
    if (roles.length === 0 || unknown.length > 0) {
      context.addIssue({ code: 'custom', message: `must be a comma-joined list of ${FILTERABLE_ROLES.join(', ')}` });
      return z.NEVER;
    }
    return [...new Set(roles)] as FilterableRole[];
  })
  .optional()
  .describe(
    `Comma-joined roles the organization holds on the loan: ${FILTERABLE_ROLES.join(', ')} (default ${DEFAULT_ROLE_FILTER.join(',')})`,
  );

/** An ISO date (`2026-01-15`) or date-time with offset (`2026-01-15T00:00:00-05:00`), from year 0001. */
export const isoInstantSchema = isoInstantInput();

/** The filters of the asset list, shared by JSON, CSV and pool-asset calls. */
export const loanFiltersSchema = z.object({
  query: inputText()
    .trim()
    .max(200)
    .optional()
    .describe(
      'Case-insensitive substring of ULI, loan number, borrower name or property address (fields joined by line breaks); ' +
        'filters only when it holds 3 characters between line breaks',
    ),
  oldestDateLastUpdated: isoInstantSchema
    .optional()
    .describe('Only loans updated at or after this instant (ISO date or date-time with offset)'),
  participantRoles: participantRolesSchema,
  sortBy: z
    .enum(LOAN_SORT_COLUMNS)
    .optional()
    .describe(`Sort column: ${LOAN_SORT_COLUMNS.join(', ')} (ties broken by loan id)`),
  sortDirection: z.enum(SORT_DIRECTIONS).default('asc').describe('asc or desc'),
});
