// The asset tables' columns (SPEC sections 2 and 3): which the user may hide, and which are hidden
// until they choose. Every column together is wider than a 1440 px screen beside the navigation,
// so the dates, the mortgagee of record and the last two parties wait behind the Columns menu.
import { LOAN_SORT_COLUMNS } from '../contract/loans';

/** Every data column, in table order: the sortable columns of the contract (the ULI identifies a row: always shown). */
export const ASSET_COLUMN_IDS = LOAN_SORT_COLUMNS;
export type AssetColumnId = (typeof ASSET_COLUMN_IDS)[number];

export const HIDEABLE_ASSET_COLUMNS: readonly AssetColumnId[] = ASSET_COLUMN_IDS.filter((id) => id !== 'uli');

export const DEFAULT_HIDDEN_ASSET_COLUMNS: readonly AssetColumnId[] = ['tradeDate', 'mortgageeOfRecord', 'subServicer', 'securedParty'];

/** Column headers, as the table and the Columns menu show them. */
export const ASSET_COLUMN_LABELS: Readonly<Record<AssetColumnId, string>> = {
  uli: 'ULI',
  loanType: 'Type',
  tradeDate: 'Trade Date',
  mortgageeOfRecord: 'Mortgagee of Record',
  status: 'Status',
  owner: 'Owner',
  servicer: 'Servicer',
  controller: 'Controller',
  subServicer: 'Sub-Servicer',
  securedParty: 'Secured Party',
};
