// Loan vocabulary of SPEC sections 3 and 4: types, roles, states, derived status.
export const LOAN_TYPES = ['CRYPTO_HELOC', 'DSCR', 'FIGURE_HELOC', 'PIGGYBACK_HELOC', 'RTL', 'MORTGAGE', 'FIRST_LIEN_MORTGAGE'] as const;
export type LoanType = (typeof LOAN_TYPES)[number];

const LOAN_TYPE_LABELS: Record<string, string> = {
  CRYPTO_HELOC: 'Crypto HELOC',
  DSCR: 'DSCR',
  FIGURE_HELOC: 'HELOC',
  PIGGYBACK_HELOC: 'Piggyback HELOC',
  RTL: 'RTL',
};

export function loanTypeLabel(loanType: string): string {
  if (loanType.includes('MORTGAGE')) return 'Mortgage';
  return LOAN_TYPE_LABELS[loanType] ?? loanType;
}

export const isHelocType = (loanType: string): boolean => loanType.includes('HELOC');

export const PARTY_ROLES = ['OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY', 'TRANSFEREE', 'UNKNOWN'] as const;
export type PartyRole = (typeof PARTY_ROLES)[number];
/** Roles a loan list can be filtered by; ORIGINATOR is filterable though not a party entry. */
export const FILTERABLE_ROLES = ['OWNER', 'CONTROLLER', 'SERVICER', 'SUB_SERVICER', 'SECURED_PARTY', 'ORIGINATOR'] as const;
export const DEFAULT_ROLE_FILTER = ['OWNER', 'CONTROLLER', 'SERVICER', 'SUB_SERVICER', 'SECURED_PARTY'] as const;

export const ROLE_STATES = ['REQUESTED', 'PENDING', 'CONFIRMED', 'REJECTED'] as const;
export type RoleState = (typeof ROLE_STATES)[number];
export const EVENT_STATES = ['Requested', 'Pending', 'Confirmed', 'Rejected', 'Canceled'] as const;
export const LOAN_STATUSES = ['Active', 'Inactive', 'Deleted'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

export const MESSAGE_TARGET_TYPES = ['LOAN', 'RELATIONSHIP', 'REQUEST_EXECUTE_CONTRACT', 'POOL', 'BATCH'] as const;
export const CONTACT_TYPES = ['PRIMARY', 'LEGAL', 'CUSTODIAN', 'CUSTOMER_SERVICE'] as const;
export const FACTOR_TYPES = ['Email', 'Phone', 'Biometric', 'SecurityKey'] as const;
export const DEACTIVATION_REASONS = ['payoff', 'removeAsMortgage', 'removeAsset', 'foreclosure'] as const;
export const JOB_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'FAILED'] as const;

export type DerivedStatus = 'Deactivated' | 'Pending Update' | 'Rejected Update' | 'Active';

/** SPEC section 4: the derived asset status label, in order; undefined when no rule applies. */
export function deriveAssetStatus(status: string, roleStates: readonly (string | undefined)[]): DerivedStatus | undefined {
  if (status === 'Inactive') return 'Deactivated';
  if (roleStates.includes('PENDING')) return 'Pending Update';
  if (roleStates.includes('REJECTED')) return 'Rejected Update';
  if (roleStates.includes('CONFIRMED')) return 'Active';
  return undefined;
}

export const STATUS_INDICATOR_COLOR: Record<DerivedStatus, 'grey' | 'amber' | 'red' | 'green'> = {
  Deactivated: 'grey',
  'Pending Update': 'amber',
  'Rejected Update': 'red',
  Active: 'green',
};

/** The detail page's status (SPEC section 4): Pending Update, Deactivated, or the raw status. */
export type DetailStatus = 'Pending Update' | 'Deactivated' | LoanStatus;

/**
 * SPEC section 4: 'the detail page shows Pending Update, Deactivated, or the raw status', in that
 * order: a pending role change is news even on a deactivated loan, then the deactivated flag.
 */
export function detailStatus(
  loan: { status: LoanStatus; deactivated: boolean },
  roleStates: readonly (string | null | undefined)[],
): DetailStatus {
  if (roleStates.includes('PENDING')) return 'Pending Update';
  if (loan.deactivated) return 'Deactivated';
  return loan.status;
}

const PARTY_ROLE_LABELS: Record<string, string> = {
  OWNER: 'Owner',
  SERVICER: 'Servicer',
  CONTROLLER: 'Controller',
  SUB_SERVICER: 'Sub-servicer',
  SECURED_PARTY: 'Secured party',
  ORIGINATOR: 'Originator',
  TRANSFEREE: 'Transferee',
  UNKNOWN: 'Unknown',
};

/** A party role for people: OWNER -> Owner, SUB_SERVICER -> Sub-servicer. */
export const partyRoleLabel = (role: string): string => PARTY_ROLE_LABELS[role] ?? role;

/** A role or event state for people: PENDING -> Pending (event states are already capitalised). */
export const stateLabel = (state: string): string => (state ? state.charAt(0).toUpperCase() + state.slice(1).toLowerCase() : state);

/** A loan that does not exist or that the organization may not see: the two alike. */
export const LOAN_NOT_FOUND = 'Loan not found.';
