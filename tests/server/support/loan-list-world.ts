// The organizations, users and loans of the asset list, CSV and pool tests: one organization (Home)
// holds every role on some loans, another (Foreign) on others, and a few loans are shared.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/server/db/database';
import { poolLoans, pools } from '../../../src/server/db/schema';
import { insertLoan, type TestParty } from './loan-rows';
import { callersOf, type Caller } from './route-test';
import { insertParticipant, insertUser } from './server-fixtures';

export interface LoanListWorld {
  readonly home: string;
  readonly second: string;
  readonly foreign: string;
  /** Signed in, without an organization header (`.as(world.home)` picks one). */
  readonly callers: { readonly member: Caller; readonly other: Caller };
  /** Their session cookies, for a test that builds its own callers. */
  readonly cookies: { readonly member: string; readonly other: string };
  /** Loans by name; `filler` holds the loans that only make the list long. */
  readonly loans: Record<
    'ada' | 'grace' | 'originated' | 'foreignOnly' | 'pending' | 'rejected' | 'secured' | 'inactive' | 'formula',
    string
  >;
  readonly filler: string[];
  /** Every loan Home holds one of the default five roles on. */
  readonly homeDefault: string[];
}

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

export async function createLoanListWorld(db: Database, app: FastifyInstance): Promise<LoanListWorld> {
  const home = (await insertParticipant(db, { name: 'Home Bank' })).id;
  const second = (await insertParticipant(db, { name: 'Second Trust' })).id;
  const foreign = (await insertParticipant(db, { name: 'Foreign Credit' })).id;
  await insertUser(db, {
    email: 'member@registry.test',
    memberships: [
      { participantId: home, isDefault: true },
      { participantId: second, roles: [] },
    ],
  });
  await insertUser(db, { email: 'other@registry.test', memberships: [{ participantId: foreign, isDefault: true }] });

  const homeAs = (role: string, extra: Partial<TestParty> = {}): TestParty => ({
    role,
    participantId: home,
    provenanceId: 'pb1home',
    ...extra,
  });
  const foreignAs = (role: string): TestParty => ({ role, participantId: foreign, provenanceId: 'pb1foreign' });

  const ada = await insertLoan(db, {
    uli: '5493001KJTIIGC8Y1R12ADALOVELACE0000169',
    loanNumber: '1000000013',
    loanType: 'FIRST_LIEN_MORTGAGE',
    tradeDate: '2024-03-20',
    mortgageeOfRecord: 'DART',
    borrowerFirstName: 'Ada',
    borrowerLastName: 'Lovelace',
    propertyStreet1: '12 Analytical Way',
    propertyStreet2: 'Unit 4B',
    propertyCity: 'Austin',
    propertyState: 'TX',
    propertyZip: '78701',
    noteAmount: '400000.00',
    updatedAt: day('2026-01-10'),
    parties: [homeAs('OWNER'), { role: 'SERVICER', name: 'Zeta Servicing' }, foreignAs('CONTROLLER'), homeAs('ORIGINATOR')],
  });
  const grace = await insertLoan(db, {
    loanNumber: '2000000026',
    loanType: 'DSCR',
    tradeDate: '2023-07-04',
    mortgageeOfRecord: 'MERS',
    borrowerFirstName: 'Grace',
    borrowerLastName: 'Hopper',
    propertyStreet1: '9 Compiler Court',
    propertyCity: 'Arlington',
    propertyState: 'VA',
    propertyZip: '22201',
    noteAmount: '250000.50',
    updatedAt: day('2025-06-01'),
    parties: [foreignAs('OWNER'), homeAs('SERVICER')],
  });
  const originated = await insertLoan(db, {
    borrowerFirstName: 'Origin',
    borrowerLastName: 'Only',
    updatedAt: day('2025-12-01'),
    parties: [homeAs('ORIGINATOR'), foreignAs('OWNER')],
  });
  const foreignOnly = await insertLoan(db, {
    borrowerFirstName: 'Hidden',
    borrowerLastName: 'Foreigner',
    updatedAt: day('2026-01-12'),
    parties: [foreignAs('OWNER'), foreignAs('SERVICER')],
  });
  const pending = await insertLoan(db, {
    loanType: 'MORTGAGE',
    borrowerFirstName: 'Pending',
    borrowerLastName: 'Party',
    updatedAt: day('2025-01-01'),
    parties: [homeAs('CONTROLLER', { state: 'PENDING' }), { role: 'OWNER', name: 'Alpha Owner Trust' }],
  });
  const rejected = await insertLoan(db, {
    loanType: 'RTL',
    tradeDate: null,
    mortgageeOfRecord: null,
    borrowerFirstName: 'Rejected',
    borrowerLastName: 'Party',
    updatedAt: day('2024-05-05'),
    parties: [homeAs('SUB_SERVICER', { state: 'REJECTED' })],
  });
  const secured = await insertLoan(db, {
    loanType: 'CRYPTO_HELOC',
    borrowerFirstName: 'Secured',
    borrowerLastName: 'Party',
    updatedAt: day('2024-05-05'),
    parties: [homeAs('SECURED_PARTY'), { role: 'OWNER', name: 'Beta Holdings' }],
  });
  const inactive = await insertLoan(db, {
    status: 'Inactive',
    deactivated: true,
    borrowerFirstName: 'Closed',
    borrowerLastName: 'Account',
    updatedAt: day('2023-01-01'),
    parties: [homeAs('OWNER'), homeAs('SERVICER', { state: 'PENDING' })],
  });
  // Formula-looking text in every kind of cell the CSV writes from free text.
  const formula = await insertLoan(db, {
    loanType: 'MORTGAGE',
    mortgageeOfRecord: '@SUM(A1:A2)',
    borrowerFirstName: '=HYPERLINK("http://x.test","click")',
    borrowerLastName: 'O\'Brien, "Jr."',
    propertyStreet1: '+1 Plus Street',
    propertyCity: 'Line\nBreak',
    updatedAt: day('2024-05-05'),
    parties: [
      homeAs('OWNER'),
      { role: 'SERVICER', name: '-2+3' },
      { role: 'CONTROLLER', name: '\tTabbed Trust' },
      { role: 'SUB_SERVICER', name: '\rReturn Co' },
      // What JSON must escape, and letters beyond Latin-1, in a name the list writes as JSON text.
      { role: 'SECURED_PARTY', name: 'Crédit "Quoted" \\ Back\nslash 銀行 \u{1F3E6} \u0007' },
    ],
  });

  // Enough loans for three pages of ten, with ties on every sort key.
  const filler: string[] = [];
  for (let i = 0; i < 16; i++) {
    const loan = await insertLoan(db, {
      loanType: i % 3 === 0 ? 'FIGURE_HELOC' : 'MORTGAGE',
      tradeDate: i % 4 === 0 ? null : `2024-0${1 + (i % 3)}-15`,
      mortgageeOfRecord: i % 2 === 0 ? 'MERS' : 'DART',
      borrowerFirstName: 'Filler',
      borrowerLastName: `Number${i}`,
      updatedAt: day(`2025-0${1 + (i % 5)}-0${1 + (i % 7)}`),
      parties: [
        homeAs(i % 2 === 0 ? 'OWNER' : 'SERVICER', { state: i % 5 === 0 ? 'PENDING' : 'CONFIRMED' }),
        ...(i % 3 === 0 ? [foreignAs('SUB_SERVICER')] : []),
        ...(i % 4 === 1 ? [{ role: 'SECURED_PARTY', name: i % 8 === 1 ? 'Gamma Lender' : 'Delta Lender' }] : []),
      ],
    });
    filler.push(loan.id);
  }

  const { signIn } = callersOf(app);
  const callers = { member: await signIn('member@registry.test'), other: await signIn('other@registry.test') };
  const cookies = { member: callers.member.cookie, other: callers.other.cookie };
  const loans = {
    ada: ada.id,
    grace: grace.id,
    originated: originated.id,
    foreignOnly: foreignOnly.id,
    pending: pending.id,
    rejected: rejected.id,
    secured: secured.id,
    inactive: inactive.id,
    formula: formula.id,
  };
  const homeDefault = [ada.id, grace.id, pending.id, rejected.id, secured.id, inactive.id, formula.id, ...filler];
  return { home, second, foreign, callers, cookies, loans, filler, homeDefault };
}

/** A pool of the given loans, owned by one organization. */
export async function insertPool(
  db: Database,
  values: { participantId: string; name: string; state?: string; dateCompleted?: string | null; loanIds: readonly string[] },
) {
  const [pool] = await db
    .insert(pools)
    .values({
      participantId: values.participantId,
      name: values.name,
      state: values.state ?? 'COMPLETE',
      dateCompleted: values.dateCompleted ?? null,
    })
    .returning();
  if (!pool) throw new Error('pool not inserted');
  if (values.loanIds.length > 0) await db.insert(poolLoans).values(values.loanIds.map((loanId) => ({ poolId: pool.id, loanId })));
  return pool;
}
