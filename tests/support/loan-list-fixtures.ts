// Typed loan list items and pages for the asset table tests, built through the contract schema.
import { loanListItemSchema, type LoanList, type LoanListItem } from '../../src/contract/loans';
import type { PoolDetail } from '../../src/contract/pools';

export const loanIdOf = (index: number): string => `10000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
export const samplePoolId = '20000000-0000-4000-8000-000000000001';

const types = ['FIRST_LIEN_MORTGAGE', 'FIGURE_HELOC', 'DSCR', 'CRYPTO_HELOC', 'RTL', 'PIGGYBACK_HELOC'] as const;

export function sampleLoanListItem(index: number, overrides: Partial<LoanListItem> = {}): LoanListItem {
  return loanListItemSchema.parse({
    loanId: loanIdOf(index),
    uli: `ULI${String(index).padStart(6, '0')}`,
    loanType: types[index % types.length],
    tradeDate: '2025-03-07',
    mortgageeOfRecord: 'DART',
    status: 'Active',
    owner: { state: 'CONFIRMED', currentValue: { participantName: 'Harbor Capital', provenanceId: 'HC-1' } },
    servicer: { state: 'CONFIRMED', currentValue: 'Outside Servicing Co' },
    controller: { state: 'CONFIRMED', currentValue: { participantName: 'Harbor Capital', provenanceId: 'HC-1' } },
    subServicer: null,
    securedParty: { state: 'PENDING', currentValue: 'First Lien Bank' },
    heldRoles: ['OWNER', 'CONTROLLER'],
    deactivationPending: false,
    ...overrides,
  });
}

/** A page of `size` items numbered from `first`, out of `totalCount`. */
export function sampleLoanPage(first: number, size: number, totalCount: number): LoanList {
  return { loans: Array.from({ length: size }, (_, i) => sampleLoanListItem(first + i)), totalCount };
}

export function samplePoolDetail(first: number, size: number, totalCount: number, name = 'Harbor Pool 2025-03'): PoolDetail {
  return { pool: { id: samplePoolId, name }, ...sampleLoanPage(first, size, totalCount) };
}
