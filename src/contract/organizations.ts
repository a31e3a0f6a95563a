// The organizations of the administration (SPEC sections 3, 5 and 7): the participant write body
// with SPEC section 5's Organization rules, written once here and applied by the organization form
// (machines/organization-form.ts) and the server (POST, PUT v2 /participants) alike; the list
// query and page; the PATCH body; the audit log page (the Activity tab).
import { z } from 'zod';
import { ZIP_MAX_LENGTH } from '../domain/constants';
import { ZIP_CODE_PATTERN } from '../domain/deactivation';
import { ORGANIZATION_TEXTS as T } from '../domain/administration-texts';
import { isUsStateCode } from '../domain/us-states';
import { inputText } from './common';
import { pageAnswerOf, pageQueryOf } from './paging';
import { participantSchema } from './participants';

const TEXT_MAX = 200;
const EMAIL_MAX = 254;

const requiredText = (message: string, max = TEXT_MAX) => inputText().trim().min(1, message).max(max, T.tooLong(max));

/** SPEC section 5: 10 digits, or 11 starting with 1; punctuation a person types ('(415) 555-0100', '+1 ...') is dropped. */
export function phoneDigits(value: string): string | null {
  const digits = value.replace(/[\s().+-]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  if (digits.length === 10) return digits;
  if (digits.length === 11 && digits.startsWith('1')) return digits.slice(1);
  return null;
}

const phone = inputText().transform((value, context) => {
  const trimmed = value.trim();
  const digits = phoneDigits(trimmed);
  if (digits === null) {
    context.addIssue({ code: 'custom', message: trimmed ? T.invalidPhone : T.phoneRequired });
    return z.NEVER;
  }
  // Stored as the 10 national digits, shown as (###) ###-#### (SPEC section 9).
  return digits;
});

const email = inputText()
  .trim()
  .superRefine((value, context) => {
    if (!value) context.addIssue({ code: 'custom', message: T.emailRequired });
    else if (value.length > EMAIL_MAX || !z.email().safeParse(value).success) context.addIssue({ code: 'custom', message: T.invalidEmail });
  });

/** The participant fields of a write: POST's body without its id, and PUT's body. */
export const organizationFieldsSchema = z.object({
  participantName: requiredText(T.nameRequired),
  organizationName: requiredText(T.organizationNameRequired),
  code: inputText()
    .trim()
    .toUpperCase()
    .refine((value) => [...value].length === 3, T.codeLength),
  email,
  phoneNumber: phone,
  address: z.object({
    street: requiredText(T.streetRequired),
    street2: inputText()
      .trim()
      .max(TEXT_MAX, T.tooLong(TEXT_MAX))
      .nullable()
      .optional()
      .transform((value) => value || null),
    city: requiredText(T.cityRequired),
    state: z
      .string(T.invalidState)
      .trim()
      .toUpperCase()
      .refine((value) => isUsStateCode(value), T.invalidState),
    zip: z.string(T.invalidZip).trim().max(ZIP_MAX_LENGTH, T.invalidZip).regex(ZIP_CODE_PATTERN, T.invalidZip),
  }),
  grantedLimitedPowerOfAttorney: z.boolean(T.powerOfAttorneyBoolean),
});

/** PUT v2 /participants/{participantId}: the POST body without id (the id is read-only). */
export const organizationUpdateSchema = organizationFieldsSchema.strict();
/** POST v2 /participants: the id is a uuid the client made. */
export const organizationCreateSchema = organizationFieldsSchema.extend({ id: z.uuid(T.invalidId) });

export type OrganizationFields = z.output<typeof organizationFieldsSchema>;
export type OrganizationCreate = z.input<typeof organizationCreateSchema>;
export type OrganizationUpdate = z.input<typeof organizationUpdateSchema>;

/** The form's draft: the wire names, every text a string. */
export interface OrganizationDraft {
  readonly participantName: string;
  readonly organizationName: string;
  readonly code: string;
  readonly email: string;
  readonly phoneNumber: string;
  readonly address: {
    readonly street: string;
    readonly street2: string;
    readonly city: string;
    readonly state: string;
    readonly zip: string;
  };
  readonly grantedLimitedPowerOfAttorney: boolean;
}

export const EMPTY_ORGANIZATION_DRAFT: OrganizationDraft = {
  participantName: '',
  organizationName: '',
  code: '',
  email: '',
  phoneNumber: '',
  address: { street: '', street2: '', city: '', state: '', zip: '' },
  grantedLimitedPowerOfAttorney: false,
};

/** Every text field of the form, by its path in the draft (and on the wire); form order. */
export const ORGANIZATION_TEXT_FIELDS = [
  'code',
  'participantName',
  'organizationName',
  'email',
  'phoneNumber',
  'address.street',
  'address.street2',
  'address.city',
  'address.state',
  'address.zip',
] as const;
export type OrganizationTextField = (typeof ORGANIZATION_TEXT_FIELDS)[number];
export type OrganizationField = OrganizationTextField | 'grantedLimitedPowerOfAttorney';
export const ORGANIZATION_FIELDS: readonly OrganizationField[] = [...ORGANIZATION_TEXT_FIELDS, 'grantedLimitedPowerOfAttorney'];
export type OrganizationErrors = Partial<Record<OrganizationField, string>>;

const isField = (value: string): value is OrganizationField => (ORGANIZATION_FIELDS as readonly string[]).includes(value);

/** A text field's value in the draft. */
export function organizationDraftValue(draft: OrganizationDraft, field: OrganizationTextField): string {
  if (field.startsWith('address.')) return (draft.address as Readonly<Record<string, string>>)[field.slice('address.'.length)] ?? '';
  return (draft as unknown as Readonly<Record<string, string>>)[field] ?? '';
}

/** The draft with one text field changed. */
export function withOrganizationDraftValue(draft: OrganizationDraft, field: OrganizationTextField, value: string): OrganizationDraft {
  if (field.startsWith('address.')) return { ...draft, address: { ...draft.address, [field.slice('address.'.length)]: value } };
  return { ...draft, [field]: value };
}

/** Every broken rule, one message per field (the first), by field path. */
export function organizationErrors(draft: OrganizationDraft): OrganizationErrors {
  const errors: OrganizationErrors = {};
  const parsed = organizationFieldsSchema.safeParse(draft);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.');
      if (isField(field)) errors[field] ??= issue.message;
    }
  }
  return errors;
}

