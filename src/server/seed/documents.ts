// Demo PDFs made with pdf-lib: a title page with the loan's ULI, borrower and property; deeds go
// on for several pages (covenants, then signatures). Also the two damaged documents of the
// document showcase loan (document-showcase.ts): one altered after its hash was recorded, one
// whose bytes are not a readable PDF although its hash matches them.
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { DocumentKind } from '../../domain/documents';

export type { DocumentKind };

/** The kinds the seed gives loans at random (DEACTIVATION_INSTRUMENT comes with deactivation requests). */
export const DOCUMENT_KINDS = ['DEED', 'ASSIGNMENT', 'RELEASE', 'ENOTE', 'OTHER'] as const satisfies readonly DocumentKind[];

export const DOCUMENT_TITLES: Record<DocumentKind, string> = {
  DEED: 'Deed of Trust',
  ASSIGNMENT: 'Assignment of Mortgage',
  RELEASE: 'Release of Lien',
  ENOTE: 'Electronic Promissory Note',
  OTHER: 'Closing Disclosure',
  DEACTIVATION_INSTRUMENT: 'Security Instrument and Assignment',
};

export interface DocumentSubject {
  readonly uli: string;
  readonly loanNumber: string;
  readonly borrower: string;
  readonly property: string;
  readonly amount: string;
  readonly noteDate: string;
  readonly party: string;
}

export interface GeneratedPdf {
  readonly bytes: Buffer;
  readonly hash: string;
}

/** How a showcase document is damaged: `tampered` content no longer matches its hash; `corrupt` bytes match it but are no PDF. */
export type DocumentDamage = 'tampered' | 'corrupt';

/**
 * The standard PDF fonts encode only WinAnsi (Latin-1, mostly): other letters (the adversarial
 * loans' Chinese, Arabic, Cyrillic names) print as '?', and line breaks and tabs as spaces.
 */
export const pdfText = (text: string): string => text.replace(/[\t\r\n]+/g, ' ').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

// Fixed document dates keep the bytes (and so the hashes) identical from run to run.
const FIXED_DATE = new Date(Date.UTC(2026, 0, 15));
const PAGE: [number, number] = [612, 792];
const MARGIN = 72;
const TEXT_WIDTH = PAGE[0] - 2 * MARGIN;

/** A deed's pages: 3 to 5, from its ULI, so paging through one shows page counts that differ. */
export function deedPageCount(uli: string): number {
  return 3 + ((uli.charCodeAt(uli.length - 1) || 0) % 3);
}

const DEED_SECTIONS: ReadonlyArray<readonly [string, string]> = [
  [
    'Payment of Principal, Interest and Late Charges',
    'Borrower shall pay when due the principal of, and interest on, the debt evidenced by the Note and any prepayment and late charges due under the Note. Payments are deemed received by Lender when received at the location designated in the Note or at such other location as Lender may designate.',
  ],
  [
    'Funds for Escrow Items',
    'Borrower shall pay to Lender on the day periodic payments are due a sum to provide for payment of taxes and assessments, leasehold payments or ground rents on the Property, and premiums for any and all insurance required by Lender under this Security Instrument.',
  ],
  [
    'Charges; Liens',
    'Borrower shall pay all taxes, assessments, charges, fines and impositions attributable to the Property which can attain priority over this Security Instrument, and shall promptly discharge any lien which has priority over this Security Instrument unless Borrower agrees in writing to the payment of the obligation secured by the lien.',
  ],
  [
    'Property Insurance',
    'Borrower shall keep the improvements now existing or hereafter erected on the Property insured against loss by fire, hazards included within the term extended coverage, and any other hazards for which Lender requires insurance, in the amounts and for the periods that Lender requires.',
  ],
  [
    'Occupancy, Preservation and Maintenance of the Property',
    "Borrower shall occupy, establish and use the Property as Borrower's principal residence and shall not destroy, damage or impair the Property, allow the Property to deteriorate or commit waste on the Property.",
  ],
  [
    'Transfer of the Property or a Beneficial Interest in Borrower',
    "If all or any part of the Property or any interest in the Property is sold or transferred without Lender's prior written consent, Lender may require immediate payment in full of all sums secured by this Security Instrument.",
  ],
  [
    'Acceleration; Remedies',
    "Lender shall give notice to Borrower prior to acceleration following Borrower's breach of any covenant or agreement in this Security Instrument. The notice shall specify the default, the action required to cure the default, and a date by which the default must be cured.",
  ],
  [
    'Release and Reconveyance',
    'Upon payment of all sums secured by this Security Instrument, Lender shall request Trustee to reconvey the Property and shall surrender this Security Instrument and all notes evidencing debt secured by this Security Instrument to Trustee.',
  ],
  [
    'Substitute Trustee; Governing Law',
    'Lender may from time to time appoint a successor trustee to any Trustee appointed hereunder. This Security Instrument shall be governed by federal law and the law of the jurisdiction in which the Property is located.',
  ],
];

