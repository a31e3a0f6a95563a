// The Documents tab (SPEC sections 2 and 8): the loan's deeds, assignments, releases and eNote
// (PDFs only) and a viewer for the one chosen, with page navigation, zoom, download and its
// SHA-256; 'Unable to load PDF' when it cannot be shown. The document-viewer machine holds all of
// it; this component renders its states and sends events. The PDF renderer (react-pdf and the
// pdf.js worker) is a chunk of its own, fetched when this tab opens.
import { useActorRef, useSelector } from '@xstate/react';
import { Component, lazy, Suspense, useEffect, useMemo, type FormEvent, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type documentViewerMachine,
  selectDocuments,
  selectFile,
  selectPage,
  selectPageCount,
  selectSelectedDocument,
  selectZoom,
} from '../../../../machines/document-viewer';
import { documentKindLabel } from '../../../domain/documents';
import { formatDate } from '../../../domain/format';
import { TEXTS } from '../../../domain/texts';
import { DOCUMENT_TEXTS } from '../../../domain/asset-texts';
import { useAppServices } from '../../app/services';
import { StatusMessage } from '../../ui/status-message';
import { documentViewerActors } from './asset-actors';

type Viewer = ActorRefFrom<typeof documentViewerMachine>;

const loadPdfView = () => import('./pdf-document-view');
const PdfDocumentView = lazy(async () => ({ default: (await loadPdfView()).PdfDocumentView }));

