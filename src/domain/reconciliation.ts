// Reconciliation against a loan tape: the tape's columns as a header names them, the kinds of
// difference, and every text the screen and the server show. Pure: shared by web and server.

/** Largest tape accepted (bytes). */
export const TAPE_MAX_BYTES = 50 * 1024 * 1024;

/** The fields a tape may give; `uli` or `loanNumber` is the loan key. */
export const TAPE_FIELDS = ['uli', 'loanNumber', 'owner', 'servicer', 'subServicer', 'controller', 'securedParty', 'status'] as const;
export type TapeField = (typeof TAPE_FIELDS)[number];

/** The fields compared with the registry (the key is matched, not compared). */
export const COMPARED_FIELDS = ['loanNumber', 'owner', 'servicer', 'subServicer', 'controller', 'securedParty', 'status'] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

export const TAPE_FIELD_LABELS: Readonly<Record<TapeField, string>> = {
  uli: 'ULI',
  loanNumber: 'Loan Number',
  owner: 'Owner',
  servicer: 'Servicer',
  subServicer: 'Sub-Servicer',
  controller: 'Controller',
  securedParty: 'Secured Party',
  status: 'Status',
};

/** Header names (lower case, letters and digits only) each field is known by. */
const HEADER_ALIASES: Readonly<Record<TapeField, readonly string[]>> = {
  uli: ['uli', 'loanuli', 'universalloanidentifier'],
  loanNumber: ['loannumber', 'loanno', 'loannum', 'loanid'],
  owner: ['owner', 'ownername', 'ownerid'],
  servicer: ['servicer', 'servicername', 'servicerid'],
  subServicer: ['subservicer', 'subservicername', 'subservicerid'],
  controller: ['controller', 'controllername', 'controllerid'],
  securedParty: ['securedparty', 'securedpartyname', 'securedpartyid'],
  status: ['status', 'loanstatus'],
};

const normalizeHeader = (cell: string) => cell.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Where each field is in a row (by the header); fields the header does not name are absent. */
export type TapeColumns = Partial<Record<TapeField, number>>;

/** The tape's columns by its header row: the first cell naming a field wins. */
export function tapeColumns(header: readonly string[]): TapeColumns {
  const columns: TapeColumns = {};
  header.forEach((cell, index) => {
    const name = normalizeHeader(cell);
    const field = TAPE_FIELDS.find((candidate) => HEADER_ALIASES[candidate].includes(name));
    if (field && columns[field] === undefined) columns[field] = index;
  });
  return columns;
}

export const hasLoanKey = (columns: TapeColumns): boolean => columns.uli !== undefined || columns.loanNumber !== undefined;

/** The kinds of difference, in the report's order. */
export const DIFFERENCE_KINDS = ['NOT_IN_REGISTRY', 'MISSING_FROM_TAPE', 'FIELD_DIFFERS', 'UNREADABLE_ROW'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export const DIFFERENCE_KIND_LABELS: Readonly<Record<DifferenceKind, string>> = {
  NOT_IN_REGISTRY: 'In the tape, not in the registry',
  MISSING_FROM_TAPE: 'In the registry, missing from the tape',
  FIELD_DIFFERS: 'Fields that differ',
  UNREADABLE_ROW: 'Unreadable rows',
};

/** Columns of the report's CSV. */
export const RECONCILIATION_CSV_HEADERS = [
  'Kind',
  'Line',
  'ULI',
  'Loan Number',
  'Field',
  'Tape Value',
  'Registry Value',
  'Detail',
] as const;

/** The report's file name: `reconciliation-2026-01-15-<first 8 of the job id>.csv`. */
export const reconciliationFileName = (job: { readonly jobId: string; readonly createdAt: string }): string =>
  `reconciliation-${job.createdAt.slice(0, 10)}-${job.jobId.slice(0, 8)}.csv`;

export const RECONCILIATION_TEXTS = {
  action: 'Reconcile',
  heading: 'Reconcile against a loan tape',
  intro:
    'Upload a loan tape (CSV with a header row): a ULI or Loan Number column, and any of Owner, Servicer, Sub-Servicer, ' +
    'Controller, Secured Party (by name or id) and Status. It is compared with the loans your organization holds a role on; ' +
    'nothing in the registry is changed.',
  fileLabel: 'Loan tape (CSV, at most 50 MB)',
  upload: 'Upload and compare',
  uploading: 'Uploading the tape...',
  chooseFile: 'Choose a CSV file to upload.',
  notCsv: 'The file is not a CSV file: upload the loan tape saved as CSV (comma-separated values).',
  noLoanKey: "The tape's header names no loan key: its first row needs a ULI or Loan Number column.",
  wrongDelimiter: 'The tape is not comma-separated: save it as CSV with commas between the columns.',
  tooLarge: 'The tape is larger than 50 MB: split it and upload each part.',
  empty: 'The tape is empty: its first row must be the header.',
  uploadFailed: 'The tape could not be uploaded. Please try again.',
  failed: 'The reconciliation failed. Please upload the tape again.',
  loadFailed: 'The reconciliation could not be loaded.',
  loading: 'Loading the reconciliation…',
  progressLabel: 'Reconciliation progress',
  queued: 'Waiting to start the comparison...',
  progressText: (progress: number, total: number) =>
    `Comparing the tape with the registry: ${total > 0 ? Math.floor((100 * Math.min(progress, total)) / total) : 0}%`,
  summaryHeading: 'Differences',
  noDifferences: 'The tape matches the registry: no differences.',
  noRows: 'No differences of this kind.',
  kindFilter: 'Show',
  allKinds: 'All differences',
  download: 'Download report (CSV)',
  downloadFailed: 'The report could not be downloaded. Please try again.',
  newTape: 'Reconcile another tape',
  tableLabel: 'Differences between the tape and the registry',
  columns: {
    kind: 'Kind',
    line: 'Line',
    uli: 'ULI',
    loanNumber: 'Loan Number',
    field: 'Field',
    tapeValue: 'Tape Value',
    registryValue: 'Registry Value',
  },
  // What an unreadable row is reported with.
  malformedRow: (reason: string) => `The row could not be read: ${reason}`,
  noKey: 'The row has no ULI or Loan Number.',
  duplicateKey: (line: number) => `The loan is on the tape twice: also on line ${line}.`,
  columnCount: (found: number, expected: number) => `The row has ${found} cells; the header has ${expected}.`,
} as const;