/** Words of `text` broken into lines no wider than `width` at `size`. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  // The covenants are the same in every deed: measured once (the standard fonts' metrics are fixed).
  const key = `${font.name}|${size}|${width}|${text}`;
  const known = wrapped.get(key);
  if (known) return known;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  if (wrapped.size < 1000) wrapped.set(key, lines);
  return lines;
}
const wrapped = new Map<string, string[]>();

interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
}

function footer(page: PDFPage, fonts: Fonts, number: number, count: number): void {
  const grey = rgb(0.4, 0.4, 0.4);
  page.drawText('Demonstration document generated for the loan registry. Not a legal instrument.', {
    x: MARGIN,
    y: 48,
    size: 8,
    font: fonts.regular,
    color: grey,
  });
  const label = `Page ${number} of ${count}`;
  page.drawText(label, {
    x: PAGE[0] - MARGIN - fonts.regular.widthOfTextAtSize(label, 9),
    y: 48,
    size: 9,
    font: fonts.regular,
    color: grey,
  });
}

function titlePage(pdf: PDFDocument, fonts: Fonts, title: string, subject: DocumentSubject): PDFPage {
  const page = pdf.addPage(PAGE);
  page.drawText(title, { x: MARGIN, y: 700, size: 22, font: fonts.bold, color: rgb(0.1, 0.2, 0.4) });
  page.drawLine({ start: { x: MARGIN, y: 688 }, end: { x: PAGE[0] - MARGIN, y: 688 }, thickness: 1, color: rgb(0.6, 0.6, 0.6) });
  const lines: Array<[string, string]> = [
    ['ULI', subject.uli],
    ['Loan number', subject.loanNumber],
    ['Borrower', subject.borrower],
    ['Property', subject.property],
    ['Note amount', subject.amount],
    ['Note date', subject.noteDate],
    ['Party', subject.party],
  ];
  let y = 650;
  for (const [label, value] of lines) {
    page.drawText(`${label}:`, { x: MARGIN, y, size: 11, font: fonts.bold });
    page.drawText(pdfText(value), { x: 180, y, size: 11, font: fonts.regular });
    y -= 22;
  }
  return page;
}

/** A deed's covenant page: a running head, then numbered sections until the page is full. */
function covenantPage(
  pdf: PDFDocument,
  fonts: Fonts,
  title: string,
  subject: DocumentSubject,
  sections: typeof DEED_SECTIONS,
  first: number,
) {
  const page = pdf.addPage(PAGE);
  page.drawText(pdfText(`${title} - ULI ${subject.uli}`), { x: MARGIN, y: 740, size: 9, font: fonts.regular, color: rgb(0.4, 0.4, 0.4) });
  let y = 700;
  sections.forEach(([heading, body], offset) => {
    page.drawText(`${first + offset}. ${heading}`, { x: MARGIN, y, size: 12, font: fonts.bold });
    y -= 20;
    for (const line of wrap(body, fonts.regular, 10.5, TEXT_WIDTH)) {
      page.drawText(line, { x: MARGIN, y, size: 10.5, font: fonts.regular });
      y -= 15;
    }
    y -= 14;
  });
}

