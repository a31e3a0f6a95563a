// The loan that shows the asset page's document viewer in the demo (README names it): Active,
// originated and owned by the admin's default organization (Harborview Mortgage, HMC) and serviced
// by the user's ORG_ADMIN organization (Summit Ridge Home Loans, SRH), so both demo accounts see
// it. Its documents: a deed of several pages, an assignment, the eNote, a closing disclosure (a
// kind the viewer does not list), and two damaged ones: the release, whose content was altered
// after its hash was recorded (the server refuses it), and a scanned deed whose bytes are not a
// readable PDF (served, hash intact; the viewer says 'Unable to load PDF'). Like the adversarial
// loans, its ULI and loan number are the same at every seed size (tests/server/seed.test.ts checks).
import type { DocumentDamage, DocumentKind } from './documents';

export const DOCUMENT_SHOWCASE_LOAN = {
  /** The loan's index in the seed (its random stream): right after the adversarial loans. */
  index: 18,
  uli: '5493A9RXTTPFU88LM524B21E4437660BBAA829',
  loanNumber: '1000000240',
} as const;

export interface ShowcaseDocument {
  readonly kind: DocumentKind;
  /** A name other than the kind's title. */
  readonly name?: string;
  readonly damage?: DocumentDamage;
}

export const SHOWCASE_DOCUMENTS: readonly ShowcaseDocument[] = [
  { kind: 'DEED' },
  { kind: 'ASSIGNMENT' },
  { kind: 'ENOTE' },
  { kind: 'RELEASE', damage: 'tampered' },
  { kind: 'DEED', name: 'Deed of Trust (damaged scan)', damage: 'corrupt' },
  { kind: 'OTHER' },
];
