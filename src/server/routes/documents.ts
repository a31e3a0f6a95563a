// A loan's documents (SPEC sections 3 and 7): the metadata list, and one document by id or by
// hash (with its `type`) as base64 in JSON or, on `Accept: application/pdf`, as the bytes. Every
// read checks the content against the SHA-256 recorded with it; content that no longer matches is
// refused, never served. Tenancy as the loan details: a loan the organization holds no role on
// answers exactly like a missing one.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import {
  documentContentSchema,
  documentMetadataListSchema,
  isDocumentId,
  loanDocumentParamsSchema,
  loanDocumentQuerySchema,
  loanDocumentsParamsSchema,
  REPR_DIGEST_HEADER,
  type DocumentMetadata,
} from '../../contract/documents';
import { PATHS } from '../../contract/paths';
import { PDF_CONTENT_TYPE } from '../../domain/documents';
import { DOCUMENT_TEXTS } from '../../domain/asset-texts';
import type { DocumentKey, DocumentMetadataRow } from '../db/document-repository';
import { NotFoundError } from '../domain-errors';
import { ApiError, badRequest } from '../http-errors';
import { errorBody } from '../plugins/error-handler';
import { requireMembership } from '../plugins/access';
import { LOAN_NOT_FOUND } from '../../domain/loan';

export const DOCUMENT_NOT_FOUND = 'Document not found.';
export const DOCUMENT_TYPE_REQUIRED = 'querystring.type: is required with a hash (the kind of document)';
export const DOCUMENT_NOT_PDF = 'This document is not a PDF: ask for application/json.';
/** The document viewer tells this answer from other failures (no retry can help). */
export const DOCUMENT_INTEGRITY_FAILED = DOCUMENT_TEXTS.integrityWithheld;

/**
 * Content that fails its hash check answers 500. Not a 4xx: the request is sound and nothing the
 * caller changes can fix it; the registry's stored copy is damaged or was altered, a server-side
 * failure that monitoring must count as one. Unlike other 5xx answers its body says what happened
 * (the error handler's generic text would hide the one thing the caller needs to know).
 */
export const DOCUMENT_INTEGRITY_STATUS = 500;

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const NOT_VISIBLE = 'Answers 404 when the loan does not exist or the current organization (x-participant-id) holds no role on it.';

/** True when the Accept header prefers application/pdf over JSON (a higher quality, or the same and listed first). */
export function prefersPdf(accept: string | undefined): boolean {
  if (!accept) return false;
  let pdf = { quality: 0, position: Infinity };
  let json = { quality: 0, position: Infinity };
  accept.split(',').forEach((range, position) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q ? Number(q.slice(2)) || 0 : 1;
    if (type === PDF_CONTENT_TYPE && quality > pdf.quality) pdf = { quality, position };
    if ((type === 'application/json' || type === 'application/*' || type === '*/*') && quality > json.quality) json = { quality, position };
  });
  return pdf.quality > 0 && (pdf.quality > json.quality || (pdf.quality === json.quality && pdf.position < json.position));
}

