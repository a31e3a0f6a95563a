// A loan's documents, for an organization that holds a role on the loan (SPEC sections 3 and 7).
// The metadata list never reads the `content` column (a document's bytes live out of line, in
// the table's TOAST storage, and are only fetched when selected); a read fetches one row, by id
// or by (hash, type), through the documents_loan_idx / documents_hash_idx indexes.
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from './database';
import { poolOf } from './pg-pool';

export interface DocumentMetadataRow {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  /** SHA-256 of the content as recorded when the document was stored (64 lower-case hex digits). */
  readonly hash: string;
  readonly fileName: string;
  readonly fileType: string;
  readonly contentType: string;
  readonly docType: string;
  readonly sizeBytes: number;
  /** ISO instant, UTC with Z. */
  readonly createdAt: string;
}

export interface DocumentRow extends DocumentMetadataRow {
  readonly content: Buffer;
}

/** Which document of the loan: its id (and, optionally, the kind it must be), or its hash and kind. */
export type DocumentKey = { readonly id: string; readonly type?: string } | { readonly hash: string; readonly type: string };

export interface DocumentLookup {
  /** False when the loan does not exist or the organization holds no role on it (the caller cannot tell which). */
  readonly loanVisible: boolean;
  /** The document, or null when the visible loan has no such document. */
  readonly document: DocumentRow | null;
}

/** The rule of tenancy for one loan ($1) and organization ($2), as loan-details-repository.ts has it. */
const HOLDS_ROLE = `exists (select 1 from loan_parties held where held.loan_id = $1 and held.participant_id = $2)`;

const METADATA_COLUMNS = `d.id, d.name, d.type, d.hash, d.file_name as "fileName", d.file_type as "fileType",
    d.content_type as "contentType", d.doc_type as "docType", d.size_bytes as "sizeBytes",
    to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"`;

// Named (prepared once per connection), as the other per-loan lookups: planning would cost as
// much as executing. One row of nulls with `visible` false when the loan is not visible.
export const DOCUMENT_METADATA_SQL = `
  select visible.ok as visible, ${METADATA_COLUMNS}
  from (select ${HOLDS_ROLE} as ok) visible
  left join documents d on visible.ok and d.loan_id = $1
  order by d.created_at, d.name, d.id`;

// The read of one document is a binary COPY: its bytes arrive as they are stored, in Buffers.
// As a query result they would come as text (hex, or base64 from encode()), which node-postgres
// decodes into a JavaScript string that must then be decoded again: for a 200 KB PDF that tripled
// the server's CPU per read (`npm run bench`). COPY takes no parameters, so the values are
// written into the statement, each only after it matched the strict form it must have.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const KIND = /^[A-Z_]{1,40}$/;

/** A quoted SQL literal of a value that matches `form` (uuids, hex digests, kinds: no quote can occur). */
function literal(value: string, form: RegExp): string {
  if (!form.test(value)) throw new Error(`Refusing to write ${JSON.stringify(value.slice(0, 80))} into a statement`);
  return `'${value}'`;
}

/** Every column as text but the content: in binary COPY a text field is its UTF-8 bytes. */
const COPY_COLUMNS = `visible.ok::text, d.id::text, d.name, d.type, d.hash, d.file_name, d.file_type, d.content_type,
    d.doc_type, d.size_bytes::text, to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), d.content`;

function documentCopySql(loanId: string, participantId: string, key: DocumentKey): string {
  const loan = literal(loanId, UUID);
  const holdsRole = `exists (select 1 from loan_parties held where held.loan_id = ${loan} and held.participant_id = ${literal(participantId, UUID)})`;
  // The same content may have been stored more than once as the same kind: the oldest answers.
  const match =
    'id' in key
      ? `d.id = ${literal(key.id, UUID)}${key.type ? ` and d.type = ${literal(key.type, KIND)}` : ''}`
      : `d.hash = ${literal(key.hash, SHA256_HEX)} and d.type = ${literal(key.type, KIND)}`;
  return `COPY (
  select ${COPY_COLUMNS}
  from (select ${holdsRole} as ok) visible
  left join lateral (
    select * from documents d where visible.ok and d.loan_id = ${loan} and ${match} order by d.created_at, d.id limit 1
  ) d on true
) TO STDOUT (FORMAT binary)`;
}

/** The tuples of a binary COPY (PostgreSQL's documented format): each a list of fields, null for NULL. */
export function parseBinaryCopy(data: Buffer): (Buffer | null)[][] {
  const signature = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
  if (data.length < 19 || !data.subarray(0, 11).equals(signature)) throw new Error('Not a binary COPY');
  let offset = 15;
  offset += 4 + data.readUInt32BE(offset);
  const rows: (Buffer | null)[][] = [];
  for (;;) {
    const fields = data.readInt16BE(offset);
    offset += 2;
    if (fields === -1) return rows;
    const row: (Buffer | null)[] = [];
    for (let i = 0; i < fields; i++) {
      const length = data.readInt32BE(offset);
      offset += 4;
      if (length === -1) row.push(null);
      else {
        if (offset + length > data.length) throw new Error('Truncated binary COPY');
        row.push(data.subarray(offset, offset + length));
        offset += length;
      }
    }
    rows.push(row);
  }
}

type Nullable<Row> = { [Key in keyof Row]: Row[Key] | null };

/**
 * The loan's documents (metadata only), oldest first, or undefined when the loan does not exist
 * or the organization holds no role on it.
 */
export async function listDocumentMetadata(
  db: Database,
  loanId: string,
  participantId: string,
): Promise<DocumentMetadataRow[] | undefined> {
  const result = await poolOf(db).query<{ visible: boolean } & Nullable<DocumentMetadataRow>>({
    name: 'loan_documents_metadata',
    text: DOCUMENT_METADATA_SQL,
    values: [loanId, participantId],
  });
  if (!result.rows[0]?.visible) return undefined;
  return result.rows.filter((row): row is typeof row & DocumentMetadataRow => row.id !== null).map(({ visible: _visible, ...row }) => row);
}

/** One document of the loan with its content, read as one row (one statement, one snapshot). */
export async function findDocument(db: Database, loanId: string, participantId: string, key: DocumentKey): Promise<DocumentLookup> {
  const sql = documentCopySql(loanId, participantId, key);
  const client = await poolOf(db).connect();
  let data: Buffer;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of client.query(copyTo(sql))) chunks.push(chunk as Buffer);
    data = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  } catch (error) {
    // A connection that failed mid-COPY is not given back to the pool.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  client.release();
  const [row] = parseBinaryCopy(data);
  const text = (field: Buffer | null | undefined) => field?.toString('utf8') ?? '';
  if (!row || text(row[0]) !== 'true') return { loanVisible: false, document: null };
  const [, id, name, type, hash, fileName, fileType, contentType, docType, sizeBytes, createdAt, content] = row;
  if (!id || !content) return { loanVisible: true, document: null };
  const document: DocumentRow = {
    id: text(id),
    name: text(name),
    type: text(type),
    hash: text(hash),
    fileName: text(fileName),
    fileType: text(fileType),
    contentType: text(contentType),
    docType: text(docType),
    sizeBytes: Number(text(sizeBytes)),
    createdAt: text(createdAt),
    content,
  };
  return { loanVisible: true, document };
}
