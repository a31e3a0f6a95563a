// The public servicer lookup (SPEC sections 3, 5 and 7): its query with SPEC's messages (the form
// applies the same rules to its draft), its answer, and the proof-of-work challenge it asks for.
import { z } from 'zod';
import { isUsStateCode } from '../domain/us-states';
import {
  LOOKUP_NAME_MAX,
  LOOKUP_TEXT_MAX,
  LOOKUP_ZIP_MAX,
  LOOKUP_ZIP_PATTERN,
  SERVICER_LOOKUP_TEXTS as T,
} from '../domain/servicer-lookup';
import { inputText } from './common';

const tooLong = (max: number) => `must be at most ${max} characters`;
const required = (max: number) => inputText({ error: T.required }).trim().min(1, T.required).max(max, tooLong(max));
const optional = (max: number) =>
  inputText()
    .trim()
    .max(max, tooLong(max))
    .transform((value) => value || null);

/** The form's fields, every value a string as typed. */
export const servicerLookupFieldsSchema = z.object({
  borrowerLastName: required(LOOKUP_NAME_MAX),
  street1: required(LOOKUP_TEXT_MAX),
  street2: optional(LOOKUP_TEXT_MAX).optional(),
  city: required(LOOKUP_TEXT_MAX),
  state: z
    .string({ error: T.invalidState })
    .trim()
    .toUpperCase()
    .refine((value) => isUsStateCode(value), T.invalidState),
  zip: z.string({ error: T.invalidZip }).trim().max(LOOKUP_ZIP_MAX, T.invalidZip).regex(LOOKUP_ZIP_PATTERN, T.invalidZip),
});
export type ServicerLookupFields = z.output<typeof servicerLookupFieldsSchema>;
export type ServicerLookupField = keyof z.input<typeof servicerLookupFieldsSchema>;
export type ServicerLookupDraft = Record<ServicerLookupField, string>;
export type ServicerLookupErrors = Partial<Record<ServicerLookupField, string>>;

export const SERVICER_LOOKUP_FIELDS: readonly ServicerLookupField[] = ['borrowerLastName', 'street1', 'street2', 'city', 'state', 'zip'];
export const EMPTY_SERVICER_LOOKUP_DRAFT: ServicerLookupDraft = {
  borrowerLastName: '',
  street1: '',
  street2: '',
  city: '',
  state: '',
  zip: '',
};

/** The draft's problems by field, with SPEC's messages (empty: it may be sent). */
export function servicerLookupErrors(draft: ServicerLookupDraft): ServicerLookupErrors {
  const result = servicerLookupFieldsSchema.safeParse(draft);
  if (result.success) return {};
  const errors: ServicerLookupErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ServicerLookupField;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** SPEC section 7's query names: the address fields are dotted. */
export const SERVICER_LOOKUP_WIRE_NAMES: Readonly<Record<ServicerLookupField, string>> = {
  borrowerLastName: 'borrowerLastName',
  street1: 'address.street1',
  street2: 'address.street2',
  city: 'address.city',
  state: 'address.state',
  zip: 'address.zip',
};

/** The web app's results URL (SPEC section 2): plain names. */
export const SERVICER_LOOKUP_WIRE_NAMES_URL: Readonly<Record<ServicerLookupField, string>> = {
  borrowerLastName: 'borrowerLastName',
  street1: 'street1',
  street2: 'street2',
  city: 'city',
  state: 'state',
  zip: 'zip',
};

/** Where the proof-of-work solution travels (the ALTCHA widget's base64 payload); the query parameter `altcha` works too. */
export const ALTCHA_HEADER = 'x-altcha-payload';
export const ALTCHA_QUERY = 'altcha';

export const servicerLookupQuerySchema = z.object({
  borrowerLastName: servicerLookupFieldsSchema.shape.borrowerLastName,
  'address.street1': servicerLookupFieldsSchema.shape.street1,
  'address.street2': servicerLookupFieldsSchema.shape.street2,
  'address.city': servicerLookupFieldsSchema.shape.city,
  'address.state': servicerLookupFieldsSchema.shape.state,
  'address.zip': servicerLookupFieldsSchema.shape.zip,
  [ALTCHA_QUERY]: z.string().max(8192).optional(),
});
export type ServicerLookupQuery = z.input<typeof servicerLookupQuerySchema>;

/** The query of a draft that passed the rules. */
export const servicerLookupQuery = (draft: ServicerLookupDraft): Record<string, string> => {
  const query: Record<string, string> = {};
  for (const field of SERVICER_LOOKUP_FIELDS) {
    const value = draft[field].trim();
    if (value) query[SERVICER_LOOKUP_WIRE_NAMES[field]] = value;
  }
  return query;
};

export const servicerLookupResultSchema = z.object({
  uli: z.string(),
  loanType: z.string(),
  /** Masked but for its last 4 characters (our privacy decision). */
  loanNumber: z.string(),
  servicerName: z.string(),
  servicerProfile: z.object({
    url: z.string().nullable(),
    // Null where the servicer is named without a registered organization (no profile to show).
    address: z.object({ city: z.string().nullable(), state: z.string().nullable() }),
    phoneNumber: z.string().nullable(),
  }),
});
export type ServicerLookupResult = z.infer<typeof servicerLookupResultSchema>;
export const servicerLookupResultsSchema = z.array(servicerLookupResultSchema);

/** ALTCHA's challenge (altcha-lib 2, the widget's `challenge` URL answer): passed through as made. */
export const lookupChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
});
export type LookupChallenge = z.infer<typeof lookupChallengeSchema>;
