import { createHash, randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common';
import {
  DOCUMENT_ID_OR_HASH_MESSAGE,
  documentContentSchema,
  documentMetadataByHashSchema,
  documentMetadataByIdSchema,
  documentMetadataListSchema,
  type DocumentMetadata,
} from '../../src/contract/documents';
import { PATHS } from '../../src/contract/paths';
import { TEXTS } from '../../src/domain/texts';
import { DOCUMENT_METADATA_SQL, findDocument } from '../../src/server/db/document-repository';
import { documents } from '../../src/server/db/schema';
import { DOCUMENT_INTEGRITY_FAILED, DOCUMENT_NOT_FOUND, DOCUMENT_TYPE_REQUIRED, prefersPdf } from '../../src/server/routes/documents';
import { makeDamagedPdf, makeDocumentPdf, type DocumentKind, type DocumentSubject } from '../../src/server/seed/documents';
import { insertLoan } from './support/loan-rows';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
let member: Caller;
const ids = {} as Record<'home' | 'second' | 'foreign', string>;
const loanIds = {} as Record<'shared' | 'other' | 'foreign' | 'empty', string>;
/** Documents by name, with the bytes stored for them. */
const stored = {} as Record<
  'deed' | 'assignment' | 'disclosure' | 'tampered' | 'notPdf' | 'otherDeed' | 'foreignDeed',
  { id: string; hash: string; type: DocumentKind; content: Buffer; fileName: string }
>;

const LOAN_NOT_FOUND_BODY = { statusCode: 404, error: 'Not Found', message: 'Loan not found.' };
const DOCUMENT_NOT_FOUND_BODY = { statusCode: 404, error: 'Not Found', message: DOCUMENT_NOT_FOUND };
const INTEGRITY_BODY = { statusCode: 500, error: 'Internal Server Error', message: DOCUMENT_INTEGRITY_FAILED };
const PDF = { accept: 'application/pdf' };

const subject: DocumentSubject = {
  uli: '5493001KJTIIGC8Y1R12TESTDOCS00000042',
  loanNumber: 'LN-42',
  borrower: 'Ana Núñez',
  property: '44 Oak Avenue, Chicago, IL 60601',
  amount: '$250,000',
  noteDate: '2025-01-20',
  party: 'Home Bank LLC',
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function insertDocument(
  loanId: string,
  values: { name: string; type: DocumentKind; content: Buffer; hash?: string; contentType?: string; createdAt: string },
) {
  const fileName = `${values.name.toLowerCase().replaceAll(' ', '-')}.pdf`;
  const hash = values.hash ?? sha256(values.content);
  const [row] = await server.db
    .insert(documents)
    .values({
      loanId,
      name: values.name,
      type: values.type,
      hash,
      fileName,
      fileType: values.contentType ? 'txt' : 'pdf',
      contentType: values.contentType ?? 'application/pdf',
      docType: values.type,
      sizeBytes: values.content.length,
      content: values.content,
      createdAt: new Date(values.createdAt),
    })
    .returning({ id: documents.id });
  if (!row) throw new Error('document not inserted');
  return { id: row.id, hash, type: values.type, content: values.content, fileName };
}

beforeAll(async () => {
  const db = server.db;
  const home = await insertParticipant(db, { name: 'Home Bank' });
  const second = await insertParticipant(db, { name: 'Second Trust' });
  const foreign = await insertParticipant(db, { name: 'Foreign Credit' });
  Object.assign(ids, { home: home.id, second: second.id, foreign: foreign.id });
  await insertUser(db, {
    email: 'member@registry.test',
    memberships: [{ participantId: home.id, isDefault: true }, { participantId: second.id }],
  });
  member = await server.signIn('member@registry.test');

  const shared = await insertLoan(db, {
    parties: [
      { role: 'OWNER', participantId: home.id },
      { role: 'SERVICER', participantId: foreign.id },
    ],
  });
  const other = await insertLoan(db, { parties: [{ role: 'SERVICER', participantId: home.id }] });
  const foreignLoan = await insertLoan(db, { parties: [{ role: 'OWNER', participantId: foreign.id }] });
  const empty = await insertLoan(db, { parties: [{ role: 'SECURED_PARTY', participantId: home.id }] });
  Object.assign(loanIds, { shared: shared.id, other: other.id, foreign: foreignLoan.id, empty: empty.id });

  const deed = (await makeDocumentPdf('DEED', subject)).bytes;
  const assignment = (await makeDocumentPdf('ASSIGNMENT', subject)).bytes;
  const disclosure = (await makeDocumentPdf('OTHER', subject)).bytes;
  const tampered = await makeDamagedPdf('RELEASE', subject, 'tampered');
  Object.assign(stored, {
    // Inserted out of order: the list is by creation time.
    assignment: await insertDocument(shared.id, {
      name: 'Assignment of Mortgage',
      type: 'ASSIGNMENT',
      content: assignment,
      createdAt: '2025-02-02T10:00:00Z',
    }),
    deed: await insertDocument(shared.id, { name: 'Deed of Trust', type: 'DEED', content: deed, createdAt: '2025-02-01T10:00:00Z' }),
    disclosure: await insertDocument(shared.id, {
      name: 'Closing Disclosure',
      type: 'OTHER',
      content: disclosure,
      createdAt: '2025-02-03T10:00:00Z',
    }),
    tampered: await insertDocument(shared.id, {
      name: 'Release of Lien',
      type: 'RELEASE',
      content: tampered.bytes,
      hash: tampered.hash,
      createdAt: '2025-02-04T10:00:00Z',
    }),
    notPdf: await insertDocument(shared.id, {
      name: 'Notes',
      type: 'OTHER',
      content: Buffer.from('plain text notes'),
      contentType: 'text/plain',
      createdAt: '2025-02-05T10:00:00Z',
    }),
    otherDeed: await insertDocument(other.id, { name: 'Deed of Trust', type: 'DEED', content: deed, createdAt: '2025-03-01T10:00:00Z' }),
    foreignDeed: await insertDocument(foreignLoan.id, {
      name: 'Deed of Trust',
      type: 'DEED',
      content: deed,
      createdAt: '2025-03-01T10:00:00Z',
    }),
  });
});

/** The member acting for Home, its default organization. */
const home = () => member.as(ids.home);

describe('GET v4 /loans/{loanId}/documents/metadata', () => {
  it("lists the loan's documents oldest first, every item in both of SPEC's metadata shapes", async () => {
    const response = await home().get(PATHS.loanDocumentsMetadata(loanIds.shared));
    expect(response.statusCode).toBe(200);
    const items = documentMetadataListSchema.parse(response.json());
    expect(items.map((item) => [item.name, item.type])).toEqual([
      ['Deed of Trust', 'DEED'],
      ['Assignment of Mortgage', 'ASSIGNMENT'],
      ['Closing Disclosure', 'OTHER'],
      ['Release of Lien', 'RELEASE'],
      ['Notes', 'OTHER'],
    ]);
    expect(items[0]).toEqual({
      documentId: stored.deed.id,
      name: 'Deed of Trust',
      type: 'DEED',
      hash: stored.deed.hash,
      fileName: 'deed-of-trust.pdf',
      fileType: 'pdf',
      contentType: 'application/pdf',
      docType: 'DEED',
      sizeBytes: stored.deed.content.length,
      createdAt: '2025-02-01T10:00:00.000Z',
    });
    // Either shape, read strictly, takes the item as it is.
    for (const item of items) {
      expect(documentMetadataByIdSchema.parse(item)).toEqual({ documentId: item.documentId, name: item.name, type: item.type });
      expect(documentMetadataByHashSchema.parse(item)).toEqual({
        hash: item.hash,
        fileName: item.fileName,
        fileType: item.fileType,
        contentType: item.contentType,
        docType: item.docType,
      });
    }
    // No content in the list.
    expect(response.body).not.toContain(stored.deed.content.toString('base64').slice(0, 40));
  });

  it('gives an empty list for a visible loan without documents', async () => {
    const response = await home().get(PATHS.loanDocumentsMetadata(loanIds.empty));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('never reads the content column', async () => {
    // EXPLAIN SERIALIZE (PostgreSQL 17+) counts the blocks read to send the rows: the documents'
    // bytes are stored out of line (TOAST), so only a query that returns them reads those blocks.
    const serialization = async (text: string) => {
      const sql = text.replaceAll('$1', `'${loanIds.shared}'::uuid`).replaceAll('$2', `'${ids.home}'::uuid`);
      const result = await server.database.pool.query<{ 'QUERY PLAN': [{ Serialization: Record<string, number> }] }>(
        `EXPLAIN (ANALYZE, BUFFERS, SERIALIZE, FORMAT JSON) ${sql}`,
      );
      const section = result.rows[0]?.['QUERY PLAN'][0].Serialization ?? {};
      return {
        blocks: (section['Shared Hit Blocks'] ?? 0) + (section['Shared Read Blocks'] ?? 0),
        kilobytes: section['Output Volume'] ?? 0,
      };
    };
    const metadata = await serialization(DOCUMENT_METADATA_SQL);
    const contents = await serialization('select content from documents where loan_id = $1');
    expect(contents.blocks).toBeGreaterThan(0);
    expect(metadata.blocks).toBe(0);
    expect(metadata.kilobytes).toBeLessThan(5);
  });
});

describe('GET v4 /loans/{loanId}/documents/{documentIdOrHash}', () => {
  const metadataOf = async (id: string): Promise<DocumentMetadata> => {
    const list = documentMetadataListSchema.parse((await home().get(PATHS.loanDocumentsMetadata(loanIds.shared))).json());
    return list.find((item) => item.documentId === id) as DocumentMetadata;
  };

  it('gives the document by id as JSON: its metadata and the PDF in base64', async () => {
    const response = await home().get(PATHS.loanDocument(loanIds.shared, stored.deed.id));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = documentContentSchema.parse(response.json());
    expect(body.document).toEqual(await metadataOf(stored.deed.id));
    const bytes = Buffer.from(body.bytes, 'base64');
    expect(bytes.equals(stored.deed.content)).toBe(true);
    expect(sha256(bytes)).toBe(body.document.hash);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(2);
  });

  it('gives the bytes themselves on Accept: application/pdf, with the file name and the SHA-256', async () => {
    const response = await home().get(PATHS.loanDocument(loanIds.shared, stored.deed.id), { headers: PDF });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="deed-of-trust.pdf"; filename*=UTF-8''deed-of-trust.pdf`);
    expect(response.headers['repr-digest']).toBe(`sha-256=:${Buffer.from(stored.deed.hash, 'hex').toString('base64')}:`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers.vary).toMatch(/\bAccept\b/);
    expect(response.rawPayload.equals(stored.deed.content)).toBe(true);
  });

  it('reads by hash with the type, in any case of hex digits, as JSON or PDF', async () => {
    const path = `${PATHS.loanDocument(loanIds.shared, stored.assignment.hash.toUpperCase())}?type=ASSIGNMENT`;
    const json = await home().get(path);
    expect(json.statusCode).toBe(200);
    const body = documentContentSchema.parse(json.json());
    expect(body.document.documentId).toBe(stored.assignment.id);
    expect(Buffer.from(body.bytes, 'base64').equals(stored.assignment.content)).toBe(true);
    const pdf = await home().get(path, { headers: PDF });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.equals(stored.assignment.content)).toBe(true);
  });

  it('reads by id with a type that matches, and not with one that does not', async () => {
    const matching = await home().get(`${PATHS.loanDocument(loanIds.shared, stored.deed.id)}?type=DEED`);
    expect(matching.statusCode).toBe(200);
    const other = await home().get(`${PATHS.loanDocument(loanIds.shared, stored.deed.id)}?type=RELEASE`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(DOCUMENT_NOT_FOUND_BODY);
  });

  it('prefers JSON unless the client ranks application/pdf first', async () => {
    expect(prefersPdf(undefined)).toBe(false);
    expect(prefersPdf('*/*')).toBe(false);
    expect(prefersPdf('application/json, application/pdf')).toBe(false);
    expect(prefersPdf('application/pdf, application/json')).toBe(true);
    expect(prefersPdf('application/json;q=0.5, application/pdf')).toBe(true);
    expect(prefersPdf('application/pdf;q=0')).toBe(false);
    const browserish = await home().get(PATHS.loanDocument(loanIds.shared, stored.deed.id), {
      headers: { accept: 'application/pdf;q=0.9, application/json' },
    });
    expect(browserish.headers['content-type']).toMatch(/^application\/json/);
  });

  describe('a document whose content no longer matches its hash', () => {
    const reads = [
      ['by id, JSON', () => PATHS.loanDocument(loanIds.shared, stored.tampered.id), {}],
      ['by id, PDF', () => PATHS.loanDocument(loanIds.shared, stored.tampered.id), PDF],
      ['by hash, JSON', () => `${PATHS.loanDocument(loanIds.shared, stored.tampered.hash)}?type=RELEASE`, {}],
      ['by hash, PDF', () => `${PATHS.loanDocument(loanIds.shared, stored.tampered.hash)}?type=RELEASE`, PDF],
    ] as const;

    it.each(reads)('is refused %s with 500 and a message that says so, its bytes never sent', async (_name, pathOf, headers) => {
      const response = await home().get(pathOf(), { headers });
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual(INTEGRITY_BODY);
      expect(response.rawPayload.includes(stored.tampered.content.subarray(0, 64))).toBe(false);
      expect(response.body).not.toContain(stored.tampered.content.toString('base64').slice(0, 64));
    });

    it('is still listed, with the hash recorded for it', async () => {
      expect((await metadataOf(stored.tampered.id)).hash).toBe(stored.tampered.hash);
      expect(sha256(stored.tampered.content)).not.toBe(stored.tampered.hash);
    });
  });

  it('answers 406 to Accept: application/pdf for a document that is not a PDF, and gives it as JSON', async () => {
    const path = PATHS.loanDocument(loanIds.shared, stored.notPdf.id);
    const pdf = await home().get(path, { headers: PDF });
    expect(pdf.statusCode).toBe(406);
    expect(errorBodySchema.parse(pdf.json()).message).toMatch(/not a PDF/);
    const json = await home().get(path);
    expect(Buffer.from(documentContentSchema.parse(json.json()).bytes, 'base64').toString()).toBe('plain text notes');
  });
});

describe('the read of one document (a binary COPY, its values written into the statement)', () => {
  it('reads the bytes exactly as stored, and the metadata with them', async () => {
    const { loanVisible, document } = await findDocument(server.db, loanIds.shared, ids.home, { id: stored.deed.id });
    expect(loanVisible).toBe(true);
    expect(document?.content.equals(stored.deed.content)).toBe(true);
    expect(document).toMatchObject({ id: stored.deed.id, name: 'Deed of Trust', type: 'DEED', sizeBytes: stored.deed.content.length });
    expect(await findDocument(server.db, loanIds.foreign, ids.home, { id: stored.foreignDeed.id })).toEqual({
      loanVisible: false,
      document: null,
    });
  });

  it('refuses to write anything but a uuid, a SHA-256 or a kind into the statement', async () => {
    const injected = "' or true --";
    await expect(findDocument(server.db, `${loanIds.shared}${injected}`, ids.home, { id: stored.deed.id })).rejects.toThrow(/Refusing/);
    await expect(findDocument(server.db, loanIds.shared, ids.home, { id: stored.deed.id, type: `DEED${injected}` })).rejects.toThrow(
      /Refusing/,
    );
    await expect(
      findDocument(server.db, loanIds.shared, ids.home, { hash: `${stored.deed.hash}${injected}`, type: 'DEED' }),
    ).rejects.toThrow(/Refusing/);
    // The pool is whole afterwards.
    expect((await findDocument(server.db, loanIds.shared, ids.home, { id: stored.deed.id })).document?.id).toBe(stored.deed.id);
  });
});

describe('refusals of a document read', () => {
  it('answers 404 Document not found for a document of another loan, even one the organization sees', async () => {
    for (const document of [stored.otherDeed, stored.foreignDeed]) {
      const byId = await home().get(PATHS.loanDocument(loanIds.shared, document.id));
      expect(byId.statusCode).toBe(404);
      expect(byId.json()).toEqual(DOCUMENT_NOT_FOUND_BODY);
    }
    const missing = await home().get(PATHS.loanDocument(loanIds.shared, randomUUID()));
    expect(missing.json()).toEqual(DOCUMENT_NOT_FOUND_BODY);
    // The deed's content is on this loan too, but not as a release.
    const wrongType = await home().get(`${PATHS.loanDocument(loanIds.shared, stored.deed.hash)}?type=RELEASE`);
    expect(wrongType.json()).toEqual(DOCUMENT_NOT_FOUND_BODY);
    const unknownHash = await home().get(`${PATHS.loanDocument(loanIds.shared, 'a'.repeat(64))}?type=DEED`);
    expect(unknownHash.json()).toEqual(DOCUMENT_NOT_FOUND_BODY);
  });

  it('answers 400 naming the query field for a hash without its type, or an unknown type', async () => {
    const withoutType = await home().get(PATHS.loanDocument(loanIds.shared, stored.deed.hash));
    expect(withoutType.statusCode).toBe(400);
    expect(withoutType.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: DOCUMENT_TYPE_REQUIRED });
    const unknownType = await home().get(`${PATHS.loanDocument(loanIds.shared, stored.deed.hash)}?type=POEM`);
    expect(unknownType.statusCode).toBe(400);
    expect(errorBodySchema.parse(unknownType.json()).message).toMatch(/^querystring\.type: /);
  });

  it('answers 400 naming the field for a malformed document id or hash', async () => {
    for (const value of ['not-a-document', 'a'.repeat(63), `${'g'.repeat(64)}`]) {
      const response = await home().get(PATHS.loanDocument(loanIds.shared, value));
      expect(response.statusCode).toBe(400);
      expect(errorBodySchema.parse(response.json()).message).toBe(`params.documentIdOrHash: ${DOCUMENT_ID_OR_HASH_MESSAGE}`);
    }
  });
});

const endpoints = [
  ['metadata', (loanId: string) => PATHS.loanDocumentsMetadata(loanId)],
  ['document by id', (loanId: string) => PATHS.loanDocument(loanId, stored.deed.id)],
  ['document by hash', (loanId: string) => `${PATHS.loanDocument(loanId, stored.deed.hash)}?type=DEED`],
] as const;

describe.each(endpoints)('refusals of %s', (_name, pathOf) => {
  it('answers 404 alike for a loan of another organization and a loan that does not exist', async () => {
    const foreign = await home().get(pathOf(loanIds.foreign));
    const missing = await home().get(pathOf(randomUUID()));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(LOAN_NOT_FOUND_BODY);
    expect(missing.json()).toEqual(LOAN_NOT_FOUND_BODY);
  });

  it('answers 404 for a loan another organization of the same user holds, when acting for this one', async () => {
    const response = await member.as(ids.second).get(pathOf(loanIds.shared));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(LOAN_NOT_FOUND_BODY);
  });

  it('answers 400 naming the field for a malformed loan id', async () => {
    const response = await home().get(pathOf('not-a-loan-id'));
    expect(response.statusCode).toBe(400);
    expect(errorBodySchema.parse(response.json()).message).toMatch(/^params\.loanId: /);
  });

  it('answers 401 without a session', async () => {
    const response = await server.anonymous.as(ids.home).get(pathOf(loanIds.shared), { headers: PDF });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required' });
  });

  it('answers 403 Invalid participant for an organization the caller does not belong to', async () => {
    for (const participantId of [ids.foreign, randomUUID(), 'not-a-uuid']) {
      const response = await member.as(participantId).get(pathOf(loanIds.shared), { headers: PDF });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: TEXTS.invalidParticipantBody });
    }
  });
});

describe('OpenAPI', () => {
  it('documents both routes: both metadata shapes, the PDF form and the refusal of damaged content', async () => {
    const response = await server.anonymous.get('/registry/api-docs/json');
    const document = response.json() as {
      paths: Record<string, { get?: { description?: string; responses?: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const metadata = document.paths['/service-dart/secure/api/v4/loans/{loanId}/documents/metadata']?.get;
    expect(metadata?.description).toMatch(/two shapes/);
    const read = document.paths['/service-dart/secure/api/v4/loans/{loanId}/documents/{documentIdOrHash}']?.get;
    expect(Object.keys(read?.responses?.['200']?.content ?? {})).toEqual(['application/json', 'application/pdf']);
    expect(read?.responses?.['200']?.content?.['application/pdf']).toMatchObject({ schema: { type: 'string', format: 'binary' } });
    expect(read?.responses).toHaveProperty('500');
    expect(read?.description).toMatch(/Repr-Digest/);
  });
});
