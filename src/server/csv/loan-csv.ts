// The asset CSV: a header row, one row per loan, dates MM-dd-yyyy, and every cell that a
// spreadsheet would read as a formula neutralised (OWASP "CSV injection": a leading =, +, -, @,
// tab or carriage return gets a single quote in front).
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatDate } from '../../domain/format';
import { isHelocType, loanTypeLabel, type DerivedStatus } from '../../domain/loan';
import type { LoanCsvRow } from '../db/loan-list-repository';

export const LOAN_CSV_HEADERS = [
  'Loan ID',
  'ULI',
  'Loan Number',
  'Type',
  'Trade Date',
  'Mortgagee of Record',
  'Status',
  'Borrower',
  'Property Address',
  'Owner',
  'Servicer',
  'Controller',
  'Sub-Servicer',
  'Secured Party',
] as const;

/** loan_list_entries.status_rank: SPEC section 4's derived status in its order (5: no rule applies). */
const STATUS_OF_RANK: Readonly<Record<number, DerivedStatus | ''>> = {
  1: 'Deactivated',
  2: 'Pending Update',
  3: 'Rejected Update',
  4: 'Active',
  5: '',
};

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell a spreadsheet will not evaluate: a leading =, +, -, @, tab or CR gets a single quote. */
export function neutralizeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The cells of one loan, in LOAN_CSV_HEADERS order, neutralised. */
export function loanCsvRecord(row: LoanCsvRow): string[] {
  const [
    id,
    uli,
    loanNumber,
    loanType,
    tradeDate,
    mortgagee,
    statusRank,
    borrower,
    address,
    owner,
    servicer,
    controller,
    subServicer,
    securedParty,
  ] = row;
  const cells = [
    id,
    uli,
    loanNumber,
    loanTypeLabel(loanType),
    formatDate(tradeDate),
    mortgagee ?? '',
    STATUS_OF_RANK[statusRank] ?? '',
    borrower,
    address,
    owner ?? '',
    servicer ?? '',
    // The table shows N/A for the controller of HELOC types; the CSV says the same.
    isHelocType(loanType) ? 'N/A' : (controller ?? ''),
    subServicer ?? '',
    securedParty ?? '',
  ];
  return cells.map(neutralizeCell);
}

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTES = /"/g;

/**
 * One CSV line (RFC 4180): a cell holding a comma, quote or line break is quoted, its quotes
 * doubled; lines end with \n. Written here rather than through csv-stringify, which encodes
 * about 140,000 rows/s in batches against about 800,000 for this on the 2-core bench machine,
 * and the CSV must reach 50,000 rows/s end to end.
 */
export function csvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as string;
    if (i > 0) line += ',';
    line += NEEDS_QUOTES.test(cell) ? `"${cell.replace(QUOTES, '""')}"` : cell;
  }
  return `${line}\n`;
}

/** `assets-2026-01-15.csv` (the server's UTC date). */
export function csvFileName(prefix: string, now = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The file opens with a UTF-8 byte order mark: Excel (the tool most users open an export with)
 * reads a CSV without one in the machine's legacy code page, which garbles every name outside
 * ASCII (Ирина, 小明). Spreadsheets and CSV readers take the mark as the encoding's and drop it.
 */
export const UTF8_BOM = '\uFEFF';

/** Rows encoded per chunk written to the response. */
const CSV_BATCH_ROWS = 1000;

/**
 * CSV text from a stream of loan rows, a batch of lines per chunk. Backpressure runs end to end:
 * the cursor fetches the next rows only when the HTTP response has drained what came before, so
 * memory holds a few batches whatever the size of the file.
 */
export function loanCsvStream(rows: Readable): Readable {
  let text = '';
  let count = 0;
  const encode = new Transform({
    writableObjectMode: true,
    readableObjectMode: false,
    transform(row: LoanCsvRow, _encoding, done) {
      text += csvLine(loanCsvRecord(row));
      if (++count < CSV_BATCH_ROWS) return done();
      const chunk = text;
      text = '';
      count = 0;
      done(null, chunk);
    },
    flush(done) {
      done(null, text || undefined);
    },
  });
  encode.push(UTF8_BOM + csvLine(LOAN_CSV_HEADERS));
  // Errors of any stage end the output stream (the response), which releases the cursor too.
  pipeline(rows, encode).catch(() => undefined);
  return encode;
}
