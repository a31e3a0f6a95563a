// Typed sample loans, events and pools for the asset page, pools and dashboard tests, built
// through the contract schemas so they stay valid.
import { loanDetailsSchema, loanEventSchema, type LoanDetails, type LoanEvent } from '../../src/contract/loans';
import { poolSchema, type Pool } from '../../src/contract/pools';

export const sampleLoanId = '5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f';
export const otherLoanId = '6a1d7b3f-9c2e-4d4b-8f80-2b3c4d5e6f70';
const orgId = (index: number) => `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;

const profile = (name: string) => ({
  name,
  phoneNumber: '4155550123',
  email: `contact@${name.toLowerCase().replace(/\W+/g, '')}.test`,
  address: { street: '500 Harbor Blvd', street2: 'Floor 3', city: 'Oakland', state: 'CA', zip: '94607' },
  url: `https://${name.toLowerCase().replace(/\W+/g, '')}.test`,
  additionalContacts: [],
});

export function sampleLoanDetails(
  overrides: { status?: 'Active' | 'Inactive' | 'Deleted'; deactivated?: boolean; pendingOwner?: boolean } = {},
): LoanDetails {
  return loanDetailsSchema.parse({
    loan: {
      loanId: sampleLoanId,
      loanData: {
        loan: { uli: '5493001KJTIIGC8Y1R12ABCDEF1234567890', loanNumber: '1000000013', loanType: 'FIRST_LIEN_MORTGAGE' },
        note: {
          amount: 412345.67,
          noteDate: '2024-03-07',
          noteLocation: 'eVault: Harbor Custody Trust',
          modification: true,
          assumption: false,
        },
        primaryParty: { firstName: 'Ada', lastName: 'Lovelace' },
        additionalParties: [
          { partyType: 'COBORROWER', firstName: 'Charles', lastName: 'Babbage' },
          { partyType: 'COBORROWER', firstName: 'Mary', lastName: 'Somerville' },
        ],
        status: overrides.status ?? 'Active',
        dartAsOriginalMortgagee: true,
      },
      propertyAddress: { street1: '12 Analytical Way', street2: 'Unit 4B', city: 'Austin', state: 'TX', zip: '78701' },
      deactivated: overrides.deactivated ?? false,
      tradeDate: '2024-03-20',
      mortgageeOfRecord: 'DART',
      updatedAt: '2025-01-02T10:00:00.000Z',
    },
    parties: [
      {
        role: 'OWNER',
        state: overrides.pendingOwner ? 'PENDING' : 'CONFIRMED',
        currentValue: { participantName: 'Harbor Capital', provenanceId: 'HC-1' },
        participantId: orgId(1),
        profileInfo: profile('Harbor Capital'),
      },
      { role: 'SERVICER', state: 'CONFIRMED', currentValue: 'Outside Servicing Co', participantId: null, profileInfo: null },
    ],
  });
}

export function sampleEvent(overrides: Partial<LoanEvent> & { id: string }): LoanEvent {
  return loanEventSchema.parse({
    state: 'Confirmed',
    eventType: 'REGISTRATION',
    eventDescription: 'Asset registered by Harbor Capital',
    effectiveDate: '2024-03-20',
    requestedDate: '2024-03-18',
    participant: { participantId: orgId(1), participantName: 'Harbor Capital' },
    created: '2024-03-18T10:00:00.000Z',
    ...overrides,
  });
}

/** One event per history rule: shown, hidden (Requested), shown (Requested deactivation), dated by request, undated. */
export const sampleEvents: LoanEvent[] = [
  sampleEvent({ id: '10000000-0000-4000-8000-000000000001' }),
  sampleEvent({
    id: '10000000-0000-4000-8000-000000000002',
    state: 'Requested',
    eventType: 'TRANSFER_OF_SERVICING',
    eventDescription: 'Servicing transferred to Quiet Servicing',
    effectiveDate: null,
    requestedDate: '2025-01-05',
  }),
  sampleEvent({
    id: '10000000-0000-4000-8000-000000000003',
    state: 'Requested',
    eventType: 'DEACTIVATION_REQUESTED',
    eventDescription: 'Deactivation requested by Harbor Capital',
    effectiveDate: null,
    requestedDate: '2025-01-06',
  }),
  sampleEvent({
    id: '10000000-0000-4000-8000-000000000004',
    state: 'Rejected',
    eventType: 'TRANSFER_OF_CONTROL',
    eventDescription: 'Control of the eNote transferred to Vault Co',
    effectiveDate: null,
    requestedDate: null,
  }),
];

export function samplePool(index: number, overrides: Partial<Pool> = {}): Pool {
  return poolSchema.parse({
    id: `20000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
    name: `Pool ${index}`,
    count: 10 * index,
    totalAmount: 1_234_567.89 * index,
    dateCompleted: '2025-02-14',
    ...overrides,
  });
}
