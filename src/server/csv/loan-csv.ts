// The asset CSV: a header row, one row per loan, dates MM-dd-yyyy, and every cell that a
// spreadsheet would read as a formula neutralised (OWASP "CSV injection": a leading =, +, -, @,
// tab or carriage return gets a single quote in front).
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
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

function propertyAddress(row: LoanCsvRow): string {
  const street = row.property_street2 ? `${row.property_street1}, ${row.property_street2}` : row.property_street1;
  return `${street}, ${row.property_city}, ${row.property_state} ${row.property_zip}`;
}

/** The cells of one loan, in LOAN_CSV_HEADERS order, neutralised. */
export function loanCsvRecord(row: LoanCsvRow): string[] {
  const cells = [
    row.id,
    row.uli,
    row.loan_number,
    loanTypeLabel(row.loan_type),
    formatDate(row.trade_date),
    row.mortgagee_of_record ?? '',
    STATUS_OF_RANK[row.status_rank] ?? '',
    `${row.borrower_first_name} ${row.borrower_last_name}`,
    propertyAddress(row),
    row.owner_name ?? '',
    row.servicer_name ?? '',
    // The table shows N/A for the controller of HELOC types; the CSV says the same.
    isHelocType(row.loan_type) ? 'N/A' : (row.controller_name ?? ''),
    row.sub_servicer_name ?? '',
    row.secured_party_name ?? '',
  ];
  return cells.map(neutralizeCell);
}

/** `assets-2026-01-15.csv` (the server's UTC date). */
export function csvFileName(prefix: string, now = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * CSV text from a stream of loan rows. Backpressure runs end to end: the cursor fetches the next
 * batch only when the HTTP response has drained what came before.
 */
export function loanCsvStream(rows: Readable): Readable {
  const toRecord = new Transform({
    objectMode: true,
    transform(row: LoanCsvRow, _encoding, done) {
      done(null, loanCsvRecord(row));
    },
  });
  const csv = stringify({ header: true, columns: [...LOAN_CSV_HEADERS] });
  // Errors of any stage end the output stream (the response), which releases the cursor too.
  pipeline(rows, toRecord, csv).catch(() => undefined);
  return csv;
}
