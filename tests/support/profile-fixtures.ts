// A contact profile and relationship for the profile and partner view tests.
import type { ProfileInfo } from '../../src/contract/participants';
import type { PartnerProfile, Relationship } from '../../src/contract/profile';

export const sampleProfile = (overrides: Partial<ProfileInfo> = {}): ProfileInfo => ({
  name: 'Harbor Lending',
  phoneNumber: '(415) 555-0100',
  email: 'desk@harbor.test',
  address: { street: '1 Market Street', street2: null, city: 'San Francisco', state: 'CA', zip: '94105' },
  url: 'https://harbor.test',
  additionalContacts: [{ type: 'LEGAL', name: 'Lee Gal', email: 'legal@harbor.test', phoneNumber: '(415) 555-0101' }],
  ...overrides,
});

export const sampleRelationship: Relationship = {
  id: '3b6f1c2a-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  partnerParticipantId: '00000000-0000-4000-8000-000000000009',
  partnerName: 'Bayside Servicing',
  type: 'SERVICING',
  state: 'CONFIRMED',
  created: '2026-01-05T10:00:00.000Z',
};

export const samplePartner: PartnerProfile = {
  participantId: sampleRelationship.partnerParticipantId,
  ...sampleProfile({ name: 'Bayside Servicing', email: 'desk@bayside.test' }),
};
