// The document scenario of `npm run bench`: reading one 200 KB PDF of a loan the
// largest organization holds, as the asset page's viewer does (Accept: application/pdf) and as
// base64 in JSON. The bench inserts that document itself, once per data folder (a kept folder
// finds it again by name), since the demo seed's PDFs are a few kilobytes.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState, rgb, StandardFonts } from 'pdf-lib';
import { PATHS } from '../src/contract/paths';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import type { HttpScenarioSpec } from './bench-load';
import { loanBenchData } from './bench-loans';

export const BENCH_DOCUMENT_BYTES = 200 * 1024;
export const BENCH_DOCUMENT_NAME = 'Recorded Deed of Trust (scan, 200 KB)';
export const DOCUMENT_READ_SCENARIO = 'document read (200 KB PDF)';
export const DOCUMENT_READ_JSON_SCENARIO = 'document read (200 KB, base64 JSON)';

export interface BenchDocument {
  readonly participantId: string;
  /** A member who signs in for the scenario. */
  readonly email: string;
  readonly loanId: string;
  readonly documentId: string;
  readonly sizeBytes: number;
  /** False when a kept data folder already held it. */
  readonly inserted: boolean;
}

/**
 * A PDF of about `target` bytes: a title page and a scanned page, a grayscale raster of light
 * noise stored uncompressed (noise would not compress anyway), sized so the file hits the target.
 */
export async function makeSizedPdf(target: number): Promise<Buffer> {
  const build = async (pixels: number): Promise<Buffer> => {
    const pdf = await PDFDocument.create();
    const fixed = new Date(Date.UTC(2026, 0, 15));
    pdf.setTitle(BENCH_DOCUMENT_NAME);
    pdf.setCreationDate(fixed);
    pdf.setModificationDate(fixed);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const first = pdf.addPage([612, 792]);
    first.drawText(BENCH_DOCUMENT_NAME, { x: 72, y: 700, size: 20, font, color: rgb(0.1, 0.2, 0.4) });
    first.drawText('Benchmark document: a title page and one scanned page.', { x: 72, y: 670, size: 11, font });
    const width = 400;
    const height = Math.max(1, Math.floor(pixels / width));
    const raster = new Uint8Array(width * height);
    let state = 0x1234_5678;
    for (let i = 0; i < raster.length; i++) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      raster[i] = 200 + (state >>> 26);
    }
    const image = pdf.context.register(
      pdf.context.stream(raster, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
      }),
    );
    const scan = pdf.addPage([612, 792]);
    const name = scan.node.newXObject('Scan', image);
    const drawnHeight = Math.min(648, (468 / width) * height);
    scan.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(468, 0, 0, drawnHeight, 72, 720 - drawnHeight),
      drawObject(name),
      popGraphicsState(),
    );
    return Buffer.from(await pdf.save({ useObjectStreams: false }));
  };
  // The first pass measures what the file adds around the raster; the second fills the rest.
  const probe = await build(target);
  const overhead = probe.length - Math.floor(target / 400) * 400;
  return build(target - overhead);
}

/** The 200 KB document on a loan of the largest organization: found again when present, else inserted. */
export async function prepareBenchDocument(connectionString: string): Promise<BenchDocument | undefined> {
  const data = await loanBenchData(connectionString);
  const loanId = data?.loanIds[0];
  if (!data || !loanId) return undefined;
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const found = await client.query<{ id: string; loan_id: string; size_bytes: number }>(
      `SELECT d.id, d.loan_id, d.size_bytes FROM documents d
       WHERE d.name = $1 AND EXISTS (SELECT 1 FROM loan_parties lp WHERE lp.loan_id = d.loan_id AND lp.participant_id = $2)
       ORDER BY d.id LIMIT 1`,
      [BENCH_DOCUMENT_NAME, data.participantId],
    );
    const existing = found.rows[0];
    if (existing) {
      const base = { participantId: data.participantId, email: data.email, loanId: existing.loan_id };
      return { ...base, documentId: existing.id, sizeBytes: existing.size_bytes, inserted: false };
    }
    const content = await makeSizedPdf(BENCH_DOCUMENT_BYTES);
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO documents (loan_id, name, type, hash, file_name, file_type, content_type, doc_type, size_bytes, content)
       VALUES ($1, $2, 'DEED', $3, 'recorded-deed-of-trust-scan.pdf', 'pdf', 'application/pdf', 'DEED', $4, $5) RETURNING id`,
      [loanId, BENCH_DOCUMENT_NAME, createHash('sha256').update(content).digest('hex'), content.length, content],
    );
    const documentId = inserted.rows[0]?.id as string;
    return { participantId: data.participantId, email: data.email, loanId, documentId, sizeBytes: content.length, inserted: true };
  } finally {
    await client.end();
  }
}

/** The PDF as the viewer asks for it, and the same document as base64 in JSON. */
export function documentScenarios(baseUrl: string, cookie: string, document: BenchDocument): HttpScenarioSpec[] {
  const url = baseUrl + PATHS.loanDocument(document.loanId, document.documentId);
  const headers = { cookie, [PARTICIPANT_HEADER]: document.participantId };
  return [
    {
      kind: 'http',
      name: DOCUMENT_READ_SCENARIO,
      groups: [[{ method: 'GET', url, headers: { ...headers, accept: 'application/pdf' }, expectStatus: 200 }]],
    },
    {
      kind: 'http',
      name: DOCUMENT_READ_JSON_SCENARIO,
      groups: [[{ method: 'GET', url, headers: { ...headers, accept: 'application/json' }, expectStatus: 200 }]],
    },
  ];
}
