// @vitest-environment jsdom
// Model-based test of the document-viewer machine through the Documents tab of the asset page:
// every transition of its statechart is walked on the rendered screen over a fake API whose calls
// the test settles. pdf.js cannot render in jsdom (real PDFs are opened in Chromium by
// e2e/documents.spec.ts), so `react-pdf` is replaced by a renderer whose reading of the bytes the
// test decides: the `pdf.loaded` and `pdf.failed` steps.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentViewerMachine } from '../../machines/document-viewer';
import type { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { TEXTS } from '../../src/domain/texts';
import { DOCUMENT_TEXTS } from '../../src/domain/asset-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { PAGES, pdf, walk } from '../machines/walks/document-viewer';
import { sampleDeed, sampleDisclosure, sampleDocuments, viewableSampleDocuments } from '../support/document-fixtures';
import { sampleEvents, sampleLoanDetails, sampleLoanId } from '../support/loan-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

interface FakeDocumentProps {
  file: Blob;
  onLoadSuccess?: (pdf: { numPages: number }) => void;
  onLoadError?: (error: Error) => void;
  children?: unknown;
}
interface FakePageProps {
  pageNumber: number;
  scale: number;
  onRenderError?: (error: Error) => void;
}

/** What the fake renderer has mounted; the test reads the bytes "for" it. */
const renderer = vi.hoisted(() => ({
  document: null as FakeDocumentProps | null,
  page: null as FakePageProps | null,
}));

vi.mock('react-pdf', async () => {
  const { createElement, useEffect } = await import('react');
  return {
    pdfjs: { GlobalWorkerOptions: { workerSrc: '' } },
    Document: function FakeDocument(props: FakeDocumentProps) {
      useEffect(() => {
        renderer.document = props;
        return () => {
          if (renderer.document === props) renderer.document = null;
        };
      });
      return createElement('div', { 'data-testid': 'pdf-document' }, props.children as never);
    },
    Page: function FakePage(props: FakePageProps) {
      useEffect(() => {
        renderer.page = props;
        return () => {
          if (renderer.page === props) renderer.page = null;
        };
      });
      return createElement('div', { 'data-testid': 'pdf-page', 'data-page': props.pageNumber, 'data-scale': props.scale });
    },
  };
});

const walker = createModelWalker(documentViewerMachine, walk);

const user = userEvent.setup();
const list = () => within(screen.getByRole('navigation', { name: DOCUMENT_TEXTS.listLabel }));
const viewer = () => within(screen.getByRole('region', { name: DOCUMENT_TEXTS.viewerLabel }));
const documentButton = (name: string) => list().getByRole('button', { name: new RegExp(`^${name}`) });
const errorOf = (event: unknown) => (event as { error: HttpError }).error;

async function openDocumentsTab() {
  const app = await renderSignedIn([sampleOrganization(1, true)]);
  const calls = deferProductCalls(app.fake.api, ['loanDetails', 'loanEvents', 'loanDocuments', 'loanDocumentPdf']);
  await act(() => app.router.navigate(APP_PATHS.asset(sampleLoanId, 'documents')));
  await calls.settle('loanEvents', { value: sampleEvents });
  await calls.settle('loanDetails', { value: sampleLoanDetails() });
  return { app, calls };
}

/** The open document's header: its name and SHA-256. */
function expectOpenDocument(name: string, hash: string) {
  expect(viewer().getByRole('heading', { level: 3, name })).toBeInTheDocument();
  expect(viewer().getByTestId('document-sha256')).toHaveTextContent(hash);
  expect(documentButton(name)).toHaveAttribute('aria-current', 'true');
}

// The lazy route and panel modules, loaded once up front so no path waits on a cold import.
beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/asset/asset-screen'),
    import('../../src/web/screens/asset/pdf-document-view'),
  ]);
});

