// The deactivation request's vocabulary (SPEC sections 3, 5 and 9): reasons with their labels,
// entity types, the request's life cycle and the instrument file's limits.
import { MAX_UPLOAD_BYTES } from './constants';
import { PDF_CONTENT_TYPE, type DocumentKind } from './documents';
import { DEACTIVATION_REASONS } from './loan';
import { DEACTIVATION_TEXTS } from './deactivation-texts';

export { DEACTIVATION_REASONS };
export type DeactivationReason = (typeof DEACTIVATION_REASONS)[number];

/** SPEC section 5's labels, word for word. */
export const DEACTIVATION_REASON_LABELS: Record<DeactivationReason, string> = {
  payoff: 'Payoff/Charge-off',
  removeAsMortgage: 'remove the product as mortgagee',
  removeAsset: 'remove the asset from the product and from the ledger',
  foreclosure: 'Foreclosure/Enforcement',
};

export const isDeactivationReason = (value: string): value is DeactivationReason =>
  (DEACTIVATION_REASONS as readonly string[]).includes(value);

/** SPEC section 5: the assignee is shown (and kept) only when the reason is not payoff, none chosen yet included. */
export const asksForAssignee = (reason: string): boolean => reason !== 'payoff';

/**
 * SPEC names entityType without listing its values. The assignment that goes with the security
 * instrument names the assignee as "<name>, a <entity type> organized under the laws of <state>",
 * so these are the kinds of organization a mortgage is assigned to (statePostalCode is the state
 * of organization). The value is what is sent and stored (the seed's demo requests use a subset).
 */
export const DEACTIVATION_ENTITY_TYPES = [
  'Corporation',
  'Limited Liability Company',
  'Limited Partnership',
  'General Partnership',
  'National Bank',
  'State Bank',
  'Federal Savings Bank',
  'Credit Union',
  'Statutory Trust',
  'Trust',
  'Government Agency',
  'Individual',
] as const;
export type DeactivationEntityType = (typeof DEACTIVATION_ENTITY_TYPES)[number];
export const isDeactivationEntityType = (value: string): value is DeactivationEntityType =>
  (DEACTIVATION_ENTITY_TYPES as readonly string[]).includes(value);

/** A request waits (SUBMITTED) until its job has deactivated the loan (COMPLETED). */
export const DEACTIVATION_REQUEST_STATUSES = ['SUBMITTED', 'COMPLETED'] as const;
export type DeactivationRequestStatus = (typeof DEACTIVATION_REQUEST_STATUSES)[number];

/** The loan's history entries of a deactivation: the request (state Requested) and its confirmation. */
export const DEACTIVATION_EVENT_TYPES = { requested: 'DEACTIVATION_REQUESTED', confirmed: 'DEACTIVATION' } as const;

/** The instrument's kind among a loan's documents: not one the viewer lists, not in the assignment zip. */
export const DEACTIVATION_DOCUMENT_TYPE = 'DEACTIVATION_INSTRUMENT' satisfies DocumentKind;
export const DEACTIVATION_DOCUMENT_NAME = 'Security Instrument and Assignment';

/** SPEC section 9: uploads are at most 10 MB, PDF only. */
export const DEACTIVATION_FILE_MAX_BYTES = MAX_UPLOAD_BYTES;
export { PDF_CONTENT_TYPE };

/** Every PDF starts with these bytes ('%PDF-'): the server judges a file by them, not by its name. */
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d] as const;
export const hasPdfSignature = (head: Uint8Array): boolean => PDF_MAGIC.every((byte, index) => head[index] === byte);

/** What the browser says of a chosen file: a PDF by its type or its extension (the server then reads its bytes). */
export const isDeclaredPdf = (file: { readonly name: string; readonly type: string }): boolean =>
  file.type === PDF_CONTENT_TYPE || file.name.toLowerCase().endsWith('.pdf');

/** A zip of 5 digits or 5+4 (with or without the hyphen). */
export const ZIP_CODE_PATTERN = /^\d{5}(?:-?\d{4})?$/;

/** The roles whose holder may ask for a loan's deactivation (SPEC section 5). */
export const DEACTIVATING_ROLES = ['OWNER', 'SERVICER'] as const;

/**
 * What the deactivation rule reads of a loan, for one organization: the asset page builds it from
 * the loan's details, the asset list from a list item (src/contract/deactivation.ts).
 */
export interface DeactivationSubject {
  /** Active and not deactivated. */
  readonly active: boolean;
  /** The roles the organization holds on the loan. */
  readonly heldRoles: readonly string[];
  /** The states of the loan's roles (a PENDING one: a role transfer awaits its answer). */
  readonly roleStates: readonly (string | undefined)[];
  /** A deactivation request already waits (false where the source does not say: the server has the last word). */
  readonly requestPending: boolean;
}

/**
 * Why the organization may not ask for the deactivation of this loan now, in the server's words,
 * or null. The one rule for the asset page and the asset list, in the order of the server's checks
 * (src/server/db/deactivation-repository.ts), which stay the last word.
 */
export function deactivationBlocker(loan: DeactivationSubject): string | null {
  if (!loan.heldRoles.some((role) => (DEACTIVATING_ROLES as readonly string[]).includes(role)))
    return DEACTIVATION_TEXTS.notOwnerOrServicer;
  if (!loan.active) return DEACTIVATION_TEXTS.alreadyInactive;
  if (loan.requestPending) return DEACTIVATION_TEXTS.alreadyRequested;
  if (loan.roleStates.includes('PENDING')) return DEACTIVATION_TEXTS.transferPending;
  return null;
}
