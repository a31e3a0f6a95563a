// Typed sample data for session tests, built through the contract schemas so they stay valid.
import { figureInfoSchema } from '../../src/contract/identity';
import { userParticipantSchema, type UserParticipant } from '../../src/contract/participants';
import { userSchema } from '../../src/contract/users';

export const sampleIdentity = figureInfoSchema.parse({
  identityUuid: '8d3c7e52-6a1f-4b4e-9c55-0d1e2f3a4b5c',
  email: 'user@registry.test',
  name: 'Uma User',
  roles: { 'service-dart': ['ROLE_DART_USER'] },
});

export const sampleUser = userSchema.parse({
  id: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
  userId: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
  fullName: 'Uma User',
  email: 'user@registry.test',
  firstName: 'Uma',
  middleName: null,
  lastName: 'User',
  roles: ['ORG_ADMIN'],
});

export function sampleOrganization(index: number, isDefault = false): UserParticipant {
  const hex = index.toString(16).padStart(12, '0');
  return userParticipantSchema.parse({
    isDefault,
    participant: {
      id: `00000000-0000-4000-8000-${hex}`,
      name: `Organization ${index}`,
      organizationName: `Organization ${index} LLC`,
      code: `O${String(index).padStart(2, '0')}`.slice(0, 3),
      email: `org${index}@registry.test`,
      phoneNumber: '4155550100',
      address: { street: '1 Main St', street2: null, city: 'Springfield', state: 'IL', zip: '62701' },
      grantedLimitedPowerOfAttorney: false,
      isActive: true,
    },
  });
}
