// Encryption at rest of a backup file: AES-256-GCM in chunks (the STREAM construction), so that
// neither side holds the file in memory and a restore never writes a byte it has not authenticated.
//
// File: header (magic 'LRBACKUP', version 1, key id (8 bytes), nonce prefix (7 random bytes)),
// then chunks of CHUNK_BYTES plaintext (the last one shorter, possibly empty), each written as its
// ciphertext and 16-byte tag. A chunk's nonce is the prefix, its index (uint32) and a byte that is
// 1 on the last chunk only, so a reordered, dropped or truncated chunk fails its tag. The header is
// each chunk's additional data.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

const MAGIC = Buffer.from('LRBACKUP', 'latin1');
const VERSION = 1;
const KEY_ID_BYTES = 8;
const PREFIX_BYTES = 7;
export const HEADER_BYTES = MAGIC.length + 1 + KEY_ID_BYTES + PREFIX_BYTES;
const CHUNK_BYTES = 1024 * 1024;
const TAG_BYTES = 16;

/**
 * BACKUP_KEY: 32 random bytes, written as 64 hexadecimal digits (`openssl rand -hex 32`) or in
 * base64 (`openssl rand -base64 32`). Anything else is refused rather than stretched into a key.
 */
export function parseBackupKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed))) {
    throw new Error('BACKUP_KEY must be 32 bytes as 64 hexadecimal digits (openssl rand -hex 32) or base64 (openssl rand -base64 32).');
  }
  return key;
}

/** Names the key without revealing it: a restore with another key says so before decrypting anything. */
export const keyId = (key: Buffer): Buffer =>
  createHmac('sha256', key).update('loan-registry backup key id').digest().subarray(0, KEY_ID_BYTES);

/** True when the file's first bytes are an encrypted backup's header. */
export const isEncrypted = (firstBytes: Buffer): boolean => firstBytes.subarray(0, MAGIC.length).equals(MAGIC);

const nonce = (prefix: Buffer, index: number, last: boolean): Buffer => {
  const value = Buffer.alloc(12);
  prefix.copy(value, 0);
  value.writeUInt32BE(index, PREFIX_BYTES);
  value[11] = last ? 1 : 0;
  return value;
};

export function encryptStream(key: Buffer): Transform {
  const prefix = randomBytes(PREFIX_BYTES);
  const header = Buffer.concat([MAGIC, Buffer.from([VERSION]), keyId(key), prefix]);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  const seal = (plain: Buffer, last: boolean): Buffer => {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(prefix, index, last));
    index += 1;
    cipher.setAAD(header);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  let headerSent = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (!headerSent) {
        this.push(header);
        headerSent = true;
      }
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Strictly more than a chunk: the last chunk always exists (full or short) and says it is last.
      if (pendingBytes > CHUNK_BYTES) {
        let all = Buffer.concat(pending);
        while (all.length > CHUNK_BYTES) {
          this.push(seal(all.subarray(0, CHUNK_BYTES), false));
          all = all.subarray(CHUNK_BYTES);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      if (!headerSent) this.push(header);
      this.push(seal(Buffer.concat(pending), true));
      callback();
    },
  });
}

export function decryptStream(key: Buffer): Transform {
  let header: Buffer | undefined;
  let prefix: Buffer | undefined;
  // Joined only when a whole sealed chunk (or the header) may be there, not on every write.
  let parts: Buffer[] = [];
  let partBytes = 0;
  let index = 0;
  const readHeader = (bytes: Buffer): Buffer => {
    header = bytes.subarray(0, HEADER_BYTES);
    if (!isEncrypted(header) || header[MAGIC.length] !== VERSION) throw new Error('Not an encrypted backup of this registry.');
    if (!header.subarray(MAGIC.length + 1, MAGIC.length + 1 + KEY_ID_BYTES).equals(keyId(key))) {
      throw new Error('The backup was encrypted with another BACKUP_KEY.');
    }
    prefix = header.subarray(MAGIC.length + 1 + KEY_ID_BYTES);
    return bytes.subarray(HEADER_BYTES);
  };
  const open = (sealed: Buffer, last: boolean): Buffer => {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(prefix!, index, last));
    index += 1;
    decipher.setAAD(header!);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new Error('The backup file is damaged or was changed: a chunk failed its authentication.');
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        parts.push(chunk);
        partBytes += chunk.length;
        if (partBytes <= (header ? CHUNK_BYTES + TAG_BYTES : HEADER_BYTES)) return callback();
        let buffered: Buffer = Buffer.concat(parts);
        if (!header) buffered = readHeader(buffered);
        // More than a sealed chunk buffered: the first one is not the last.
        while (buffered.length > CHUNK_BYTES + TAG_BYTES) {
          this.push(open(buffered.subarray(0, CHUNK_BYTES + TAG_BYTES), false));
          buffered = buffered.subarray(CHUNK_BYTES + TAG_BYTES);
        }
        parts = [buffered];
        partBytes = buffered.length;
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        let buffered: Buffer = Buffer.concat(parts);
        if (!header && buffered.length >= HEADER_BYTES) buffered = readHeader(buffered);
        if (!header || buffered.length < TAG_BYTES) throw new Error('The backup file is truncated.');
        this.push(open(buffered, true));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
