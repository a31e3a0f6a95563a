// The walk of the document-viewer machine: what its model-based test
// (tests/web/document-viewer-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { documentViewerMachine } from '../../../machines/document-viewer';
import { HttpError } from '../../../src/contract/http-error';
import { DOCUMENT_TEXTS } from '../../../src/domain/asset-texts';
import { sampleAssignment, sampleDeed, sampleDisclosure, sampleDocuments, sampleTextNote } from '../../support/document-fixtures';
import { sampleLoanId } from '../../support/loan-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const pdf = new Blob(['%PDF-1.7 two pages'], { type: 'application/pdf' });

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const integrityFailure = new HttpError(
  500,
  JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: DOCUMENT_TEXTS.integrityWithheld }),
);

export const PAGES = 2;

export type ViewerSnapshot = ReturnType<typeof documentViewerMachine.resolveState>;

export const isHub = (snapshot: ViewerSnapshot) => snapshot.context.page === 1 && snapshot.context.zoom === 1;

export const walk: WalkerOptions<typeof documentViewerMachine> = {
  input: { loanId: sampleLoanId },
  serializeState: (snapshot) =>
    JSON.stringify([snapshot.value, snapshot.context.selected?.documentId ?? null, snapshot.context.page, snapshot.context.zoom]),
  events: {
    'done: loadDocuments': [{ output: [...sampleDocuments] }, { output: [sampleDisclosure, sampleTextNote] }],
    'error: loadDocuments': { error: serverError },
    'done: loadDocument': { output: pdf },
    'error: loadDocument': [{ error: serverError }, { error: integrityFailure }],
    'document.choose': [{ documentId: sampleDeed.documentId }, { documentId: sampleAssignment.documentId }],
    'pdf.loaded': { pageCount: PAGES },
    'page.go': [{ page: 1 }, { page: 2 }],
  },
  // Bounds the walk (each step is checked on screen): the deed is opened first and explored; the
  // assignment is chosen once from each of the deed's states and left loading. Pages are turned
  // at the default zoom, and zoom steps taken on the first page; events the screen cannot send
  // (a disabled button) are left out.
  filterEvents: (snapshot, event) => {
    const selected = snapshot.context.selected?.documentId;
    if (selected === sampleAssignment.documentId) return false;
    if (event.type === 'document.choose') {
      const { documentId } = event as { documentId: string };
      const open = snapshot.matches({ ready: 'choosing' }) ? sampleDeed.documentId : sampleAssignment.documentId;
      return documentId === open && (!snapshot.matches({ ready: 'displayed' }) || isHub(snapshot));
    }
    if (!snapshot.can(event)) return false;
    if (!snapshot.matches({ ready: 'displayed' })) return true;
    if (event.type.startsWith('zoom.')) return snapshot.context.page === 1;
    if (event.type.startsWith('page.')) return snapshot.context.zoom === 1;
    return isHub(snapshot);
  },
};
