// The asset page's document viewer (SPEC sections 2, 3 and 8). It loads the loan's document
// metadata and keeps only the PDFs of deeds, assignments, releases and the eNote; the user
// chooses one, its bytes are fetched, and the screen's PDF renderer (pdf.js) reports whether it
// could read them (`pdf.loaded` with the page count, or `pdf.failed`). Displayed: page navigation
// (the page number bounded from 1 to the page count), zoom, download, and the SHA-256 from the
// metadata. 'Unable to load PDF' when the bytes could not be fetched or could not be displayed;
// a document the server withholds because its content no longer matches its hash says so, and
// offers no retry (none can help).
import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { DocumentMetadata } from '../src/contract/documents';
import { isHttpError } from '../src/contract/http-error';
import { boundedPage, DEFAULT_ZOOM, isViewableDocument, nextZoom } from '../src/domain/documents';
import { DOCUMENT_TEXTS } from '../src/domain/asset-texts';

export interface DocumentViewerInput {
  readonly loanId: string;
}

export interface DocumentViewerContext {
  readonly loanId: string;
  /** The viewable documents (SPEC section 2's four kinds, PDFs only), in the server's order. */
  readonly documents: readonly DocumentMetadata[];
  readonly selected: DocumentMetadata | null;
  /** The chosen document's bytes, once fetched. */
  readonly file: Blob | null;
  readonly pageCount: number;
  readonly page: number;
  /** The page's scale, one of ZOOM_LEVELS; kept when another document is chosen. */
  readonly zoom: number;
}

export type DocumentViewerEvent =
  | { type: 'list.retry' }
  | { type: 'document.choose'; documentId: string }
  | { type: 'document.retry' }
  | { type: 'document.download' }
  | { type: 'pdf.loaded'; pageCount: number }
  | { type: 'pdf.failed' }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'page.go'; page: number }
  | { type: 'zoom.in' }
  | { type: 'zoom.out' }
  | { type: 'zoom.reset' };

export interface DocumentFile {
  readonly file: Blob;
  readonly fileName: string;
}

