// The pure parts of the bench's document scenario: the 200 KB PDF it inserts, and the requests
// it times (the viewer's Accept: application/pdf, and base64 JSON).
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { BENCH_DOCUMENT_BYTES, documentScenarios, makeSizedPdf, type BenchDocument } from '../../scripts/bench-documents';
import { PATHS } from '../../src/contract/paths';

describe('bench document', () => {
  it('is a readable PDF of 200 KB, the same bytes every time', async () => {
    const pdf = await makeSizedPdf(BENCH_DOCUMENT_BYTES);
    expect(Math.abs(pdf.length - BENCH_DOCUMENT_BYTES)).toBeLessThan(1024);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(2);
    expect((await makeSizedPdf(BENCH_DOCUMENT_BYTES)).equals(pdf)).toBe(true);
  });

  it('is read as the viewer reads it, and as base64 JSON, for its organization', () => {
    const document: BenchDocument = {
      participantId: '00000000-0000-4000-8000-000000000001',
      email: 'admin@registry.test',
      loanId: '00000000-0000-4000-8000-0000000000aa',
      documentId: '00000000-0000-4000-8000-0000000000dd',
      sizeBytes: BENCH_DOCUMENT_BYTES,
      inserted: true,
    };
    const [pdf, json] = documentScenarios('http://127.0.0.1:1', 'registry_session=x', document).map((scenario) => scenario.groups[0]?.[0]);
    for (const request of [pdf, json]) {
      expect(request?.url).toBe(`http://127.0.0.1:1${PATHS.loanDocument(document.loanId, document.documentId)}`);
      expect(request?.headers).toMatchObject({ cookie: 'registry_session=x', 'x-participant-id': document.participantId });
      expect(request?.expectStatus).toBe(200);
    }
    expect(pdf?.headers.accept).toBe('application/pdf');
    expect(json?.headers.accept).toBe('application/json');
  });
});
