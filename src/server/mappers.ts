// Database rows to contract shapes (SPEC section 3), shared by every route that returns them.
import type { LoanDetails, LoanEvent, LoanParty, PartyValue } from '../contract/loans';
import type { Participant, ProfileInfo } from '../contract/participants';
import type { User } from '../contract/users';
import type { LoanDetailsRow, LoanEventRow, LoanPartyRow } from './db/loan-details-repository';
import type { ParticipantContact, ParticipantRow, UserRow } from './db/user-repository';

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

type ProfileColumns = Pick<ParticipantRow, 'name' | 'phoneNumber' | 'email' | 'street' | 'street2' | 'city' | 'state' | 'zip' | 'url'>;

export function toProfileInfo(row: ProfileColumns, contacts: readonly ParticipantContact[]): ProfileInfo {
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

/**
 * A role entry's current value (SPEC section 3): the participant `{ participantName, provenanceId }`
 * when the role is held by an organization (its id when it has no provenance id), else the plain
 * name, else null.
 */
export function toPartyValue(party: {
  readonly participantId: string | null;
  readonly participantName: string | null;
  readonly provenanceId: string | null;
  readonly name: string | null;
}): PartyValue | null {
  if (party.participantId !== null && party.participantName !== null) {
    return { participantName: party.participantName, provenanceId: party.provenanceId ?? party.participantId };
  }
  return party.name;
}

export function toLoanParty(row: LoanPartyRow): LoanParty {
  const participant = row.participant;
  return {
    role: row.role,
    state: row.state,
    currentValue: toPartyValue({
      participantId: participant?.id ?? null,
      participantName: participant?.name ?? null,
      provenanceId: row.provenanceId,
      name: row.name,
    }),
    participantId: participant?.id ?? null,
    profileInfo: participant ? toProfileInfo(participant, participant.contacts) : null,
  };
}

export function toLoanDetails(row: LoanDetailsRow): LoanDetails {
  return {
    loan: {
      loanId: row.id,
      loanData: {
        loan: { uli: row.uli, loanNumber: row.loanNumber, loanType: row.loanType },
        note: {
          amount: row.noteAmount,
          noteDate: row.noteDate,
          noteLocation: row.noteLocation,
          modification: row.modification,
          assumption: row.assumption,
        },
        primaryParty: { firstName: row.borrowerFirstName, lastName: row.borrowerLastName },
        additionalParties: row.additionalParties.map((party) => ({
          partyType: party.partyType,
          firstName: party.firstName,
          lastName: party.lastName,
        })),
        status: row.status,
        dartAsOriginalMortgagee: row.dartAsOriginalMortgagee,
      },
      propertyAddress: {
        street1: row.propertyStreet1,
        street2: row.propertyStreet2,
        city: row.propertyCity,
        state: row.propertyState,
        zip: row.propertyZip,
      },
      deactivated: row.deactivated,
      tradeDate: row.tradeDate,
      mortgageeOfRecord: row.mortgageeOfRecord,
      updatedAt: row.updatedAt,
    },
    parties: row.parties.map(toLoanParty),
  };
}

export function toLoanEvent(row: LoanEventRow): LoanEvent {
  return {
    id: row.id,
    state: row.state,
    eventType: row.eventType,
    eventDescription: row.eventDescription,
    effectiveDate: row.effectiveDate,
    requestedDate: row.requestedDate,
    participant: row.participantId !== null ? { participantId: row.participantId, participantName: row.participantName ?? '' } : null,
    created: row.createdAt,
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