describe('document-viewer machine, driven through the Documents tab', () => {
  afterEach(() => {
    cleanup();
    renderer.document = null;
    renderer.page = null;
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openDocumentsTab();
      await path.test({
        states: {
          loadingList: async () => {
            expect(await screen.findByRole('status')).toHaveTextContent(DOCUMENT_TEXTS.loadingList);
            expect(calls.calls('loanDocuments').at(-1)?.[0]).toBe(sampleLoanId);
          },
          listFailed: async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent(DOCUMENT_TEXTS.listFailed);
            expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
          },
          empty: async () => {
            expect(await screen.findByText(DOCUMENT_TEXTS.noDocuments)).toBeInTheDocument();
            expect(screen.queryByRole('navigation', { name: DOCUMENT_TEXTS.listLabel })).not.toBeInTheDocument();
          },
          ready: async () => {
            // Only the PDFs of the four kinds, in the server's order, each with its kind and date.
            const buttons = (await screen.findByRole('navigation', { name: DOCUMENT_TEXTS.listLabel })).querySelectorAll('button');
            expect([...buttons].map((button) => button.textContent)).toEqual(
              viewableSampleDocuments.map((document) => expect.stringContaining(document.name)),
            );
            expect(documentButton('Deed of Trust')).toHaveTextContent('Deed · 02-01-2025');
            expect(list().queryByText(sampleDisclosure.name)).not.toBeInTheDocument();
          },
          'ready.choosing': () => {
            expect(viewer().getByText(DOCUMENT_TEXTS.chooseDocument)).toBeInTheDocument();
            expect(list().queryByRole('button', { current: 'true' })).not.toBeInTheDocument();
          },
          'ready.loadingDocument': async (snapshot) => {
            expect(await viewer().findByRole('status')).toHaveTextContent(DOCUMENT_TEXTS.loadingDocument);
            const open = snapshot.context.selected ?? sampleDeed;
            expectOpenDocument(open.name, open.hash);
            expect(calls.calls('loanDocumentPdf').at(-1)?.slice(0, 2)).toEqual([sampleLoanId, open.documentId]);
          },
          'ready.rendering': async () => {
            expect(await viewer().findByRole('status')).toHaveTextContent(DOCUMENT_TEXTS.loadingDocument);
            // The renderer has the bytes, out of sight until it has read them.
            await waitFor(() => expect(renderer.document?.file).toBe(pdf));
            expect(screen.getByTestId('pdf-document')).not.toBeVisible();
            expect(viewer().queryByRole('button', { name: DOCUMENT_TEXTS.download })).not.toBeInTheDocument();
          },
          'ready.displayed': async (snapshot) => {
            const { page, zoom } = snapshot.context;
            const shown = await screen.findByTestId('pdf-page');
            expect(shown).toBeVisible();
            expect(shown).toHaveAttribute('data-page', String(page));
            expect(shown).toHaveAttribute('data-scale', String(zoom));
            expect(viewer().getByRole('group', { name: DOCUMENT_TEXTS.pageImage(page, PAGES) })).toBeInTheDocument();
            expect(viewer().getByRole('spinbutton', { name: DOCUMENT_TEXTS.pageNumber })).toHaveValue(page);
            expect(viewer().getByText(DOCUMENT_TEXTS.pageOf(PAGES))).toBeInTheDocument();
            expect(viewer().getByRole('button', { name: DOCUMENT_TEXTS.previousPage })).toHaveProperty('disabled', page === 1);
            expect(viewer().getByRole('button', { name: DOCUMENT_TEXTS.nextPage })).toHaveProperty('disabled', page === PAGES);
            expect(viewer().getByTestId('document-zoom')).toHaveTextContent(DOCUMENT_TEXTS.zoomLevel(zoom));
            expect(viewer().getByRole('button', { name: DOCUMENT_TEXTS.zoomIn })).toHaveProperty('disabled', zoom === 2);
            expect(viewer().getByRole('button', { name: DOCUMENT_TEXTS.zoomOut })).toHaveProperty('disabled', zoom === 0.5);
            expectOpenDocument(sampleDeed.name, sampleDeed.hash);
            expect(screen.queryByText(DOCUMENT_TEXTS.loadingDocument)).not.toBeInTheDocument();
          },
          'ready.withheld': async () => {
            const alert = await viewer().findByRole('alert');
            expect(alert).toHaveTextContent(DOCUMENT_TEXTS.unableToLoadPdf);
            expect(alert).toHaveTextContent(DOCUMENT_TEXTS.integrityWithheld);
            // No retry: asking again cannot mend the stored copy.
            expect(viewer().queryByRole('button', { name: TEXTS.tryAgain })).not.toBeInTheDocument();
            expect(screen.queryByTestId('pdf-document')).not.toBeInTheDocument();
            expectOpenDocument(sampleDeed.name, sampleDeed.hash);
          },
          'ready.failed': async () => {
            expect(await viewer().findByRole('alert')).toHaveTextContent(DOCUMENT_TEXTS.unableToLoadPdf);
            expect(viewer().getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
            expect(screen.queryByTestId('pdf-document')).not.toBeInTheDocument();
            expect(viewer().queryByRole('button', { name: DOCUMENT_TEXTS.download })).not.toBeInTheDocument();
            expectOpenDocument(sampleDeed.name, sampleDeed.hash);
          },
        },
        events: {
          'done: loadDocuments': ({ event }) => calls.settle('loanDocuments', { value: (event as unknown as { output: unknown }).output }),
          'error: loadDocuments': ({ event }) => calls.settle('loanDocuments', { error: errorOf(event) }),
          'list.retry': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'document.choose': async ({ event }) => {
            const { documentId } = event as unknown as { documentId: string };
            const chosen = viewableSampleDocuments.find((document) => document.documentId === documentId);
            await user.click(documentButton(chosen?.name ?? ''));
          },
          'done: loadDocument': ({ event }) => calls.settle('loanDocumentPdf', { value: (event as unknown as { output: unknown }).output }),
          'error: loadDocument': ({ event }) => calls.settle('loanDocumentPdf', { error: errorOf(event) }),
          'document.retry': () => user.click(viewer().getByRole('button', { name: TEXTS.tryAgain })),
          'pdf.loaded': async ({ event }) => {
            await waitFor(() => expect(renderer.document).not.toBeNull());
            const { pageCount } = event as unknown as { pageCount: number };
            act(() => renderer.document?.onLoadSuccess?.({ numPages: pageCount }));
          },
          'pdf.failed': async () => {
            await waitFor(() => expect(renderer.document).not.toBeNull());
            // A document the renderer cannot read, or a page it cannot draw.
            act(() =>
              renderer.page
                ? renderer.page.onRenderError?.(new Error('bad page'))
                : renderer.document?.onLoadError?.(new Error('Invalid PDF structure')),
            );
          },
          'page.next': () => user.click(viewer().getByRole('button', { name: DOCUMENT_TEXTS.nextPage })),
          'page.previous': () => user.click(viewer().getByRole('button', { name: DOCUMENT_TEXTS.previousPage })),
          'page.go': async ({ event }) => {
            const input = viewer().getByRole('spinbutton', { name: DOCUMENT_TEXTS.pageNumber });
            await user.clear(input);
            await user.type(input, `${(event as unknown as { page: number }).page}{Enter}`);
          },
          'zoom.in': () => user.click(viewer().getByRole('button', { name: DOCUMENT_TEXTS.zoomIn })),
          'zoom.out': () => user.click(viewer().getByRole('button', { name: DOCUMENT_TEXTS.zoomOut })),
          'zoom.reset': () => user.click(viewer().getByRole('button', { name: DOCUMENT_TEXTS.resetZoom })),
          'document.download': async () => {
            const saved = app.download.mock.calls.length;
            await user.click(viewer().getByRole('button', { name: DOCUMENT_TEXTS.download }));
            expect(app.download).toHaveBeenCalledTimes(saved + 1);
            expect(app.download).toHaveBeenLastCalledWith(pdf, sampleDeed.fileName);
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('Documents tab', () => {
  afterEach(cleanup);

  it('bounds a typed page number to the page count and shows the page it went to', async () => {
    const { calls } = await openDocumentsTab();
    await calls.settle('loanDocuments', { value: [...sampleDocuments] });
    await user.click(await screen.findByRole('button', { name: /^Deed of Trust/ }));
    await calls.settle('loanDocumentPdf', { value: pdf });
    await waitFor(() => expect(renderer.document).not.toBeNull());
    act(() => renderer.document?.onLoadSuccess?.({ numPages: 5 }));
    const input = await viewer().findByRole('spinbutton', { name: DOCUMENT_TEXTS.pageNumber });
    await user.clear(input);
    await user.type(input, '9{Enter}');
    expect(await screen.findByTestId('pdf-page')).toHaveAttribute('data-page', '5');
    expect(viewer().getByRole('spinbutton', { name: DOCUMENT_TEXTS.pageNumber })).toHaveValue(5);
    // Leaving the field commits what was typed, bounded too.
    const field = viewer().getByRole('spinbutton', { name: DOCUMENT_TEXTS.pageNumber });
    await user.clear(field);
    await user.type(field, '0');
    await user.tab();
    await waitFor(() => expect(screen.getByTestId('pdf-page')).toHaveAttribute('data-page', '1'));
  });
});