function signaturePage(pdf: PDFDocument, fonts: Fonts, title: string, subject: DocumentSubject) {
  const page = pdf.addPage(PAGE);
  page.drawText(pdfText(`${title} - ULI ${subject.uli}`), { x: MARGIN, y: 740, size: 9, font: fonts.regular, color: rgb(0.4, 0.4, 0.4) });
  page.drawText('Signatures', { x: MARGIN, y: 700, size: 14, font: fonts.bold });
  const statement =
    'By signing below, Borrower accepts and agrees to the terms and covenants contained in this Security Instrument and in any rider executed by Borrower and recorded with it.';
  let y = 672;
  for (const line of wrap(statement, fonts.regular, 10.5, TEXT_WIDTH)) {
    page.drawText(line, { x: MARGIN, y, size: 10.5, font: fonts.regular });
    y -= 15;
  }
  for (const signer of [pdfText(subject.borrower), 'Witness']) {
    y -= 50;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + 260, y }, thickness: 0.8, color: rgb(0.2, 0.2, 0.2) });
    page.drawText(signer.length > 60 ? `${signer.slice(0, 57)}...` : signer, { x: MARGIN, y: y - 14, size: 10, font: fonts.regular });
    page.drawText('Date', { x: MARGIN + 300, y: y - 14, size: 10, font: fonts.regular });
    page.drawLine({ start: { x: MARGIN + 300, y }, end: { x: MARGIN + 440, y }, thickness: 0.8, color: rgb(0.2, 0.2, 0.2) });
  }
  y -= 70;
  page.drawText('Acknowledgment', { x: MARGIN, y, size: 12, font: fonts.bold });
  y -= 18;
  const notary = `This instrument was acknowledged before me on ${subject.noteDate} by ${pdfText(subject.borrower)}.`;
  for (const line of wrap(notary, fonts.regular, 10.5, TEXT_WIDTH)) {
    page.drawText(line, { x: MARGIN, y, size: 10.5, font: fonts.regular });
    y -= 15;
  }
}

export async function makeDocumentPdf(kind: DocumentKind, subject: DocumentSubject): Promise<GeneratedPdf> {
  const title = DOCUMENT_TITLES[kind];
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${title} ${subject.uli}`);
  pdf.setAuthor('Loan Registry demo data');
  pdf.setProducer('Loan Registry demo seed');
  pdf.setCreator('Loan Registry demo seed');
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  const fonts: Fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  titlePage(pdf, fonts, title, subject);
  if (kind === 'DEED') {
    // Title page, covenants over the middle pages (three sections a page), signatures last.
    const count = deedPageCount(subject.uli);
    for (let page = 0; page < count - 2; page++) {
      const first = (page * 3) % DEED_SECTIONS.length;
      covenantPage(pdf, fonts, title, subject, DEED_SECTIONS.slice(first, first + 3), first + 1);
    }
    signaturePage(pdf, fonts, title, subject);
  }
  const pages = pdf.getPages();
  pages.forEach((page, index) => footer(page, fonts, index + 1, pages.length));
  const bytes = Buffer.from(await pdf.save({ useObjectStreams: false }));
  return { bytes, hash: sha256Hex(bytes) };
}

/**
 * A showcase document's stored bytes and the hash recorded for them. `tampered`: the document as
 * registered gives the hash, then another note amount was written over its content (a sound PDF
 * that no longer matches: the server must refuse it). `corrupt`: a PDF header followed by bytes
 * that hold no PDF structure (no ASCII at all, so no object or trailer can be found), with the
 * matching hash (the server serves it; the viewer cannot display it).
 */
export async function makeDamagedPdf(kind: DocumentKind, subject: DocumentSubject, damage: DocumentDamage): Promise<GeneratedPdf> {
  const genuine = await makeDocumentPdf(kind, subject);
  if (damage === 'tampered') {
    const altered = await makeDocumentPdf(kind, { ...subject, amount: '$1,000' });
    return { bytes: altered.bytes, hash: genuine.hash };
  }
  const bytes = Buffer.alloc(genuine.bytes.length);
  const header = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  header.copy(bytes);
  let state = 0x2545_4f46;
  for (let i = header.length; i < bytes.length; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    bytes[i] = 0x80 | (state >>> 24);
  }
  return { bytes, hash: sha256Hex(bytes) };
}
