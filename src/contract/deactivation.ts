// The deactivation request (SPEC sections 3, 5 and 7): its rules, written once here and applied by
// the form (machines/deactivation.ts) and the server (POST v1 /loans/{loanId}/deactivate) alike,
// with SPEC's messages; the multipart field names on the wire; the server's answer.
import { z } from 'zod';
import {
  asksForAssignee,
  DEACTIVATION_ENTITY_TYPES,
  DEACTIVATION_FILE_MAX_BYTES,
  DEACTIVATION_REASONS,
  DEACTIVATION_REQUEST_STATUSES,
  isDeclaredPdf,
  PDF_CONTENT_TYPE,
  ZIP_CODE_PATTERN,
} from '../domain/deactivation';
import type { DeactivationSubject } from '../domain/deactivation';
import { isUsStateCode, US_STATE_CODES } from '../domain/us-states';
import { inputText, isoDateInput } from './common';
import type { LoanDetails, LoanListItem } from './loans';
import { DEACTIVATION_TEXTS as T } from '../domain/deactivation-texts';

const TEXT_MAX = 200;
const RECORDING_MAX = 50;

const optionalText = (max: number) =>
  inputText()
    .trim()
    .max(max, T.tooLong(max))
    .transform((value) => value || null);
const requiredText = (message: string, max: number) => inputText().trim().min(1, message).max(max, T.tooLong(max));

/** SPEC's message when nothing was chosen; a value the form never offers is told what it may be. */
const choice = <const Values extends readonly [string, ...string[]]>(values: Values, required: string) =>
  z.enum(values, {
    error: (issue) => (issue.input === undefined || issue.input === '' ? required : `must be one of ${values.join(', ')}`),
  });

/** A US state or territory code (SPEC's 55): empty is `required`, anything else unknown is 'Please enter a valid state'. */
const stateCode = (required: string) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .superRefine((value, context) => {
      if (!isUsStateCode(value)) context.addIssue({ code: 'custom', message: value ? T.invalidState : required });
    });

const isoDate = isoDateInput();

/**
 * The request's fields as the form holds them (every value a string) and, parsed, as the server
 * stores them: trimmed, optional ones null when empty, the assignee dropped for a payoff.
 */
export const deactivationFieldsSchema = z
  .object({
    reason: choice(DEACTIVATION_REASONS, T.reasonRequired),
    effectiveDate: z
      .string()
      .trim()
      .superRefine((value, context) => {
        if (!value) context.addIssue({ code: 'custom', message: T.effectiveDateRequired });
        else if (!isoDate.safeParse(value).success) context.addIssue({ code: 'custom', message: T.invalidDate });
      }),
    assignee: optionalText(TEXT_MAX),
    entityType: choice(DEACTIVATION_ENTITY_TYPES, T.entityTypeRequired),
    statePostalCode: stateCode(T.statePostalCodeRequired),
    address: z.object({
      street1: requiredText(T.street1Required, TEXT_MAX),
      street2: optionalText(TEXT_MAX),
      city: requiredText(T.cityRequired, TEXT_MAX),
      state: stateCode(T.invalidState),
      zip: z.string().trim().regex(ZIP_CODE_PATTERN, T.invalidZip),
    }),
    bookNumber: optionalText(RECORDING_MAX),
    pageNumber: optionalText(RECORDING_MAX),
    instrumentNumber: optionalText(RECORDING_MAX),
  })
  .transform((fields) => ({ ...fields, assignee: asksForAssignee(fields.reason) ? fields.assignee : null }));

/** The form's draft, as typed: every field a string. */
export interface DeactivationDraft {
  readonly reason: string;
  readonly effectiveDate: string;
  readonly assignee: string;
  readonly entityType: string;
  readonly statePostalCode: string;
  readonly address: {
    readonly street1: string;
    readonly street2: string;
    readonly city: string;
    readonly state: string;
    readonly zip: string;
  };
  readonly bookNumber: string;
  readonly pageNumber: string;
  readonly instrumentNumber: string;
}
/** The fields after the rules: what the server stores. */
export type DeactivationFields = z.output<typeof deactivationFieldsSchema>;

/**
 * The security instrument and assignment as the rules see it: its size and its content type
 * (the form: what the browser declares; the server: what its first bytes say). Absent is null.
 */
export const instrumentFileSchema = z
  .object({ size: z.number().int().min(0), type: z.string() })
  .nullable()
  .superRefine((file, context) => {
    if (!file) context.addIssue({ code: 'custom', message: T.fileRequired });
    else if (file.size > DEACTIVATION_FILE_MAX_BYTES) context.addIssue({ code: 'custom', message: T.fileTooLarge });
    else if (file.type !== PDF_CONTENT_TYPE) context.addIssue({ code: 'custom', message: T.fileNotPdf });
  });
