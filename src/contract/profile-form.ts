// The profile form's side of the contract (src/contract/profile.ts): the profile and its contacts
// as the form holds them (phones as the phone field's values), and the conversions to and from the
// wire. Apart from profile.ts so that the phone tables (libphonenumber-js) load with the profile
// screen, not with every page's API client.
import { EMPTY_PHONE, phoneValueFromText, phoneValueToText, type PhoneValue } from '../domain/phone';
import type { ProfileInfo } from './participants';
import { CONTACT_TYPES, type ContactDraft, type ContactType, type FieldErrors, type ProfileDraft } from './profile';

/** One contact as the profile form holds it: the phone as the phone field's value. */
export interface ContactForm {
  readonly type: ContactType;
  readonly name: string;
  readonly phone: PhoneValue;
  readonly email: string;
}

/** The profile as the form holds it (every field a string, phones as the phone field's values). */
export interface ProfileForm {
  readonly name: string;
  readonly phone: PhoneValue;
  readonly email: string;
  readonly street: string;
  readonly street2: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly url: string;
  readonly contacts: readonly ContactForm[];
}
export type ProfileFormField = Exclude<keyof ProfileForm, 'contacts'>;

export const EMPTY_CONTACT_FORM: ContactForm = { type: 'PRIMARY', name: '', phone: EMPTY_PHONE, email: '' };

const contactTypeOf = (type: string): ContactType =>
  (CONTACT_TYPES as readonly string[]).includes(type) ? (type as ContactType) : 'PRIMARY';

export const contactFormOf = (contact: ProfileInfo['additionalContacts'][number]): ContactForm => ({
  type: contactTypeOf(contact.type),
  name: contact.name,
  phone: phoneValueFromText(contact.phoneNumber),
  email: contact.email,
});

export const profileFormOf = (info: ProfileInfo): ProfileForm => ({
  name: info.name,
  phone: phoneValueFromText(info.phoneNumber),
  email: info.email,
  street: info.address.street,
  street2: info.address.street2 ?? '',
  city: info.address.city,
  state: info.address.state,
  zip: info.address.zip,
  url: info.url ?? '',
  contacts: info.additionalContacts.map(contactFormOf),
});

export const contactBodyOf = (form: ContactForm): ContactDraft => ({
  type: form.type,
  name: form.name,
  phoneNumber: phoneValueToText(form.phone),
  email: form.email,
});

/** The PATCH body of a form. */
export const profileBodyOf = (form: ProfileForm): ProfileDraft => ({
  name: form.name,
  phoneNumber: phoneValueToText(form.phone),
  email: form.email,
  address: { street: form.street, street2: form.street2 || null, city: form.city, state: form.state, zip: form.zip },
  url: form.url || null,
  additionalContacts: form.contacts.map(contactBodyOf),
});

/** The form field of a body path (`address.zip` is `zip`, `phoneNumber` is `phone`); contacts' paths stay as they are. */
export function formFieldOf(path: string): string {
  if (path.startsWith('address.')) return path.slice('address.'.length);
  if (path === 'phoneNumber') return 'phone';
  if (path.startsWith('additionalContacts.')) return path.replace(/\.phoneNumber$/, '.phone');
  return path;
}

/** Errors of a form by its field names. */
export const formErrorsOf = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([path, message]) => [formFieldOf(path), message]));

/** The profile form's order: the first invalid one gets the focus. */
export const PROFILE_FORM_FIELDS: readonly ProfileFormField[] = [
  'name',
  'phone',
  'email',
  'street',
  'street2',
  'city',
  'state',
  'zip',
  'url',
];
export const CONTACT_FORM_FIELDS = ['type', 'name', 'phone', 'email'] as const;
