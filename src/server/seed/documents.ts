// One-page demo PDFs made with pdf-lib: a title, the loan's ULI, borrower and property.
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

export const DOCUMENT_KINDS = ['DEED', 'ASSIGNMENT', 'RELEASE', 'ENOTE', 'OTHER'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number] | 'DEACTIVATION_INSTRUMENT';

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

/**
 * The standard PDF fonts encode only WinAnsi (Latin-1, mostly): other letters (the adversarial
 * loans' Chinese, Arabic, Cyrillic names) print as '?', and line breaks and tabs as spaces.
 */
export const pdfText = (text: string): string => text.replace(/[\t\r\n]+/g, ' ').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

// Fixed document dates keep the bytes (and so the hashes) identical from run to run.
const FIXED_DATE = new Date(Date.UTC(2026, 0, 15));

export async function makeDocumentPdf(kind: DocumentKind, subject: DocumentSubject): Promise<GeneratedPdf> {
  const title = DOCUMENT_TITLES[kind];
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${title} ${subject.uli}`);
  pdf.setAuthor('Loan Registry demo data');
  pdf.setProducer('Loan Registry demo seed');
  pdf.setCreator('Loan Registry demo seed');
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText(title, { x: 72, y: 700, size: 22, font: bold, color: rgb(0.1, 0.2, 0.4) });
  page.drawLine({ start: { x: 72, y: 688 }, end: { x: 540, y: 688 }, thickness: 1, color: rgb(0.6, 0.6, 0.6) });
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
    page.drawText(`${label}:`, { x: 72, y, size: 11, font: bold });
    page.drawText(pdfText(value), { x: 180, y, size: 11, font: regular });
    y -= 22;
  }
  page.drawText('Demonstration document generated for the loan registry. Not a legal instrument.', {
    x: 72,
    y: 72,
    size: 9,
    font: regular,
    color: rgb(0.4, 0.4, 0.4),
  });
  const bytes = Buffer.from(await pdf.save({ useObjectStreams: false }));
  return { bytes, hash: createHash('sha256').update(bytes).digest('hex') };
}
