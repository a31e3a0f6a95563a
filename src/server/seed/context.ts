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

export interface Context {
  readonly now: number;
  readonly orgs: readonly Org[];
  readonly activeOrgs: readonly Org[];
  readonly pools: readonly Pool[];
  /** The first loans each organization holds a role on: targets of its messages. */
  readonly loanSamples: Map<string, LoanRef[]>;
  readonly inactiveLoans: InactiveLoan[];
}

export const isoDate = (time: number): string => new Date(time).toISOString().slice(0, 10);
export const pad = (value: number, length: number): string => String(value).padStart(length, '0');

export function weightedOrg(rng: Rng, candidates: readonly Org[]): Org {
  return rng.weighted(candidates, candidates.map((org) => org.fixture.weight));
}