/** Turns a failure to load the renderer's chunk into the machine's `pdf.failed`. */
class RendererBoundary extends Component<{ onError: () => void; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch() {
    this.props.onError();
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

const buttonClass =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';

function DocumentList({ viewer }: { viewer: Viewer }) {
  const documents = useSelector(viewer, selectDocuments);
  const selected = useSelector(viewer, selectSelectedDocument);
  return (
    <nav aria-label={DOCUMENT_TEXTS.listLabel} className="lg:w-72 lg:shrink-0">
      <ul className="flex flex-col gap-2">
        {documents.map((document) => {
          const current = document.documentId === selected?.documentId;
          return (
            <li key={document.documentId}>
              <button
                type="button"
                aria-current={current ? 'true' : undefined}
                onClick={() => viewer.send({ type: 'document.choose', documentId: document.documentId })}
                className={`flex w-full flex-col rounded-md border px-3 py-2 text-left text-sm ${
                  current ? 'border-brand-700 bg-brand-50' : 'border-slate-200 bg-white hover:bg-slate-50'
                }`}
              >
                <span className="font-medium text-slate-900">{document.name}</span>{' '}
                <span className="text-slate-600">
                  {documentKindLabel(document.type)} · {formatDate(document.createdAt)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function PageControls({ viewer }: { viewer: Viewer }) {
  const page = useSelector(viewer, selectPage);
  const pageCount = useSelector(viewer, selectPageCount);
  const canPrevious = useSelector(viewer, (snapshot) => snapshot.can({ type: 'page.previous' }));
  const canNext = useSelector(viewer, (snapshot) => snapshot.can({ type: 'page.next' }));
  // The typed number goes to the machine, which bounds it; the field then shows the machine's page.
  const commit = (input: HTMLInputElement) => {
    viewer.send({ type: 'page.go', page: Number(input.value) });
    input.value = String(viewer.getSnapshot().context.page);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('page');
    if (input instanceof HTMLInputElement) commit(input);
  };
  return (
    <div className="flex items-center gap-2">
      <button type="button" className={buttonClass} disabled={!canPrevious} onClick={() => viewer.send({ type: 'page.previous' })}>
        {DOCUMENT_TEXTS.previousPage}
      </button>
      {/* noValidate: a number out of range is the machine's to bound, not the browser's to refuse. */}
      <form onSubmit={onSubmit} noValidate className="flex items-center gap-1 text-sm text-slate-700">
        <label htmlFor="document-page-number" className="sr-only">
          {DOCUMENT_TEXTS.pageNumber}
        </label>
        <input
          // Re-created when the machine's page changes, so it shows that page.
          key={page}
          id="document-page-number"
          name="page"
          type="number"
          inputMode="numeric"
          min={1}
          max={pageCount}
          defaultValue={page}
          onBlur={(event) => commit(event.currentTarget)}
          className="w-16 rounded-md border border-slate-300 px-2 py-1 text-right"
        />
        <span>{DOCUMENT_TEXTS.pageOf(pageCount)}</span>
      </form>
      <button type="button" className={buttonClass} disabled={!canNext} onClick={() => viewer.send({ type: 'page.next' })}>
        {DOCUMENT_TEXTS.nextPage}
      </button>
    </div>
  );
}

function ZoomControls({ viewer }: { viewer: Viewer }) {
  const zoom = useSelector(viewer, selectZoom);
  const canZoomOut = useSelector(viewer, (snapshot) => snapshot.can({ type: 'zoom.out' }));
  const canZoomIn = useSelector(viewer, (snapshot) => snapshot.can({ type: 'zoom.in' }));
  return (
    <div className="flex items-center gap-2">
      <button type="button" className={buttonClass} disabled={!canZoomOut} onClick={() => viewer.send({ type: 'zoom.out' })}>
        {DOCUMENT_TEXTS.zoomOut}
      </button>
      <output className="w-12 text-center text-sm text-slate-700" data-testid="document-zoom">
        {DOCUMENT_TEXTS.zoomLevel(zoom)}
      </output>
      <button type="button" className={buttonClass} disabled={!canZoomIn} onClick={() => viewer.send({ type: 'zoom.in' })}>
        {DOCUMENT_TEXTS.zoomIn}
      </button>
      <button type="button" className={buttonClass} onClick={() => viewer.send({ type: 'zoom.reset' })}>
        {DOCUMENT_TEXTS.resetZoom}
      </button>
    </div>
  );
}

const DOCUMENT_NAME_ID = 'document-viewer-name';

function DocumentViewer({ viewer }: { viewer: Viewer }) {
  const selected = useSelector(viewer, selectSelectedDocument);
  const file = useSelector(viewer, selectFile);
  const page = useSelector(viewer, selectPage);
  const pageCount = useSelector(viewer, selectPageCount);
  const zoom = useSelector(viewer, selectZoom);
  const choosing = useSelector(viewer, (snapshot) => snapshot.matches({ ready: 'choosing' }));
  const loading = useSelector(
    viewer,
    (snapshot) => snapshot.matches({ ready: 'loadingDocument' }) || snapshot.matches({ ready: 'rendering' }),
  );
  const displayed = useSelector(viewer, (snapshot) => snapshot.matches({ ready: 'displayed' }));
  const failed = useSelector(viewer, (snapshot) => snapshot.matches({ ready: 'failed' }));
  const withheld = useSelector(viewer, (snapshot) => snapshot.matches({ ready: 'withheld' }));
  const failPdf = () => viewer.send({ type: 'pdf.failed' });

  return (
    <section
      aria-label={DOCUMENT_TEXTS.viewerLabel}
      className="flex min-w-0 flex-1 flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      {choosing && <p className="p-8 text-center text-slate-600">{DOCUMENT_TEXTS.chooseDocument}</p>}
      {selected && !choosing && (
        <div className="flex flex-col gap-3 border-b border-slate-200 pb-3">
          <h3 id={DOCUMENT_NAME_ID} className="text-base font-semibold text-slate-900">
            {selected.name}
          </h3>
          <dl className="flex flex-col gap-1 text-sm sm:flex-row sm:gap-2">
            <dt className="font-medium text-slate-700">{DOCUMENT_TEXTS.sha256}</dt>
            <dd className="font-mono break-all text-slate-900" data-testid="document-sha256">
              {selected.hash}
            </dd>
          </dl>
          {displayed && (
            <div className="flex flex-wrap items-center gap-4">
              <PageControls viewer={viewer} />
              <ZoomControls viewer={viewer} />
              <button type="button" className={buttonClass} onClick={() => viewer.send({ type: 'document.download' })}>
                {DOCUMENT_TEXTS.download}
              </button>
            </div>
          )}
        </div>
      )}
      {loading && <StatusMessage>{DOCUMENT_TEXTS.loadingDocument}</StatusMessage>}
      {failed && (
        <div className="flex flex-col items-center gap-4 p-8">
          <p role="alert" className="font-medium text-red-900">
            {DOCUMENT_TEXTS.unableToLoadPdf}
          </p>
          <button type="button" className={buttonClass} onClick={() => viewer.send({ type: 'document.retry' })}>
            {TEXTS.tryAgain}
          </button>
        </div>
      )}
      {withheld && (
        // No retry: the stored copy failed its hash check, and asking again cannot change that.
        <div role="alert" className="flex flex-col items-center gap-2 p-8 text-center">
          <p className="font-medium text-red-900">{DOCUMENT_TEXTS.unableToLoadPdf}</p>
          <p className="max-w-prose text-sm text-slate-700">{DOCUMENT_TEXTS.integrityWithheld}</p>
        </div>
      )}
      {file && selected && !failed && (
        // Scrolls both ways when the page is wider or taller (a phone, a zoom): it takes the focus so
        // the keyboard can scroll it, and is named after the document.
        <div role="group" aria-labelledby={DOCUMENT_NAME_ID} tabIndex={0} className="overflow-auto bg-slate-100 p-4" hidden={!displayed}>
          <RendererBoundary key={selected.documentId} onError={failPdf}>
            <Suspense fallback={null}>
              <PdfDocumentView
                file={file}
                pageCount={pageCount}
                page={page}
                zoom={zoom}
                onLoaded={(count) => viewer.send({ type: 'pdf.loaded', pageCount: count })}
                onFailed={failPdf}
              />
            </Suspense>
          </RendererBoundary>
        </div>
      )}
    </section>
  );
}

export function AssetDocumentsPanel({ loanId }: { loanId: string }) {
  const services = useAppServices();
  const logic = useMemo(() => documentViewerActors(services), [services]);
  const viewer = useActorRef(logic, { input: { loanId } });
  const loadingList = useSelector(viewer, (snapshot) => snapshot.matches('loadingList'));
  const listFailed = useSelector(viewer, (snapshot) => snapshot.matches('listFailed'));
  const empty = useSelector(viewer, (snapshot) => snapshot.matches('empty'));
  const ready = useSelector(viewer, (snapshot) => snapshot.matches('ready'));
  // The renderer's chunk loads beside the list, not after the first document's bytes. A failure
  // here is left to the lazy component, which asks again when a document opens (and then fails it).
  useEffect(() => {
    loadPdfView().catch(() => undefined);
  }, []);

  if (loadingList) return <StatusMessage>{DOCUMENT_TEXTS.loadingList}</StatusMessage>;
  if (listFailed) {
    return (
      <div className="flex flex-col items-center gap-4 p-8">
        <p role="alert" className="text-red-900">
          {DOCUMENT_TEXTS.listFailed}
        </p>
        <button
          type="button"
          className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-600"
          onClick={() => viewer.send({ type: 'list.retry' })}
        >
          {TEXTS.tryAgain}
        </button>
      </div>
    );
  }
  if (empty) return <p className="rounded-md border border-slate-200 bg-slate-50 p-6 text-slate-700">{DOCUMENT_TEXTS.noDocuments}</p>;
  if (!ready) return null;
  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:items-start">
      <DocumentList viewer={viewer} />
      <DocumentViewer viewer={viewer} />
    </div>
  );
}
