// Members and registry users for the organization-users tests, parsed with the contract.
import { addedUserSchema, organizationUserSchema, type AddedUser, type OrganizationUser } from '../../src/contract/organization-users';
import { userSchema, type User } from '../../src/contract/users';

export const ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';

const uuid = (index: number, prefix = 'aaaaaaaa') => `${prefix}-0000-4000-8000-${String(index).padStart(12, '0')}`;

export function sampleRegistryUser(index: number, overrides: Partial<User> = {}): User {
  const firstName = overrides.firstName ?? `Ada${index}`;
  const lastName = overrides.lastName ?? `Lovelace${index}`;
  return userSchema.parse({
    id: uuid(index),
    userId: uuid(index),
    fullName: `${firstName} ${lastName}`,
    email: `ada${index}@example.test`,
    firstName,
    middleName: null,
    lastName,
    roles: [],
    ...overrides,
  });
}

export function sampleMember(
  index: number,
  overrides: Partial<OrganizationUser> & { pending?: boolean; expired?: boolean } = {},
): OrganizationUser {
  const { pending = false, expired = false, ...rest } = overrides;
  return organizationUserSchema.parse({
    ...sampleRegistryUser(index),
    roles: ['ORG_ADMIN'],
    lastSignInAt: pending ? null : '2026-11-20T10:00:00.000Z',
    invitation:
      pending || expired
        ? {
            id: uuid(index, 'bbbbbbbb'),
            createdAt: '2026-11-20T10:00:00.000Z',
            expiresAt: '2026-11-27T10:00:00.000Z',
            expired,
          }
        : null,
    ...rest,
  });
}

export const INVITATION_LINK = 'http://localhost/identity-broker/agent/invitation?token=abc123';

export const addedNewUser = (member: OrganizationUser): AddedUser =>
  addedUserSchema.parse({ user: member, invitationLink: INVITATION_LINK });
export const addedExistingUser = (member: OrganizationUser): AddedUser => addedUserSchema.parse({ user: member, invitationLink: null });