export type InstrumentFile = z.input<typeof instrumentFileSchema>;

/** A file chosen in the browser as the rule sees it: PDF when its type or name says so (the server reads its bytes). */
export const declaredInstrument = (file: { readonly name: string; readonly size: number; readonly type: string } | null): InstrumentFile =>
  file && { size: file.size, type: isDeclaredPdf(file) ? PDF_CONTENT_TYPE : file.type || 'application/octet-stream' };

/** Every field of the form, by its path in the draft (`address.zip`), plus the file. */
export const DEACTIVATION_TEXT_FIELDS = [
  'reason',
  'effectiveDate',
  'assignee',
  'entityType',
  'statePostalCode',
  'address.street1',
  'address.street2',
  'address.city',
  'address.state',
  'address.zip',
  'bookNumber',
  'pageNumber',
  'instrumentNumber',
] as const;
export type DeactivationTextField = (typeof DEACTIVATION_TEXT_FIELDS)[number];
export const INSTRUMENT_FILE_FIELD = 'securityInstrumentAndAssignment';
export type DeactivationField = DeactivationTextField | typeof INSTRUMENT_FILE_FIELD;
/** Form order: the first invalid one of these gets the focus. */
export const DEACTIVATION_FIELDS: readonly DeactivationField[] = [...DEACTIVATION_TEXT_FIELDS, INSTRUMENT_FILE_FIELD];

/** SPEC section 7's multipart names: the address's state and zip travel as statePostalCode and zipCode. */
export const DEACTIVATION_WIRE_NAMES: Readonly<Record<DeactivationField, string>> = {
  reason: 'reason',
  effectiveDate: 'effectiveDate',
  assignee: 'assignee',
  entityType: 'entityType',
  statePostalCode: 'statePostalCode',
  'address.street1': 'address.street1',
  'address.street2': 'address.street2',
  'address.city': 'address.city',
  'address.state': 'address.statePostalCode',
  'address.zip': 'address.zipCode',
  bookNumber: 'bookNumber',
  pageNumber: 'pageNumber',
  instrumentNumber: 'instrumentNumber',
  securityInstrumentAndAssignment: INSTRUMENT_FILE_FIELD,
};
const FIELD_OF_WIRE_NAME = new Map(Object.entries(DEACTIVATION_WIRE_NAMES).map(([field, wire]) => [wire, field as DeactivationField]));
export const fieldOfWireName = (name: string): DeactivationField | undefined => FIELD_OF_WIRE_NAME.get(name);

export type DeactivationErrors = Partial<Record<DeactivationField, string>>;

export const EMPTY_DEACTIVATION_DRAFT: DeactivationDraft = {
  reason: '',
  effectiveDate: '',
  assignee: '',
  entityType: '',
  statePostalCode: '',
  address: { street1: '', street2: '', city: '', state: '', zip: '' },
  bookNumber: '',
  pageNumber: '',
  instrumentNumber: '',
};

/** A field's value in the draft ('' when absent). */
export function draftValue(draft: DeactivationDraft, field: DeactivationTextField): string {
  const value = field.startsWith('address.')
    ? (draft.address as Readonly<Record<string, string>>)[field.slice('address.'.length)]
    : (draft as unknown as Readonly<Record<string, string>>)[field];
  return value ?? '';
}

/** The draft with one field changed. */
export function withDraftValue(draft: DeactivationDraft, field: DeactivationTextField, value: string): DeactivationDraft {
  if (field.startsWith('address.')) return { ...draft, address: { ...draft.address, [field.slice('address.'.length)]: value } };
  return { ...draft, [field]: value };
}

/** The draft from flat values keyed by field path (missing ones empty), e.g. multipart fields by their form names. */
export function draftOf(values: Partial<Record<DeactivationTextField, string>>): DeactivationDraft {
  return DEACTIVATION_TEXT_FIELDS.reduce((draft, field) => withDraftValue(draft, field, values[field] ?? ''), EMPTY_DEACTIVATION_DRAFT);
}

/** Every broken rule, one message per field (the first), by field path. */
export function deactivationErrors(draft: DeactivationDraft, file: InstrumentFile): DeactivationErrors {
  const errors: DeactivationErrors = {};
  const fields = deactivationFieldsSchema.safeParse(draft);
  if (!fields.success) {
    for (const issue of fields.error.issues) {
      const field = issue.path.join('.') as DeactivationField;
      errors[field] ??= issue.message;
    }
  }
  const instrument = instrumentFileSchema.safeParse(file);
  if (!instrument.success) errors[INSTRUMENT_FILE_FIELD] = instrument.error.issues[0]?.message ?? T.fileRequired;
  return errors;
}

