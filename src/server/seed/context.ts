// Shared by the demo seed's modules: the fixed seed and anchor date, time units, the records
// that tie organizations, pools and loans together while seeding.
import type { DocumentSubject } from './documents';
import type { OrganizationFixture } from './fixtures';
import type { Rng } from './random';

/** The fixed random seed and the date every non-recent date is measured from. */
export const SEED = 20260115;
export const ANCHOR_DATE = '2026-01-15';
/** Only the first loans get PDF documents, so a large seed does not balloon the database. */
export const DOCUMENT_LOAN_LIMIT = 200;

export const ANCHOR = Date.parse(`${ANCHOR_DATE}T00:00:00Z`);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Org {
  readonly index: number;
  readonly id: string;
  readonly fixture: OrganizationFixture;
  readonly lei: string;
  readonly provenanceId: string;
  readonly phone: string;
}

export interface LoanRef {
  readonly id: string;
  readonly uli: string;
}

export interface InactiveLoan extends LoanRef {
  readonly requester: Org;
  readonly propertyState: string;
  readonly subject: DocumentSubject;
}

export interface Pool {
  readonly id: string;
  readonly owner: Org;
  readonly name: string;
  readonly target: number;
  filled: number;
}

/** The active organizations that usually hold a role, with their cumulative weights for picking. */
export interface Holders {
  readonly orgs: readonly Org[];
  readonly cumulative: readonly number[];
}

export interface Context {
  readonly now: number;
  readonly orgs: readonly Org[];
  readonly activeOrgs: readonly Org[];
  /** Per party role (ORIGINATOR, OWNER, ...): the organizations that take it. */
  readonly holders: ReadonlyMap<string, Holders>;
  readonly pools: readonly Pool[];
  /** The first loans each organization holds a role on: targets of its messages. */
  readonly loanSamples: Map<string, LoanRef[]>;
  readonly inactiveLoans: InactiveLoan[];
}

const isoDates = new Map<number, string>();
/** YYYY-MM-DD of an instant (UTC), memoized per day: the seed formats millions of dates over a few thousand days. */
export function isoDate(time: number): string {
  const day = Math.floor(time / DAY);
  let text = isoDates.get(day);
  if (text === undefined) {
    text = new Date(day * DAY).toISOString().slice(0, 10);
    isoDates.set(day, text);
  }
  return text;
}
export const pad = (value: number, length: number): string => String(value).padStart(length, '0');

export function holdersByRole(activeOrgs: readonly Org[], roles: readonly string[]): Map<string, Holders> {
  const holders = new Map<string, Holders>();
  for (const role of roles) {
    const orgs = activeOrgs.filter((org) => org.fixture.partyRoles.includes(role));
    let total = 0;
    holders.set(role, { orgs, cumulative: orgs.map((org) => (total += org.fixture.weight)) });
  }
  return holders;
}

/** An organization picked by weight: one draw, as Rng.weighted, without building arrays per call. */
export function weightedOrg(rng: Rng, holders: Holders): Org {
  const { orgs, cumulative } = holders;
  const roll = rng.next() * (cumulative[cumulative.length - 1] ?? 0);
  for (let i = 0; i < orgs.length; i++) if (roll < (cumulative[i] as number)) return orgs[i] as Org;
  return orgs[orgs.length - 1] as Org;
}