/** The first field, in form order, that has an error. */
export const firstInvalidOrganizationField = (errors: OrganizationErrors): OrganizationField | undefined =>
  ORGANIZATION_FIELDS.find((field) => errors[field] !== undefined);

/** The fields a server 400 names ('body.address.zip: Must be a valid ZIP code; body.code: ...'), with their texts. */
export function parseOrganizationErrors(message: string): OrganizationErrors {
  const errors: OrganizationErrors = {};
  for (const part of message.split('; ')) {
    const colon = part.indexOf(': ');
    if (colon <= 0) continue;
    const field = part.slice(0, colon).replace(/^body\./, '');
    if (isField(field)) errors[field] ??= part.slice(colon + 2);
  }
  return errors;
}

/** The draft of a stored organization (the edit form starts from it). */
export function draftOfParticipant(participant: z.infer<typeof participantSchema>): OrganizationDraft {
  return {
    participantName: participant.name,
    organizationName: participant.organizationName,
    code: participant.code,
    email: participant.email,
    phoneNumber: participant.phoneNumber,
    address: {
      street: participant.address.street,
      street2: participant.address.street2 ?? '',
      city: participant.address.city,
      state: participant.address.state,
      zip: participant.address.zip,
    },
    grantedLimitedPowerOfAttorney: participant.grantedLimitedPowerOfAttorney,
  };
}

/** The wire body of a draft (PUT's; POST adds the id). */
export function organizationBodyOf(draft: OrganizationDraft): OrganizationUpdate {
  return {
    ...draft,
    address: { ...draft.address, street2: draft.address.street2.trim() === '' ? null : draft.address.street2 },
  };
}

export const ORGANIZATION_STATUSES = ['active', 'inactive', 'all'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];
export const ORGANIZATION_SORTS = ['name', 'code', 'createdAt'] as const;
export type OrganizationSort = (typeof ORGANIZATION_SORTS)[number];

/** GET v2 /participants: paged, sorted, searchable by name, code or email, filtered by status. */
export const organizationsQuerySchema = pageQueryOf({
  query: inputText().trim().max(200).optional().describe('Any part of the name, organization name, code or email (case-insensitive)'),
  status: z.enum(ORGANIZATION_STATUSES).default('all'),
  sort: z.enum(ORGANIZATION_SORTS).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
});
export type OrganizationsQuery = z.output<typeof organizationsQuerySchema>;
export const organizationsPageSchema = pageAnswerOf('participants', participantSchema, 'Organizations matching the query and status');
export type OrganizationsPage = z.infer<typeof organizationsPageSchema>;

/** POST v2 /participants answers the organization (SPEC: the response has id). */
export const createdOrganizationSchema = participantSchema;

/** PATCH v2 /participants/{participantId}: false deactivates; true reactivates (registry staff). */
export const organizationStatusBodySchema = z.object({ isActive: z.boolean('isActive must be true or false') }).strict();

/** One row of an organization's audit log. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  occurredAt: z.iso.datetime({ offset: true }),
  actorUserId: z.uuid().nullable(),
  actorEmail: z.string().nullable(),
  clientAddress: z.string().nullable(),
  action: z.string().describe('organization.created, organization.updated, organization.deactivated, user.invited, ...'),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().describe('The values before the change (null for a creation)'),
  after: z.unknown().describe('The values after the change (null for a removal)'),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET v2 /participants/{participantId}/activity: newest first. */
export const activityQuerySchema = pageQueryOf({});
export const activityPageSchema = pageAnswerOf('entries', auditEntrySchema, "The organization's audit rows");
export type ActivityPage = z.infer<typeof activityPageSchema>;

/** The CSV export's columns, in order. */
export const ACTIVITY_CSV_COLUMNS = [
  'occurredAt',
  'actorEmail',
  'clientAddress',
  'action',
  'targetType',
  'targetId',
  'before',
  'after',
] as const;
