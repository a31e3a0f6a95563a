// Documents of a loan (SPEC sections 2, 3 and 7): their kinds, which of them the asset page's
// viewer lists, and the SHA-256 every document carries. Shared by the server, the seed and the app.

/** Every kind of document a loan can hold (the `type` of its metadata). */
export const DOCUMENT_KINDS = ['DEED', 'ASSIGNMENT', 'RELEASE', 'ENOTE', 'DEACTIVATION_INSTRUMENT', 'OTHER'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** SPEC section 2: the viewer lists only PDFs of deeds, assignments, releases and the electronic note. */
export const VIEWABLE_DOCUMENT_KINDS = ['DEED', 'ASSIGNMENT', 'RELEASE', 'ENOTE'] as const satisfies readonly DocumentKind[];

export const PDF_CONTENT_TYPE = 'application/pdf';

/** A document's display label by kind. */
export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  DEED: 'Deed',
  ASSIGNMENT: 'Assignment',
  RELEASE: 'Release',
  ENOTE: 'eNote',
  DEACTIVATION_INSTRUMENT: 'Deactivation instrument',
  OTHER: 'Other',
};

export const documentKindLabel = (kind: string): string => DOCUMENT_KIND_LABELS[kind as DocumentKind] ?? kind;

/** The metadata fields the viewer's rule looks at. */
export interface DocumentKindAndType {
  readonly type: string;
  readonly contentType: string;
}

/** True for a document the asset page's viewer lists: a PDF of one of the four kinds. */
export function isViewableDocument(document: DocumentKindAndType): boolean {
  return document.contentType.toLowerCase() === PDF_CONTENT_TYPE && (VIEWABLE_DOCUMENT_KINDS as readonly string[]).includes(document.type);
}

/** A SHA-256 digest as 64 lower- or upper-case hex digits (the hash form of a document read). */
export const SHA256_HEX_PATTERN = /^[0-9a-fA-F]{64}$/;

/** The viewer's zoom steps (the page's scale); it opens at DEFAULT_ZOOM. */
export const ZOOM_LEVELS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
export const DEFAULT_ZOOM = 1;

/** The next zoom step up or down from `zoom`, or `zoom` itself at either end. */
export function nextZoom(zoom: number, direction: 1 | -1): number {
  const steps = direction > 0 ? ZOOM_LEVELS : [...ZOOM_LEVELS].reverse();
  return steps.find((level) => (direction > 0 ? level > zoom : level < zoom)) ?? zoom;
}

/** SPEC section 5: the page-number input is bounded from 1 to the page count (a whole number). */
export function boundedPage(page: number, pageCount: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, pageCount));
}
