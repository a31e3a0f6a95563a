import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  documentViewerMachine,
  selectDocuments,
  selectFile,
  selectPage,
  selectPageCount,
  selectSelectedDocument,
  selectZoom,
  type DocumentFile,
} from '../../machines/document-viewer';
import { HttpError } from '../../src/contract/http-error';
import { DOCUMENT_TEXTS } from '../../src/domain/asset-texts';
import type { DocumentMetadata } from '../../src/contract/documents';
import { boundedPage, DEFAULT_ZOOM, isViewableDocument, nextZoom, ZOOM_LEVELS } from '../../src/domain/documents';
import { sampleLoanId } from '../support/loan-fixtures';
import {
  sampleAssignment,
  sampleDeed,
  sampleDisclosure,
  sampleDocuments,
  sampleInstrument,
  sampleTextNote,
  viewableSampleDocuments,
} from '../support/document-fixtures';

const pdf = new Blob(['%PDF-1.7 sample'], { type: 'application/pdf' });
const integrityFailure = new HttpError(
  500,
  '{"statusCode":500,"error":"Internal Server Error","message":"The stored content of this document no longer matches its SHA-256 hash"}',
);

interface Options {
  list?: (loanId: string, signal: AbortSignal) => Promise<DocumentMetadata[]>;
  file?: (documentId: string, signal: AbortSignal) => Promise<Blob>;
}

function start(options: Options = {}) {
  const listCalls: string[] = [];
  const fileCalls: { loanId: string; documentId: string }[] = [];
  const signals: AbortSignal[] = [];
  const saved: DocumentFile[] = [];
  const logic = documentViewerMachine.provide({
    actors: {
      loadDocuments: fromPromise(({ input, signal }) => {
        listCalls.push(input.loanId);
        return (options.list ?? (async () => [...sampleDocuments]))(input.loanId, signal);
      }),
      loadDocument: fromPromise(({ input, signal }) => {
        fileCalls.push(input);
        signals.push(signal);
        return (options.file ?? (async () => pdf))(input.documentId, signal);
      }),
    },
    actions: { saveFile: (_, file) => void saved.push(file) },
  });
  const actor = createActor(logic, { input: { loanId: sampleLoanId } }).start();
  return { actor, listCalls, fileCalls, signals, saved };
}

/** A viewer with the deed open: fetched, then read by the renderer as `pages` pages. */
async function displayed(pages = 3, options: Options = {}) {
  const started = start(options);
  await waitFor(started.actor, (s) => s.matches('ready'));
  started.actor.send({ type: 'document.choose', documentId: sampleDeed.documentId });
  await waitFor(started.actor, (s) => s.matches({ ready: 'rendering' }));
  started.actor.send({ type: 'pdf.loaded', pageCount: pages });
  return started;
}

describe('document viewer rules', () => {
  it('lists only PDFs of deeds, assignments, releases and the eNote', () => {
    expect(sampleDocuments.filter(isViewableDocument)).toEqual(viewableSampleDocuments);
    expect([sampleDisclosure, sampleInstrument, sampleTextNote].some(isViewableDocument)).toBe(false);
    expect(isViewableDocument({ type: 'DEED', contentType: 'APPLICATION/PDF' })).toBe(true);
  });

  it('bounds a typed page number from 1 to the page count', () => {
    expect(boundedPage(2, 5)).toBe(2);
    expect(boundedPage(0, 5)).toBe(1);
    expect(boundedPage(-3, 5)).toBe(1);
    expect(boundedPage(9, 5)).toBe(5);
    expect(boundedPage(2.7, 5)).toBe(2);
    expect(boundedPage(Number.NaN, 5)).toBe(1);
  });

  it('zooms by steps, and stays at either end', () => {
    expect(nextZoom(DEFAULT_ZOOM, 1)).toBe(1.25);
    expect(nextZoom(DEFAULT_ZOOM, -1)).toBe(0.75);
    expect(nextZoom(ZOOM_LEVELS[0], -1)).toBe(ZOOM_LEVELS[0]);
    expect(nextZoom(ZOOM_LEVELS[ZOOM_LEVELS.length - 1] as number, 1)).toBe(2);
  });
});

