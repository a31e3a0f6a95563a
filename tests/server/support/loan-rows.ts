// Loans with their parties and events for server tests: each call inserts one complete loan, with
// defaults for every column a test does not care about.
import type { Database } from '../../../src/server/db/database';
import { loanEvents, loanParties, loans } from '../../../src/server/db/schema';
import type { RoleState } from '../../../src/domain/loan';
import { uliCheckDigits } from '../../../src/domain/uli';

/** A role on the loan: held by an organization (participantId) or by a plain name. */
export interface TestParty {
  readonly role: string;
  readonly state?: RoleState;
  readonly participantId?: string;
  readonly name?: string;
  readonly provenanceId?: string;
}

export interface TestEvent {
  readonly eventType?: string;
  readonly state?: string;
  readonly eventDescription?: string;
  readonly participantId?: string | null;
  readonly effectiveDate?: string | null;
  readonly requestedDate?: string | null;
  readonly createdAt?: Date;
}

export type TestLoanValues = Partial<typeof loans.$inferInsert> & {
  readonly parties: readonly TestParty[];
  readonly events?: readonly TestEvent[];
};

const TEST_LEI = '5493001KJTIIGC8Y1R12';
let loanCounter = 0;

/** A fresh ULI that passes the ISO 7064 mod 97-10 check: the test LEI, a counter, check digits. */
export function nextTestUli(): string {
  loanCounter += 1;
  const body = `${TEST_LEI}TEST${String(loanCounter).padStart(8, '0')}`;
  return `${body}${uliCheckDigits(body)}`;
}

/**
 * Inserts a loan with its parties (default state CONFIRMED; a party without participantId gets
 * its `name` or 'Outside Party') and its events (default: one Confirmed REGISTRATION). Returns the
 * loan row; a test reads `.id`.
 */
export async function insertLoan(db: Database, values: TestLoanValues) {
  const { parties, events, ...columns } = values;
  const uli = columns.uli ?? nextTestUli();
  const [loan] = await db
    .insert(loans)
    .values({
      uli,
      loanNumber: `LN-${uli.slice(-10)}`,
      loanType: 'FIGURE_HELOC',
      status: 'Active',
      tradeDate: '2025-03-14',
      mortgageeOfRecord: 'MERS',
      noteAmount: '125000.00',
      noteDate: '2025-03-01',
      noteLocation: 'eVault: Test Custody',
      borrowerFirstName: 'Jamie',
      borrowerLastName: 'Rivera',
      propertyStreet1: '12 Elm Street',
      propertyCity: 'Springfield',
      propertyState: 'IL',
      propertyZip: '62704',
      ...columns,
    })
    .returning();
  if (!loan) throw new Error('loan not inserted');
  if (parties.length > 0) {
    await db.insert(loanParties).values(
      parties.map((party) => ({
        loanId: loan.id,
        role: party.role,
        state: party.state ?? 'CONFIRMED',
        participantId: party.participantId ?? null,
        name: party.participantId ? null : (party.name ?? 'Outside Party'),
        provenanceId: party.provenanceId ?? null,
      })),
    );
  }
  const eventRows = events ?? [{}];
  if (eventRows.length > 0) {
    await db.insert(loanEvents).values(
      eventRows.map((event) => ({
        loanId: loan.id,
        participantId:
          event.participantId === undefined ? (parties.find((party) => party.participantId)?.participantId ?? null) : event.participantId,
        state: event.state ?? 'Confirmed',
        eventType: event.eventType ?? 'REGISTRATION',
        eventDescription: event.eventDescription ?? 'Registered',
        effectiveDate: event.effectiveDate === undefined ? '2025-03-14' : event.effectiveDate,
        requestedDate: event.requestedDate === undefined ? '2025-03-12' : event.requestedDate,
        ...(event.createdAt ? { createdAt: event.createdAt } : {}),
      })),
    );
  }
  return loan;
}
