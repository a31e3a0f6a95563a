// A loan's documents (SPEC sections 3 and 7): the metadata list and the read of one document by
// id, or by hash with its `type`, as base64 in JSON or as the PDF's bytes.
import { z } from 'zod';
import { DOCUMENT_KINDS, SHA256_HEX_PATTERN } from '../domain/documents';

export const documentKindSchema = z.enum(DOCUMENT_KINDS);

const sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('SHA-256 of the content, 64 lower-case hex digits');

/** SPEC section 3, first metadata shape. */
export const documentMetadataByIdSchema = z.object({
  documentId: z.uuid(),
  name: z.string(),
  type: documentKindSchema.describe(`Kind of document: ${DOCUMENT_KINDS.join(', ')}`),
});

/** SPEC section 3, second metadata shape. */
export const documentMetadataByHashSchema = z.object({
  hash: sha256Schema,
  fileName: z.string(),
  fileType: z.string().describe('File extension, e.g. pdf'),
  contentType: z.string().describe('Media type, e.g. application/pdf'),
  docType: z.string(),
});

/**
 * Every item carries both of SPEC's shapes at once (plus size and creation time), so a client
 * written for either reads it unchanged.
 */
export const documentMetadataSchema = documentMetadataByIdSchema
  .extend(documentMetadataByHashSchema.shape)
  .extend({
    sizeBytes: z.number().int().min(0),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .describe(
    "A document's metadata in both of SPEC's shapes at once: documentId, name, type; and hash, fileName, fileType, contentType, " +
      'docType; plus sizeBytes and createdAt.',
  );
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

/** GET v4 /loans/{loanId}/documents/metadata */
export const documentMetadataListSchema = z.array(documentMetadataSchema);

export const loanDocumentsParamsSchema = z.object({ loanId: z.uuid() });

export const DOCUMENT_ID_OR_HASH_MESSAGE = 'must be a document id (uuid) or a SHA-256 hash (64 hex digits)';

export const isDocumentId = (value: string): boolean => z.uuid().safeParse(value).success;

export const loanDocumentParamsSchema = z.object({
  loanId: z.uuid(),
  documentIdOrHash: z
    .string()
    .refine((value) => isDocumentId(value) || SHA256_HEX_PATTERN.test(value), { message: DOCUMENT_ID_OR_HASH_MESSAGE })
    .describe('The document id (uuid), or the SHA-256 of its content (64 hex digits) together with `type`'),
});

export const loanDocumentQuerySchema = z.object({
  type: documentKindSchema
    .optional()
    .describe('Kind of document. Required with a hash (the same content may be stored as more than one kind); with an id, must match it.'),
});
export type LoanDocumentQuery = z.infer<typeof loanDocumentQuerySchema>;

/** GET v4 /loans/{loanId}/documents/{documentIdOrHash} as JSON (the default). */
export const documentContentSchema = z.object({
  document: documentMetadataSchema,
  // A plain string on purpose: checking hundreds of kilobytes against a base64 pattern on every
  // serialization costs more than the read; the server verified the bytes against their hash.
  bytes: z.string().describe('The PDF, base64-encoded'),
});
export type DocumentContent = z.infer<typeof documentContentSchema>;

/** The response header that carries the SHA-256 of the PDF bytes (RFC 9530): `sha-256=:<base64 of the digest>:`. */
export const REPR_DIGEST_HEADER = 'repr-digest';