export const documentViewerMachine = setup({
  types: {
    input: {} as DocumentViewerInput,
    context: {} as DocumentViewerContext,
    events: {} as DocumentViewerEvent,
  },
  actors: {
    // Provided by the screen: the loan's document metadata, aborted with `signal`.
    loadDocuments: fromPromise<DocumentMetadata[], { loanId: string }>(async () => {
      throw new Error('loadDocuments is provided by the screen');
    }),
    // Provided by the screen: one document's PDF bytes.
    loadDocument: fromPromise<Blob, { loanId: string; documentId: string }>(async () => {
      throw new Error('loadDocument is provided by the screen');
    }),
  },
  actions: {
    /** Provided by the screen: hands the file to the browser. */
    saveFile: (_, _params: DocumentFile) => undefined,
  },
  guards: {
    hasViewableDocuments: ({ event }) => 'output' in event && (event.output as DocumentMetadata[]).some(isViewableDocument),
    isOtherListedDocument: ({ context, event }) => {
      assertEvent(event, 'document.choose');
      return event.documentId !== context.selected?.documentId && context.documents.some((d) => d.documentId === event.documentId);
    },
    hasNextPage: ({ context }) => context.page < context.pageCount,
    hasPreviousPage: ({ context }) => context.page > 1,
    canZoomIn: ({ context }) => nextZoom(context.zoom, 1) !== context.zoom,
    canZoomOut: ({ context }) => nextZoom(context.zoom, -1) !== context.zoom,
    isWithheld: ({ event }) =>
      'error' in event && isHttpError(event.error) && event.error.serverMessage === DOCUMENT_TEXTS.integrityWithheld,
  },
}).createMachine({
  id: 'documentViewer',
  context: ({ input }) => ({
    loanId: input.loanId,
    documents: [],
    selected: null,
    file: null,
    pageCount: 0,
    page: 1,
    zoom: DEFAULT_ZOOM,
  }),
  initial: 'loadingList',
  states: {
    loadingList: {
      tags: ['busy'],
      invoke: {
        src: 'loadDocuments',
        input: ({ context }) => ({ loanId: context.loanId }),
        onDone: [
          {
            guard: 'hasViewableDocuments',
            target: 'ready',
            actions: assign({ documents: ({ event }) => event.output.filter(isViewableDocument) }),
          },
          { target: 'empty' },
        ],
        onError: { target: 'listFailed' },
      },
    },
    listFailed: {
      on: { 'list.retry': { target: 'loadingList' } },
    },
    /** The loan has no document the viewer lists. */
    empty: {},
    ready: {
      initial: 'choosing',
      on: {
        'document.choose': {
          guard: 'isOtherListedDocument',
          target: '.loadingDocument',
          actions: assign(({ context, event }) => ({
            selected: context.documents.find((document) => document.documentId === event.documentId) ?? null,
            file: null,
            pageCount: 0,
            page: 1,
          })),
        },
      },
      states: {
        /** The list is shown; no document is open yet. */
        choosing: {},
        loadingDocument: {
          tags: ['busy'],
          invoke: {
            src: 'loadDocument',
            input: ({ context }) => ({ loanId: context.loanId, documentId: context.selected?.documentId ?? '' }),
            onDone: { target: 'rendering', actions: assign({ file: ({ event }) => event.output }) },
            onError: [{ guard: 'isWithheld', target: 'withheld' }, { target: 'failed' }],
          },
        },
        /** The bytes are here; the PDF renderer reads them. */
        rendering: {
          tags: ['busy'],
          on: {
            'pdf.loaded': {
              target: 'displayed',
              actions: assign(({ event }) => ({ pageCount: Math.max(1, Math.trunc(event.pageCount)), page: 1 })),
            },
            'pdf.failed': { target: 'failed' },
          },
        },
        displayed: {
          on: {
            'page.next': { guard: 'hasNextPage', actions: assign({ page: ({ context }) => context.page + 1 }) },
            'page.previous': { guard: 'hasPreviousPage', actions: assign({ page: ({ context }) => context.page - 1 }) },
            'page.go': { actions: assign({ page: ({ context, event }) => boundedPage(event.page, context.pageCount) }) },
            'zoom.in': { guard: 'canZoomIn', actions: assign({ zoom: ({ context }) => nextZoom(context.zoom, 1) }) },
            'zoom.out': { guard: 'canZoomOut', actions: assign({ zoom: ({ context }) => nextZoom(context.zoom, -1) }) },
            'zoom.reset': { actions: assign({ zoom: DEFAULT_ZOOM }) },
            'document.download': {
              actions: {
                type: 'saveFile',
                params: ({ context }) => ({ file: context.file as Blob, fileName: context.selected?.fileName ?? 'document.pdf' }),
              },
            },
            // A page the renderer could not draw.
            'pdf.failed': { target: 'failed' },
          },
        },
        /** 'Unable to load PDF'. */
        failed: {
          on: { 'document.retry': { target: 'loadingDocument' } },
        },
        /** 'Unable to load PDF', and why: the content failed its hash check; another document may be chosen. */
        withheld: {},
      },
    },
  },
});

export type DocumentViewerSnapshot = SnapshotFrom<typeof documentViewerMachine>;
type ViewerSnapshot = { context: DocumentViewerContext };

export const selectDocuments = (snapshot: ViewerSnapshot): readonly DocumentMetadata[] => snapshot.context.documents;
export const selectSelectedDocument = (snapshot: ViewerSnapshot): DocumentMetadata | null => snapshot.context.selected;
export const selectFile = (snapshot: ViewerSnapshot): Blob | null => snapshot.context.file;
export const selectPage = (snapshot: ViewerSnapshot): number => snapshot.context.page;
export const selectPageCount = (snapshot: ViewerSnapshot): number => snapshot.context.pageCount;
export const selectZoom = (snapshot: ViewerSnapshot): number => snapshot.context.zoom;