/** The first field, in form order, that has an error. */
export const firstInvalidField = (errors: DeactivationErrors): DeactivationField | undefined =>
  DEACTIVATION_FIELDS.find((field) => errors[field] !== undefined);

/** `reason: Reason is required; address.zipCode: ...`: a 400's message, each field by its wire name. */
export function describeDeactivationErrors(errors: DeactivationErrors): string {
  return DEACTIVATION_FIELDS.filter((field) => errors[field] !== undefined)
    .map((field) => `${DEACTIVATION_WIRE_NAMES[field]}: ${errors[field]}`)
    .join('; ');
}

/** The reverse, for the form: the fields a server message names, with their texts. */
export function parseDeactivationErrors(message: string): DeactivationErrors {
  const errors: DeactivationErrors = {};
  for (const part of message.split('; ')) {
    const colon = part.indexOf(': ');
    const field = colon > 0 ? fieldOfWireName(part.slice(0, colon)) : undefined;
    if (field) errors[field] ??= part.slice(colon + 2);
  }
  return errors;
}

/**
 * The multipart body of a request: each filled field under its wire name (the assignee only when
 * the reason asks for one), then the file.
 */
export function deactivationFormData(draft: DeactivationDraft, file: Blob): FormData {
  const form = new FormData();
  for (const field of DEACTIVATION_TEXT_FIELDS) {
    const value = draftValue(draft, field);
    if (value === '' || (field === 'assignee' && !asksForAssignee(draft.reason))) continue;
    form.append(DEACTIVATION_WIRE_NAMES[field], value);
  }
  form.append(INSTRUMENT_FILE_FIELD, file, file instanceof File && file.name ? file.name : 'security-instrument-and-assignment.pdf');
  return form;
}

export const deactivationParamsSchema = z.object({ loanId: z.uuid() });

/** 202 to POST v1 /loans/{loanId}/deactivate: the request is recorded and its processing queued. */
export const deactivationAcceptedSchema = z.object({
  id: z.uuid(),
  loanId: z.uuid(),
  status: z.enum(DEACTIVATION_REQUEST_STATUSES),
});
export type DeactivationAccepted = z.infer<typeof deactivationAcceptedSchema>;

const wireText = (description: string) => z.string().describe(description);

/** The multipart body as OpenAPI shows it (the route applies the rules above itself, field by field). */
export const deactivationMultipartSchema = z.object({
  reason: z.enum(DEACTIVATION_REASONS).describe('payoff, removeAsMortgage, removeAsset or foreclosure'),
  effectiveDate: z.iso.date().describe('ISO date'),
  assignee: wireText(`Only when the reason is not payoff; at most ${TEXT_MAX} characters`).optional(),
  entityType: z.enum(DEACTIVATION_ENTITY_TYPES),
  statePostalCode: z.enum(US_STATE_CODES as [string, ...string[]]),
  'address.street1': wireText(`Required; at most ${TEXT_MAX} characters`),
  'address.street2': wireText(`At most ${TEXT_MAX} characters`).optional(),
  'address.city': wireText(`Required; at most ${TEXT_MAX} characters`),
  'address.statePostalCode': z.enum(US_STATE_CODES as [string, ...string[]]),
  'address.zipCode': z.string().regex(ZIP_CODE_PATTERN).describe('5 or 9 digits'),
  bookNumber: wireText(`At most ${RECORDING_MAX} characters`).optional(),
  pageNumber: wireText(`At most ${RECORDING_MAX} characters`).optional(),
  instrumentNumber: wireText(`At most ${RECORDING_MAX} characters`).optional(),
  [INSTRUMENT_FILE_FIELD]: z
    .string()
    .meta({ format: 'binary', contentMediaType: PDF_CONTENT_TYPE })
    .describe('The security instrument and assignment: a PDF (by content, not name) of at most 10 MB'),
});

/** What the deactivation rule (deactivationBlocker) reads of a loan's details, for `participantId`. */
export const deactivationSubjectOf = (details: LoanDetails, participantId: string): DeactivationSubject => ({
  active: details.loan.loanData.status === 'Active' && !details.loan.deactivated,
  heldRoles: details.parties.filter((party) => party.participantId === participantId).map((party) => party.role),
  roleStates: details.parties.map((party) => party.state),
  // The details do not say; the server refuses a second request (409).
  requestPending: false,
});

/** What the deactivation rule reads of an asset list item (its organization's roles and pending request included). */
export const deactivationSubjectOfItem = (item: LoanListItem): DeactivationSubject => ({
  // A processed deactivation makes the loan Inactive (and deactivated) in one write.
  active: item.status === 'Active',
  heldRoles: item.heldRoles,
  roleStates: [item.owner, item.servicer, item.controller, item.subServicer, item.securedParty].map((entry) => entry?.state),
  requestPending: item.deactivationPending,
});
