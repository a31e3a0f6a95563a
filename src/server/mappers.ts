// Database rows to contract shapes (SPEC section 3), shared by every route that returns them.
import type { Participant, ProfileInfo } from '../contract/participants';
import type { User } from '../contract/users';
import type { ContactRow, ParticipantRow, UserRow } from './db/user-repository';

export function toParticipant(row: ParticipantRow): Participant {
  return {
    id: row.id,
    name: row.name,
    organizationName: row.organizationName,
    code: row.code,
    email: row.email,
    phoneNumber: row.phoneNumber,
    address: { street: row.street, street2: row.street2, city: row.city, state: row.state, zip: row.zip },
    grantedLimitedPowerOfAttorney: row.grantedLimitedPowerOfAttorney,
    isActive: row.isActive,
  };
}

export function toProfileInfo(row: ParticipantRow, contacts: readonly ContactRow[]): ProfileInfo {
  return {
    name: row.name,
    phoneNumber: row.phoneNumber,
    email: row.email,
    address: { street: row.street, street2: row.street2, city: row.city, state: row.state, zip: row.zip },
    url: row.url,
    additionalContacts: contacts.map((contact) => ({
      type: contact.type as ProfileInfo['additionalContacts'][number]['type'],
      name: contact.name,
      email: contact.email,
      phoneNumber: contact.phoneNumber,
    })),
  };
}

export function fullNameOf(user: Pick<UserRow, 'firstName' | 'middleName' | 'lastName'>): string {
  return [user.firstName, user.middleName, user.lastName].filter((part) => part && part.trim()).join(' ');
}

export function toUser(row: UserRow, roles: readonly string[]): User {
  return {
    id: row.id,
    userId: row.id,
    fullName: fullNameOf(row),
    email: row.email,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    roles: [...roles],
  };
}
