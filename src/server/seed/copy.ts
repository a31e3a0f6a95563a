// Bulk loading for the seed: COPY ... FROM STDIN in PostgreSQL's text format over the seed's own
// connection. Rows are encoded to text lines as they are generated and sent in batches through a
// stream with backpressure, so memory stays bounded whatever the loan count.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Row } from './insert';

const SPECIAL = /[\\\n\r\t]/;
const SPECIAL_ALL = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const DAY = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const days = new Map<number, string>();

/** Date.toISOString, several times faster: the seed writes millions of timestamps over a few thousand days. */
export function isoTimestamp(date: Date): string {
  const time = date.getTime();
  const day = Math.floor(time / DAY);
  let prefix = days.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    days.set(day, prefix);
  }
  const ms = time - day * DAY;
  const seconds = Math.floor(ms / 1000);
  return `${prefix}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[ms % 1000]}Z`;
}

/** A value as one field of COPY's text format (\N is NULL). */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'boolean') return value ? 't' : 'f';
  else if (typeof value === 'number') return String(value);
  else if (value instanceof Date) return isoTimestamp(value);
  // bytea in hex: the escaped backslash of \x.
  else if (Buffer.isBuffer(value)) return `\\\\x${value.toString('hex')}`;
  else text = JSON.stringify(value);
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (char) => ESCAPES[char] as string) : text;
}

/** The COPY statement and line encoder of one table, for rows with the keys of `columns`. */
export class CopyTable<T extends PgTable> {
  readonly statement: string;
  private readonly keys: readonly string[];

  constructor(
    readonly table: T,
    keys: ReadonlyArray<keyof Row<T> & string>,
    options: { freeze?: boolean } = {},
  ) {
    const columns = getTableColumns(table) as Record<string, { name: string }>;
    const names = keys.map((key) => {
      const column = columns[key];
      if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
      return `"${column.name}"`;
    });
    this.keys = keys;
    this.statement = `COPY "${getTableName(table)}" (${names.join(', ')}) FROM STDIN${options.freeze ? ' WITH (FREEZE)' : ''}`;
  }

  line(row: Row<T>): string {
    const record = row as Record<string, unknown>;
    let line = '';
    for (let i = 0; i < this.keys.length; i++) {
      if (i > 0) line += '\t';
      line += copyField(record[this.keys[i] as string]);
    }
    return `${line}\n`;
  }
}

const PIECE_BYTES = 1 << 20;

/** Text lines waiting for one table's COPY, written as UTF-8 into buffers of 1 MB. */
export class CopyBuffer<T extends PgTable> {
  private readonly pieces: Buffer[] = [];
  private current = Buffer.allocUnsafe(PIECE_BYTES);
  private used = 0;
  rows = 0;

  constructor(readonly target: CopyTable<T>) {}

  push(row: Row<T>): void {
    const line = this.target.line(row);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + line.length * 3 > this.current.length) {
      this.flushPiece();
      if (line.length * 3 > this.current.length) this.current = Buffer.allocUnsafe(line.length * 3);
    }
    this.used += this.current.write(line, this.used);
    this.rows++;
  }

  private flushPiece(): void {
    if (this.used === 0) return;
    this.pieces.push(this.current.subarray(0, this.used));
    this.current = Buffer.allocUnsafe(PIECE_BYTES);
    this.used = 0;
  }

  /** Runs the COPY of the buffered rows; does nothing when there are none. */
  async copy(client: pg.ClientBase): Promise<void> {
    this.flushPiece();
    if (this.rows === 0) return;
    const stream = client.query(copyFrom(this.target.statement));
    await pipeline(Readable.from(this.pieces, { objectMode: false }), stream);
  }
}
