// The PDF renderer of the Documents tab: react-pdf (pdf.js), in a chunk of its own that only the
// Documents tab loads (asset-documents-panel.tsx imports it dynamically), with pdf.js's worker as
// a separate asset. It reports to the document-viewer machine whether it could read the bytes and
// draws the page and zoom the machine holds.
import { Document, Page, pdfjs } from 'react-pdf';
import 'react-pdf/dist/Page/AnnotationLayer.css';
import 'react-pdf/dist/Page/TextLayer.css';
import { DOCUMENT_TEXTS } from '../../../domain/asset-texts';

// Set in the module that renders <Document> (react-pdf's advice): Vite emits the worker as an asset.
pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();

// Fixed, so <Document> does not reload: pdf.js may not compile fonts with eval (the CSP forbids it).
const OPTIONS = { isEvalSupported: false };

export interface PdfDocumentViewProps {
  readonly file: Blob;
  /** 0 until the document is read: nothing is drawn yet. */
  readonly pageCount: number;
  readonly page: number;
  readonly zoom: number;
  readonly onLoaded: (pageCount: number) => void;
  readonly onFailed: () => void;
}

export function PdfDocumentView({ file, pageCount, page, zoom, onLoaded, onFailed }: PdfDocumentViewProps) {
  return (
    <Document
      file={file}
      options={OPTIONS}
      onLoadSuccess={(pdf) => onLoaded(pdf.numPages)}
      onLoadError={onFailed}
      onSourceError={onFailed}
      // The panel shows loading and failure itself, from the machine's state.
      loading={null}
      error={null}
      noData={null}
      // Centred while the page fits; wider (a phone, a zoom), it starts at the left edge so that
      // every part of it can be scrolled to (plain centring would push its left part out of reach).
      className="flex justify-center-safe"
    >
      {pageCount > 0 && (
        <div role="group" aria-label={DOCUMENT_TEXTS.pageImage(page, pageCount)} className="shadow-md">
          <Page pageNumber={page} scale={zoom} onRenderError={onFailed} loading={null} error={null} />
        </div>
      )}
    </Document>
  );
}
