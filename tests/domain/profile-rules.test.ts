// SPEC section 5's Contact edit rules as the profile form and the server apply them, and the
// conversions between the form and the PATCH body.
import { describe, expect, it } from 'vitest';
import { contactErrors, parseFieldErrors, profileErrors, type ProfileDraft } from '../../src/contract/profile';
import { formErrorsOf, profileBodyOf, profileFormOf } from '../../src/contract/profile-form';
import { parseRelationshipsView, serializeRelationshipsView } from '../../machines/relationships-list';
import { PROFILE_TEXTS as T } from '../../src/domain/administration-texts';
import { sampleProfile } from '../support/profile-fixtures';

const valid: ProfileDraft = profileBodyOf(profileFormOf(sampleProfile()));

describe('contact edit rules (SPEC section 5)', () => {
  it("gives each contact rule SPEC's message", () => {
    expect(contactErrors({ type: 'LEGAL', name: ' ', phoneNumber: '', email: '' })).toEqual({
      name: T.contactNameRequired,
      phoneNumber: T.invalidPhone,
      email: T.emailRequired,
    });
    expect(contactErrors({ type: 'LEGAL', name: 'Lee', phoneNumber: '415-555-0101', email: 'lee@' })).toEqual({
      phoneNumber: T.invalidPhone,
      email: T.invalidEmail,
    });
    expect(contactErrors({ type: 'LEGAL', name: 'Lee', phoneNumber: '(415) 555-0101', email: 'lee@harbor.test' })).toEqual({});
  });

  it('applies the same rules to the profile and names each contact by its place', () => {
    expect(profileErrors(valid)).toEqual({});
    const errors = profileErrors({
      ...valid,
      url: 'harbor',
      address: { ...valid.address, zip: '123', state: 'XX', city: '' },
      additionalContacts: [{ type: 'PRIMARY', name: '', phoneNumber: '(415) 555-0101', email: 'a@b.test' }],
    });
    expect(errors).toEqual({
      url: T.invalidUrl,
      'address.zip': T.invalidZip,
      'address.state': T.invalidState,
      'address.city': T.cityRequired,
      'additionalContacts.0.name': T.contactNameRequired,
    });
    expect(formErrorsOf(errors)).toMatchObject({
      zip: T.invalidZip,
      city: T.cityRequired,
      'additionalContacts.0.name': T.contactNameRequired,
    });
  });

  it("reads a 400's message back into fields", () => {
    expect(parseFieldErrors(`body.email: ${T.invalidEmail}; body.additionalContacts.1.phoneNumber: ${T.invalidPhone}`)).toEqual({
      email: T.invalidEmail,
      'additionalContacts.1.phoneNumber': T.invalidPhone,
    });
    expect(formErrorsOf({ phoneNumber: T.invalidPhone, 'additionalContacts.1.phoneNumber': T.invalidPhone })).toEqual({
      phone: T.invalidPhone,
      'additionalContacts.1.phone': T.invalidPhone,
    });
    expect(parseFieldErrors('Something else')).toEqual({});
  });

  it('writes phones as (###) ###-#### in the body, whatever the stored punctuation', () => {
    const body = profileBodyOf(profileFormOf(sampleProfile({ phoneNumber: '4155550100' })));
    expect(body.phoneNumber).toBe('(415) 555-0100');
    expect(body.url).toBe('https://harbor.test');
    expect(body.address.street2).toBeNull();
  });

  it('keeps the relationships page and size in the URL only when not the defaults', () => {
    expect(serializeRelationshipsView({ page: 1, limit: 10 })).toBe('');
    expect(serializeRelationshipsView({ page: 2, limit: 20 })).toBe('?page=2&limit=20');
    expect(parseRelationshipsView('?page=2&limit=20')).toEqual({ page: 2, limit: 20 });
  });
});
