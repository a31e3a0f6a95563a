// Reading a zip in tests (yauzl) and inserting documents with their SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import yauzl from 'yauzl';
import type { Database } from '../../../src/server/db/database';
import { documents } from '../../../src/server/db/schema';

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Every file of a zip by its path, read whole (small test zips only). */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const files = new Map<string, Buffer>();
      file.on('error', reject);
      file.on('end', () => resolve(files));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no entry stream'));
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts));
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

/** A PDF-looking document of `sizeBytes` random bytes; `hash` overrides the true SHA-256 (a tampered one). */
export async function insertDocument(
  db: Database,
  values: { loanId: string; type?: string; fileName?: string; sizeBytes?: number; hash?: string },
) {
  const content = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(Math.max(0, (values.sizeBytes ?? 2048) - 9))]);
  const type = values.type ?? 'ASSIGNMENT';
  const [row] = await db
    .insert(documents)
    .values({
      loanId: values.loanId,
      name: type === 'ASSIGNMENT' ? 'Assignment of Mortgage' : 'Deed of Trust',
      type,
      hash: values.hash ?? sha256(content),
      fileName: values.fileName ?? `${type.toLowerCase()}.pdf`,
      fileType: 'pdf',
      contentType: 'application/pdf',
      docType: type,
      sizeBytes: content.length,
      content,
    })
    .returning();
  if (!row) throw new Error('document not inserted');
  return { ...row, content };
}
