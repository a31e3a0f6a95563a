// The walk of the organization-profile machine: what its model-based test
// (tests/web/organization-profile-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { organizationProfileMachine } from '../../../machines/organization-profile';
import { contactFormErrors, formErrors, type OrganizationProfileSnapshot } from '../../../machines/organization-profile';
import { HttpError } from '../../../src/contract/http-error';
import { PROFILE_TEXTS as T } from '../../../src/domain/administration-texts';
import { sampleProfile } from '../../support/profile-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const profile = sampleProfile();

export const savedProfile = sampleProfile({ name: 'Harbor Lending Co' });

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const emailRefused = new HttpError(
  400,
  JSON.stringify({ statusCode: 400, error: 'Bad Request', message: `body.email: ${T.invalidEmail}` }),
);

export const VALID_CONTACT = {
  type: 'CUSTODIAN',
  name: 'Cody Custody',
  phone: { countryCode: 'US', digits: '4155550102' },
  email: 'cody@harbor.test',
};

/** States are told apart by where the machine is and by what the screen shows differently. */
export function serializeState(snapshot: OrganizationProfileSnapshot): string {
  const { canEdit, form, contact, serverErrors } = snapshot.context;
  return JSON.stringify([
    snapshot.value,
    canEdit,
    form ? Object.keys(formErrors(form)).length === 0 : null,
    form?.contacts.length ?? null,
    contact ? [contact.index, Object.keys(contactFormErrors(contact.form)).length === 0] : null,
    Object.keys(serverErrors).length > 0,
  ]);
}

export const walk: WalkerOptions<typeof organizationProfileMachine> = {
  serializeState,
  events: {
    'done: loadProfile': [{ output: { profile, canEdit: true } }, { output: { profile, canEdit: false } }],
    'error: loadProfile': { error: serverError },
    'form.change': [{ values: { name: '' } }, { values: { name: 'Harbor Lending Co' } }],
    'contact.edit': { index: 0 },
    'contact.remove': { index: 0 },
    'contact.change': [{ values: VALID_CONTACT }, { values: { name: '' } }],
    'done: saveProfile': { output: savedProfile },
    'error: saveProfile': [{ error: serverError }, { error: emailRefused }],
  },
  // What the screen cannot produce: Edit and Remove need a contact; at most two contacts keep the model finite.
  filterEvents: (snapshot, event) => {
    const count = snapshot.context.form?.contacts.length ?? 0;
    if (event.type === 'contact.edit' || event.type === 'contact.remove') return count > 0;
    if (event.type === 'contact.add') return count < 2;
    if (event.type === 'profile.edit') return snapshot.context.canEdit;
    return true;
  },
};