/** `attachment` with an ASCII fallback name and the exact name in RFC 8187 form. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const toDocumentMetadata = (row: DocumentMetadataRow): DocumentMetadata => ({
  documentId: row.id,
  name: row.name,
  type: row.type as DocumentMetadata['type'],
  hash: row.hash,
  fileName: row.fileName,
  fileType: row.fileType,
  contentType: row.contentType,
  docType: row.docType,
  sizeBytes: row.sizeBytes,
  createdAt: row.createdAt,
});

export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const documents = app.repositories.documents;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    PATHS.loanDocumentsMetadataPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: "A loan's documents: metadata only, oldest first",
        description:
          `${NOT_VISIBLE} SPEC section 3 gives document metadata two shapes (documentId, name, type; and hash, fileName, ` +
          'fileType, contentType, docType): every item carries the fields of both, plus sizeBytes and createdAt, so it reads ' +
          'as either. Every document of the loan is listed, whatever its kind; the asset page shows the PDFs of DEED, ' +
          'ASSIGNMENT, RELEASE and ENOTE.',
        params: loanDocumentsParamsSchema,
        response: { 200: documentMetadataListSchema, ...errors },
      },
    },
    async (request) => {
      const membership = requireMembership(request);
      const rows = await documents.listDocumentMetadata(request.params.loanId.toLowerCase(), membership.participant.id);
      if (!rows) throw new NotFoundError(LOAN_NOT_FOUND);
      return rows.map(toDocumentMetadata);
    },
  );

  routes.get(
    PATHS.loanDocumentPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'One document of a loan, by id or by hash and type: base64 in JSON, or the PDF itself',
        description:
          `${NOT_VISIBLE} \`documentIdOrHash\` is the document id, or the SHA-256 of its content with \`type\` (the kind). ` +
          'JSON by default: `{ document, bytes }` with the metadata and the content in base64. With `Accept: application/pdf` ' +
          `the answer is the PDF bytes, with Content-Disposition (attachment, the file name) and the SHA-256 in \`Repr-Digest\` ` +
          '(RFC 9530: `sha-256=:<base64>:`). Every read hashes the stored content: content that no longer matches the SHA-256 ' +
          `recorded with it answers ${DOCUMENT_INTEGRITY_STATUS} with a message saying so and is never served (the request is ` +
          'sound; the stored copy is damaged, a server-side failure). A document that is not a PDF answers 406 to ' +
          '`Accept: application/pdf`.',
        params: loanDocumentParamsSchema,
        querystring: loanDocumentQuerySchema,
        produces: ['application/json', PDF_CONTENT_TYPE],
        response: {
          200: {
            description: 'The document: metadata and base64 content (JSON), or the PDF bytes',
            content: {
              'application/json': { schema: documentContentSchema },
              [PDF_CONTENT_TYPE]: { schema: z.string().meta({ format: 'binary', description: 'The PDF bytes' }) },
            },
          },
          ...errors,
          406: errorBodySchema.describe('The document is not a PDF and the client asked for application/pdf'),
          [DOCUMENT_INTEGRITY_STATUS]: errorBodySchema.describe(
            'The stored content no longer matches its SHA-256: the document is withheld, not served',
          ),
        },
      },
    },
    async (request, reply) => {
      const membership = requireMembership(request);
      const { loanId, documentIdOrHash } = request.params;
      const { type } = request.query;
      let key: DocumentKey;
      if (isDocumentId(documentIdOrHash)) key = { id: documentIdOrHash.toLowerCase(), type };
      else if (type) key = { hash: documentIdOrHash.toLowerCase(), type };
      else throw badRequest(DOCUMENT_TYPE_REQUIRED);

      const { loanVisible, document } = await documents.findDocument(loanId.toLowerCase(), membership.participant.id, key);
      if (!loanVisible) throw new NotFoundError(LOAN_NOT_FOUND);
      if (!document) throw new NotFoundError(DOCUMENT_NOT_FOUND);

      const digest = createHash('sha256').update(document.content).digest();
      if (digest.toString('hex') !== document.hash) {
        request.log.error(
          { loanId: loanId.toLowerCase(), documentId: document.id },
          'document content does not match its SHA-256: withheld',
        );
        return reply.code(DOCUMENT_INTEGRITY_STATUS).send(errorBody(DOCUMENT_INTEGRITY_STATUS, DOCUMENT_INTEGRITY_FAILED));
      }

      // JSON or the PDF by Accept: a cache between must not answer one with the other.
      reply.header('vary', 'Accept');
      if (prefersPdf(request.headers.accept)) {
        if (document.contentType.toLowerCase() !== PDF_CONTENT_TYPE) throw new ApiError(406, DOCUMENT_NOT_PDF);
        return (
          reply
            .type(PDF_CONTENT_TYPE)
            .header('content-disposition', contentDisposition(document.fileName))
            .header(REPR_DIGEST_HEADER, `sha-256=:${digest.toString('base64')}:`)
            .header('cache-control', 'private, no-store')
            // The schema documents the PDF as a string; Fastify sends a Buffer as it is, unserialized.
            .send(document.content as unknown as string)
        );
      }
      reply.header('cache-control', 'private, no-store');
      return { document: toDocumentMetadata(document), bytes: document.content.toString('base64') };
    },
  );
}
