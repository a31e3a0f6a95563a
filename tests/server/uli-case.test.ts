// Defect 9: 12 CFR 1003 Appendix C makes ULI letters not case-sensitive. Searching the
// asset list by a whole ULI or a fragment of one finds the loan in any letter case, and the list
// still shows the ULI as stored (uppercase).
import { beforeAll, describe, expect, it } from 'vitest';
import { loanListSchema, type LoanList } from '../../src/contract/loans';
import { PATHS } from '../../src/contract/paths';
import { isValidUli } from '../../src/domain/uli';
import { createLoanListWorld, type LoanListWorld } from './support/loan-list-world';
import { insertLoan, nextTestUli } from './support/loan-rows';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
let world: LoanListWorld;
let loanId: string;
let uli: string;

beforeAll(async () => {
  world = await createLoanListWorld(server.db, server.app);
  uli = nextTestUli();
  const loan = await insertLoan(server.db, {
    uli,
    borrowerFirstName: 'Casey',
    borrowerLastName: 'Uppercase',
    parties: [{ role: 'OWNER', participantId: world.home, provenanceId: 'pb1home' }],
  });
  loanId = loan.id;
});

async function search(query: string): Promise<LoanList> {
  const url = `${PATHS.loans}?${new URLSearchParams({ query })}`;
  const response = await world.callers.member.as(world.home).get(url);
  expect(response.statusCode, response.body).toBe(200);
  return loanListSchema.parse(response.json());
}

describe('GET v2 /loans: searching by ULI ignores letter case', () => {
  it('uses a valid, uppercase test ULI holding letters', () => {
    expect(isValidUli(uli)).toBe(true);
    expect(uli).toMatch(/[A-Z]/);
    expect(uli).toBe(uli.toUpperCase());
  });

  it.each([
    ['the whole ULI in uppercase', () => uli],
    ['the whole ULI in lowercase', () => uli.toLowerCase()],
    ['the whole ULI in mixed case', () => [...uli].map((char, index) => (index % 2 ? char.toLowerCase() : char)).join('')],
    ['a lowercase fragment (its own end: the test ULIs share their start)', () => uli.slice(-14).toLowerCase()],
  ])('finds the loan by %s, and lists its ULI uppercase as stored', async (_case, query) => {
    const page = await search(query());
    expect(page.totalCount).toBe(1);
    expect(page.loans.map((loan) => [loan.loanId, loan.uli])).toEqual([[loanId, uli]]);
  });

  it('finds nothing for a lowercase ULI with other check digits', async () => {
    const other = uli.slice(0, -2) + (uli.endsWith('00') ? '01' : '00');
    expect(isValidUli(other.toLowerCase())).toBe(false);
    expect(await search(other.toLowerCase())).toEqual({ loans: [], totalCount: 0 });
  });

  it('does not find the loan for another organization, whatever the case', async () => {
    const url = `${PATHS.loans}?${new URLSearchParams({ query: uli.toLowerCase() })}`;
    const response = await world.callers.other.as(world.foreign).get(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(loanListSchema.parse(response.json())).toEqual({ loans: [], totalCount: 0 });
  });
});
