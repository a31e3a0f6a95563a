// Role transfer requests: who may ask, the events and messages they write, the texts.
// The server enforces these rules; the asset page offers only what they allow.
import { partyRoleLabel, stateLabel } from './loan';

export const TRANSFERABLE_ROLES = ['OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY'] as const;
export type TransferableRole = (typeof TRANSFERABLE_ROLES)[number];

/** Roles the owner may also transfer, beside the organization that holds them. */
const OWNER_MAY_TRANSFER: readonly TransferableRole[] = ['SERVICER', 'SUB_SERVICER'];

export interface TransferParty {
  readonly role: string;
  readonly participantId: string | null;
  readonly state: string;
}

const isTransferable = (role: string): role is TransferableRole => (TRANSFERABLE_ROLES as readonly string[]).includes(role);

/**
 * The roles `participantId` may ask to transfer on a loan with these parties: a role it holds, or
 * servicer and sub-servicer when it is the owner. Only roles the loan has a party for.
 */
export function transferableRoles(parties: readonly TransferParty[], participantId: string): TransferableRole[] {
  const ownsLoan = parties.some((party) => party.role === 'OWNER' && party.participantId === participantId);
  return parties
    .filter((party) => isTransferable(party.role))
    .filter((party) => party.participantId === participantId || (ownsLoan && OWNER_MAY_TRANSFER.includes(party.role as TransferableRole)))
    .map((party) => party.role as TransferableRole)
    .sort((a, b) => TRANSFERABLE_ROLES.indexOf(a) - TRANSFERABLE_ROLES.indexOf(b));
}

/** The loan event type a transfer of each role records (the seed's history uses the same). */
export const TRANSFER_EVENT_OF_ROLE: Record<TransferableRole, string> = {
  OWNER: 'TRANSFER_OF_OWNERSHIP',
  SERVICER: 'TRANSFER_OF_SERVICING',
  CONTROLLER: 'TRANSFER_OF_CONTROL',
  SUB_SERVICER: 'SUB_SERVICER_ASSIGNMENT',
  SECURED_PARTY: 'SECURED_PARTY_ASSIGNMENT',
};

/** Messages a transfer sends: the receiver's actionable request, then the requester's outcome. */
// The asset comes first: the inbox shows the first 150 characters, and long organization names must not push it out.
export const TRANSFER_MESSAGES = {
  request: (requester: string, receiver: string, role: string, uli: string) =>
    `Asset ${uli}: ${requester} requests that ${receiver} take over as ${partyRoleLabel(role).toLowerCase()}. Confirm to accept the role, or reject the request.`,
  confirmed: (receiver: string, role: string, uli: string) =>
    `Asset ${uli}: ${receiver} confirmed the transfer of the ${partyRoleLabel(role).toLowerCase()} role.`,
  rejected: (receiver: string, role: string, uli: string) =>
    `Asset ${uli}: ${receiver} rejected the transfer of the ${partyRoleLabel(role).toLowerCase()} role.`,
  /** To the receiver of a request whose requester may no longer transfer the role (the ownership moved on). */
  canceled: (requester: string, role: string, uli: string) =>
    `Asset ${uli}: the request from ${requester} to take over as ${partyRoleLabel(role).toLowerCase()} was canceled: ${requester} may no longer transfer the role.`,
} as const;

/** Loan event descriptions of a transfer, by state. */
export const TRANSFER_EVENT_DESCRIPTIONS = {
  Requested: (role: string, receiver: string) => `Transfer of the ${partyRoleLabel(role).toLowerCase()} role to ${receiver} requested`,
  Confirmed: (role: string, receiver: string) => `${partyRoleLabel(role)} role transferred to ${receiver}`,
  Rejected: (role: string, receiver: string) => `Transfer of the ${partyRoleLabel(role).toLowerCase()} role to ${receiver} rejected`,
  Canceled: (role: string, receiver: string) => `Transfer of the ${partyRoleLabel(role).toLowerCase()} role to ${receiver} canceled`,
} as const;

/** Server answers of POST v1 /loans/{loanId}/role-requests that the form shows as they are. */
export const ROLE_REQUEST_ERRORS = {
  notAllowed: 'Your organization may not transfer this role',
  noParty: 'This asset has no party in that role',
  alreadyPending: 'A transfer of this role is already pending',
  receiverUnknown: 'The receiving organization is not an active organization',
  receiverHoldsRole: 'The receiving organization already holds this role',
  deactivated: 'A deactivated asset cannot be transferred',
  deactivationPending: 'A deactivation of this asset is pending: it cannot be transferred',
} as const;

/** The asset page's transfer form. */
export const ROLE_TRANSFER_TEXTS = {
  open: 'Request transfer',
  title: 'Request a role transfer',
  role: 'Role',
  receiver: 'Receiving organization',
  searchReceiver: 'Search organizations',
  noOrganizations: 'No results',
  review: 'Review',
  back: 'Back',
  cancel: 'Cancel',
  submit: 'Send request',
  reviewIntro: 'Please review the transfer request before sending it.',
  roleRequired: 'Select a role.',
  receiverRequired: 'Select the receiving organization.',
  sent: 'Transfer request sent',
  failed: 'Unable to send the transfer request',
  pending: 'Pending Update',
  loadingDirectory: 'Loading organizations…',
  directoryFailed: 'The organizations could not be loaded.',
  chooseRole: 'Select a role',
  asset: 'Asset ULI',
  sending: 'Sending…',
  rejected: 'Rejected Update',
} as const;

export interface RoleTransferDraft {
  readonly role: TransferableRole | '';
  /** The receiving organization's id ('' until one is chosen). */
  readonly receiverId: string;
}

export type RoleTransferErrors = Partial<Record<keyof RoleTransferDraft, string>>;

/** The form's rules: a role and a receiving organization are both required. */
export function roleTransferErrors(draft: RoleTransferDraft): RoleTransferErrors {
  return {
    ...(draft.role ? {} : { role: ROLE_TRANSFER_TEXTS.roleRequired }),
    ...(draft.receiverId ? {} : { receiverId: ROLE_TRANSFER_TEXTS.receiverRequired }),
  };
}

/** A party's state on the asset page: a role waiting on a transfer, or refused one, says so. */
export function partyStateLabel(state: string): string {
  if (state === 'PENDING') return ROLE_TRANSFER_TEXTS.pending;
  if (state === 'REJECTED') return ROLE_TRANSFER_TEXTS.rejected;
  return stateLabel(state);
}
