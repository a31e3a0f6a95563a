// The organization's contact profile and its relationships (SPEC sections 3, 5 and 7): the PATCH
// v1 /participants/profile body with SPEC section 5's Contact edit rules (applied by the profile
// form and the server alike), the relationships list, one relationship and its partner's profile.
import { z } from 'zod';
import { isUsStateCode } from '../domain/us-states';
import { ZIP_CODE_PATTERN } from '../domain/deactivation';
import { PROFILE_TEXTS as T } from '../domain/administration-texts';
import { inputText } from './common';
import { pageAnswerOf, pageQueryOf } from './paging';
import { profileInfoSchema } from './participants';

export const CONTACT_TYPES = ['PRIMARY', 'LEGAL', 'CUSTODIAN', 'CUSTOMER_SERVICE'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];
export const CONTACT_TYPE_LABELS: Readonly<Record<ContactType, string>> = {
  PRIMARY: 'Primary',
  LEGAL: 'Legal',
  CUSTODIAN: 'Custodian',
  CUSTOMER_SERVICE: 'Customer service',
};

const TEXT_MAX = 200;
const URL_MAX = 500;
/** Enough for every desk of an organization; a bound so one body cannot grow without end. */
export const MAX_ADDITIONAL_CONTACTS = 50;
/** SPEC section 5 and 9: a contact's phone is written (###) ###-####. */
export const CONTACT_PHONE_PATTERN = /^\(\d{3}\) \d{3}-\d{4}$/;

const text = (max = TEXT_MAX) => inputText().trim().max(max, T.tooLong(max));

/** SPEC section 5: 'Please enter the email.' when empty, 'Please enter a valid email address.' otherwise. */
const email = inputText()
  .trim()
  .superRefine((value, context) => {
    if (!value) context.addIssue({ code: 'custom', message: T.emailRequired });
    else if (value.length > 254 || !z.email().safeParse(value).success) context.addIssue({ code: 'custom', message: T.invalidEmail });
  });

const phone = inputText().trim().regex(CONTACT_PHONE_PATTERN, T.invalidPhone);

/** One additional contact (SPEC section 5's Contact edit rules). */
export const contactFieldsSchema = z.object({
  type: z.enum(CONTACT_TYPES, { error: `must be one of ${CONTACT_TYPES.join(', ')}` }),
  name: text().min(1, T.contactNameRequired),
  phoneNumber: phone,
  email,
});
export type ContactDraft = z.input<typeof contactFieldsSchema>;
export type ContactFields = z.output<typeof contactFieldsSchema>;

/** PATCH v1 /participants/profile: the acting organization's profile with its additional contacts. */
export const profileBodySchema = z.object({
  name: text().min(1, T.contactNameRequired),
  phoneNumber: phone,
  email,
  address: z.object({
    street: text().min(1, T.streetRequired),
    street2: text()
      .nullable()
      .optional()
      .transform((value) => value || null),
    city: text().min(1, T.cityRequired),
    state: z
      .string()
      .trim()
      .toUpperCase()
      .refine((value) => isUsStateCode(value), T.invalidState),
    zip: z.string().trim().regex(ZIP_CODE_PATTERN, T.invalidZip),
  }),
  url: text(URL_MAX)
    .nullable()
    .optional()
    .transform((value) => value || null)
    .refine((value) => value === null || /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value), T.invalidUrl),
  additionalContacts: z.array(contactFieldsSchema).max(MAX_ADDITIONAL_CONTACTS, T.contactsTooMany(MAX_ADDITIONAL_CONTACTS)),
});
export type ProfileDraft = z.input<typeof profileBodySchema>;
export type ProfileFields = z.output<typeof profileBodySchema>;

/** Errors by field path: `name`, `address.zip`, `additionalContacts.2.email`. */
export type FieldErrors = Readonly<Record<string, string>>;

function errorsOf(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

/** Every broken rule of a profile, one message per field. */
export function profileErrors(draft: ProfileDraft): FieldErrors {
  const parsed = profileBodySchema.safeParse(draft);
  return parsed.success ? {} : errorsOf(parsed.error.issues);
}

/** Every broken rule of one contact, by its field. */
export function contactErrors(draft: ContactDraft): FieldErrors {
  const parsed = contactFieldsSchema.safeParse(draft);
  return parsed.success ? {} : errorsOf(parsed.error.issues);
}

/** `name: Please enter the contact name.; additionalContacts.0.email: ...`: a 400's message, each field by its path. */
export const describeFieldErrors = (errors: FieldErrors): string =>
  Object.entries(errors)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');

/** The answer of a profile update: the profile as stored. */
export const profileAnswerSchema = profileInfoSchema;

export const EMPTY_CONTACT: ContactDraft = { type: 'PRIMARY', name: '', phoneNumber: '', email: '' };

/** One relationship of the acting organization, as its profile page lists it. */
export const relationshipSchema = z.object({
  id: z.uuid(),
  /** The other organization of the relationship, seen from the acting one. */
  partnerParticipantId: z.uuid(),
  partnerName: z.string(),
  type: z.string(),
  state: z.string(),
  created: z.iso.datetime({ offset: true }),
});
export type Relationship = z.infer<typeof relationshipSchema>;

export const relationshipsQuerySchema = pageQueryOf({});
export type RelationshipsQuery = z.input<typeof relationshipsQuerySchema>;
export const relationshipsPageSchema = pageAnswerOf(
  'relationships',
  relationshipSchema,
  "The acting organization's relationships, newest first",
);
export type RelationshipsPage = z.infer<typeof relationshipsPageSchema>;

export const relationshipParamsSchema = z.object({ relationshipId: z.uuid() });

/** GET v1 /relationships/{relationshipId}/partnerProfile: the partner organization's profile, read only. */
export const partnerProfileSchema = profileInfoSchema.extend({ participantId: z.uuid() });
export type PartnerProfile = z.infer<typeof partnerProfileSchema>;

/** A relationship the acting organization is not part of answers like a missing one. */
export const RELATIONSHIP_NOT_FOUND = T.relationshipNotFound;

/** A 400's message (`body.additionalContacts.0.email: ...; body.name: ...`) back into errors by field path. */
export function parseFieldErrors(message: string): FieldErrors {
  const errors: Record<string, string> = {};
  for (const part of message.split('; ')) {
    const match = /^body\.([\w.]+): (.+)$/.exec(part.trim());
    if (match?.[1] && match[2]) errors[match[1]] ??= match[2];
  }
  return errors;
}