describe('document viewer machine', () => {
  it('loads the list, keeps the viewable documents and waits for a choice', async () => {
    const { actor, listCalls, fileCalls } = start();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches({ ready: 'choosing' }));
    expect(listCalls).toEqual([sampleLoanId]);
    expect(selectDocuments(snapshot)).toEqual(viewableSampleDocuments);
    expect(selectSelectedDocument(snapshot)).toBeNull();
    expect(fileCalls).toEqual([]);
  });

  it('says when the loan has no document to list', async () => {
    const { actor } = start({ list: async () => [sampleDisclosure, sampleInstrument, sampleTextNote] });
    await waitFor(actor, (s) => s.matches('empty'));
    const none = start({ list: async () => [] });
    await waitFor(none.actor, (s) => s.matches('empty'));
  });

  it('fails the list and loads it again on retry', async () => {
    let attempts = 0;
    const { actor, listCalls } = start({
      list: async () => {
        attempts += 1;
        if (attempts === 1) throw new HttpError(500, 'Internal Server Error');
        return [sampleDeed];
      },
    });
    await waitFor(actor, (s) => s.matches('listFailed'));
    actor.send({ type: 'list.retry' });
    expect(selectDocuments(await waitFor(actor, (s) => s.matches('ready')))).toEqual([sampleDeed]);
    expect(listCalls).toHaveLength(2);
  });

  it('fetches the chosen document, then shows its first page once the renderer has read it', async () => {
    const { actor, fileCalls } = await displayed(4);
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ ready: 'displayed' })).toBe(true);
    expect(fileCalls).toEqual([{ loanId: sampleLoanId, documentId: sampleDeed.documentId }]);
    expect(selectSelectedDocument(snapshot)?.hash).toBe(sampleDeed.hash);
    expect(selectFile(snapshot)).toBe(pdf);
    expect([selectPage(snapshot), selectPageCount(snapshot), selectZoom(snapshot)]).toEqual([1, 4, DEFAULT_ZOOM]);
  });

  it('pages forward and back within the document, and bounds a typed page', async () => {
    const { actor } = await displayed(3);
    expect(actor.getSnapshot().can({ type: 'page.previous' })).toBe(false);
    actor.send({ type: 'page.previous' });
    expect(selectPage(actor.getSnapshot())).toBe(1);
    actor.send({ type: 'page.next' });
    actor.send({ type: 'page.next' });
    expect(selectPage(actor.getSnapshot())).toBe(3);
    expect(actor.getSnapshot().can({ type: 'page.next' })).toBe(false);
    actor.send({ type: 'page.next' });
    expect(selectPage(actor.getSnapshot())).toBe(3);
    actor.send({ type: 'page.previous' });
    expect(selectPage(actor.getSnapshot())).toBe(2);
    actor.send({ type: 'page.go', page: 99 });
    expect(selectPage(actor.getSnapshot())).toBe(3);
    actor.send({ type: 'page.go', page: 0 });
    expect(selectPage(actor.getSnapshot())).toBe(1);
  });

  it('zooms in and out by steps up to the ends, and resets', async () => {
    const { actor } = await displayed();
    for (let i = 0; i < 10; i++) actor.send({ type: 'zoom.in' });
    expect(selectZoom(actor.getSnapshot())).toBe(2);
    expect(actor.getSnapshot().can({ type: 'zoom.in' })).toBe(false);
    for (let i = 0; i < 10; i++) actor.send({ type: 'zoom.out' });
    expect(selectZoom(actor.getSnapshot())).toBe(0.5);
    expect(actor.getSnapshot().can({ type: 'zoom.out' })).toBe(false);
    actor.send({ type: 'zoom.reset' });
    expect(selectZoom(actor.getSnapshot())).toBe(DEFAULT_ZOOM);
  });

  it('downloads the open document under its file name', async () => {
    const { actor, saved } = await displayed();
    actor.send({ type: 'document.download' });
    expect(saved).toEqual([{ file: pdf, fileName: sampleDeed.fileName }]);
  });

  it('cannot display what the server refused: Unable to load PDF, then a retry fetches it again', async () => {
    const fetched = vi.fn<(documentId: string) => Promise<Blob>>().mockRejectedValueOnce(integrityFailure).mockResolvedValue(pdf);
    const { actor, fileCalls } = start({ file: (documentId) => fetched(documentId) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'document.choose', documentId: sampleDeed.documentId });
    await waitFor(actor, (s) => s.matches({ ready: 'failed' }));
    expect(actor.getSnapshot().can({ type: 'document.download' })).toBe(false);
    actor.send({ type: 'document.retry' });
    await waitFor(actor, (s) => s.matches({ ready: 'rendering' }));
    expect(fileCalls).toHaveLength(2);
  });

  it('says a document the server withholds (its content failed the hash check) cannot be shown, and offers no retry', async () => {
    const withheld = new HttpError(
      500,
      JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: DOCUMENT_TEXTS.integrityWithheld }),
    );
    const { actor, fileCalls } = start({ file: async () => Promise.reject(withheld) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'document.choose', documentId: sampleDeed.documentId });
    await waitFor(actor, (s) => s.matches({ ready: 'withheld' }));
    expect(actor.getSnapshot().can({ type: 'document.retry' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'document.download' })).toBe(false);
    // Another document may still be chosen.
    actor.send({ type: 'document.choose', documentId: sampleAssignment.documentId });
    expect(actor.getSnapshot().matches({ ready: 'loadingDocument' })).toBe(true);
    expect(fileCalls).toHaveLength(2);
  });

  it('fails when the renderer cannot read the bytes, or a page', async () => {
    const unreadable = start();
    await waitFor(unreadable.actor, (s) => s.matches('ready'));
    unreadable.actor.send({ type: 'document.choose', documentId: sampleDeed.documentId });
    await waitFor(unreadable.actor, (s) => s.matches({ ready: 'rendering' }));
    unreadable.actor.send({ type: 'pdf.failed' });
    expect(unreadable.actor.getSnapshot().matches({ ready: 'failed' })).toBe(true);

    const { actor } = await displayed();
    actor.send({ type: 'pdf.failed' });
    expect(actor.getSnapshot().matches({ ready: 'failed' })).toBe(true);
  });

  it('opens another document on the first page at the same zoom; choosing the open one, or one not listed, does nothing', async () => {
    const { actor, fileCalls } = await displayed(3);
    actor.send({ type: 'page.next' });
    actor.send({ type: 'zoom.in' });
    actor.send({ type: 'document.choose', documentId: sampleDeed.documentId });
    actor.send({ type: 'document.choose', documentId: sampleDisclosure.documentId });
    expect(actor.getSnapshot().matches({ ready: 'displayed' })).toBe(true);
    expect(fileCalls).toHaveLength(1);
    actor.send({ type: 'document.choose', documentId: sampleAssignment.documentId });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ ready: 'loadingDocument' })).toBe(true);
    expect(selectSelectedDocument(snapshot)?.documentId).toBe(sampleAssignment.documentId);
    expect([selectFile(snapshot), selectPage(snapshot), selectZoom(snapshot)]).toEqual([null, 1, 1.25]);
  });

  it('aborts a fetch when another document is chosen, or the tab closes', async () => {
    const { actor, signals } = start({ file: () => new Promise<Blob>(() => undefined) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'document.choose', documentId: sampleDeed.documentId });
    actor.send({ type: 'document.choose', documentId: sampleAssignment.documentId });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    actor.stop();
    expect(signals[1]?.aborted).toBe(true);
  });
});
