// Typed sample document metadata for the document viewer's tests, built through the contract
// schema so it stays valid: the four kinds the viewer lists, and documents it must leave out.
import { documentMetadataSchema, type DocumentMetadata } from '../../src/contract/documents';
import type { DocumentKind } from '../../src/domain/documents';

const hashOf = (seed: number) => seed.toString(16).padStart(2, '0').repeat(32);

function sampleDocument(
  seed: number,
  name: string,
  type: DocumentKind,
  overrides: Partial<Pick<DocumentMetadata, 'contentType' | 'fileType'>> = {},
): DocumentMetadata {
  return documentMetadataSchema.parse({
    documentId: `d0c00000-0000-4000-8000-${seed.toString(16).padStart(12, '0')}`,
    name,
    type,
    hash: hashOf(seed),
    fileName: `${name.toLowerCase().replace(/\W+/g, '-')}.pdf`,
    fileType: 'pdf',
    contentType: 'application/pdf',
    docType: type,
    sizeBytes: 1000 + seed,
    createdAt: `2025-02-${String(seed).padStart(2, '0')}T10:00:00.000Z`,
    ...overrides,
  });
}

export const sampleDeed = sampleDocument(1, 'Deed of Trust', 'DEED');
export const sampleAssignment = sampleDocument(2, 'Assignment of Mortgage', 'ASSIGNMENT');
export const sampleRelease = sampleDocument(3, 'Release of Lien', 'RELEASE');
export const sampleENote = sampleDocument(4, 'Electronic Promissory Note', 'ENOTE');
/** Kinds the viewer does not list, and a note that is not a PDF. */
export const sampleDisclosure = sampleDocument(5, 'Closing Disclosure', 'OTHER');
export const sampleInstrument = sampleDocument(6, 'Security Instrument and Assignment', 'DEACTIVATION_INSTRUMENT');
export const sampleTextNote = sampleDocument(7, 'Scanned note (text)', 'ENOTE', { contentType: 'text/plain', fileType: 'txt' });

/** The metadata as the server lists it: oldest first, every kind. */
export const sampleDocuments: readonly DocumentMetadata[] = [
  sampleDeed,
  sampleAssignment,
  sampleRelease,
  sampleENote,
  sampleDisclosure,
  sampleInstrument,
  sampleTextNote,
];

/** What the viewer lists of them. */
export const viewableSampleDocuments: readonly DocumentMetadata[] = [sampleDeed, sampleAssignment, sampleRelease, sampleENote];
