// The asset table's columns (issue 5, SPEC sections 2-4), shared by /assets/assets and the pool
// assets screen: ULI, type, trade date, mortgagee of record, status, the five parties (controller
// N/A for HELOC types) and the row actions View Details, View Documents, Deactivate (pinned to
// the right edge, so they are in view however far the table is scrolled).
import { useLocation } from 'react-router-dom';
import { deactivationSubjectOfItem } from '../../../contract/deactivation';
import type { LoanListItem, LoanSortColumn, PartyValue, RoleEntry } from '../../../contract/loans';
import { APP_PATHS } from '../../../domain/app-paths';
import { deactivationBlocker } from '../../../domain/deactivation';
import { formatDate } from '../../../domain/format';
import { deriveAssetStatus, isHelocType, loanTypeLabel, stateLabel } from '../../../domain/loan';
import { ASSET_TEXTS } from '../../../domain/texts';
import { createDataTableColumnHelper, type DataTableColumn } from '../../ui/data-table';
import { RowActionsMenu, type RowAction } from '../../ui/row-actions-menu';
import { StatusIndicator } from '../../ui/status-indicator';
import { listReturnState, type ListReturnState } from './asset-table-parts';

/** How many closing characters of a ULI always show: ULIs of one lender share the opening (its LEI). */
export const ULI_VISIBLE_END = 10;

/**
 * A ULI cut in the middle when the column is too narrow: its opening is truncated with an
 * ellipsis, its last characters (what tells the rows apart) always show. Both parts are text,
 * so screen readers, find in page and copying get the whole ULI; hovering shows it too.
 */
export function UliCell({ uli }: { uli: string }) {
  const cut = Math.max(0, uli.length - ULI_VISIBLE_END);
  return (
    <span className="flex min-w-0 font-mono text-xs" title={uli} data-testid="uli-cell">
      <span className="truncate">{uli.slice(0, cut)}</span>
      <span className="shrink-0">{uli.slice(cut)}</span>
    </span>
  );
}

/** The row's actions; the links carry the list view they leave from (the asset page's back link returns to it). */
function AssetRowActions({ loan }: { loan: LoanListItem }) {
  const location = useLocation();
  const state = listReturnState(location);
  const actions: readonly (RowAction & { readonly state: ListReturnState })[] = [
    { label: ASSET_TEXTS.viewDetails, to: APP_PATHS.asset(loan.loanId), state },
    { label: ASSET_TEXTS.viewDocuments, to: APP_PATHS.asset(loan.loanId, 'documents'), state },
    // Offered by the rule the asset page follows: disabled, saying why, where it would be refused.
    {
      label: ASSET_TEXTS.deactivate,
      to: APP_PATHS.deactivate(loan.loanId),
      state,
      disabledReason: deactivationBlocker(deactivationSubjectOfItem(loan)),
    },
  ];
  return <RowActionsMenu label={ASSET_TEXTS.rowActions(loan.uli)} actions={actions} />;
}

const partyName = (value: PartyValue | null): string => (value === null ? '' : typeof value === 'string' ? value : value.participantName);

/** A party: its name, and its state when the role is not settled (e.g. 'Pending'). */
function PartyCell({ entry }: { entry: RoleEntry | null }) {
  if (!entry) return <span className="text-slate-400">—</span>;
  const name = partyName(entry.currentValue);
  return (
    <span title={name}>
      {name || '—'}
      {entry.state !== 'CONFIRMED' && <span className="ml-1 text-xs text-slate-500">({stateLabel(entry.state)})</span>}
    </span>
  );
}

const roleStates = (loan: LoanListItem) =>
  [loan.owner, loan.servicer, loan.controller, loan.subServicer, loan.securedParty].map((entry) => entry?.state);

const helper = createDataTableColumnHelper<LoanListItem>();

const party = (id: Extract<LoanSortColumn, 'owner' | 'servicer' | 'subServicer' | 'securedParty'>, header: string) =>
  helper.accessor((loan) => loan[id], { id, header, size: 170, cell: ({ getValue }) => <PartyCell entry={getValue()} /> });

export const assetColumns: readonly DataTableColumn<LoanListItem>[] = [
  helper.accessor('uli', {
    id: 'uli',
    header: 'ULI',
    size: 240,
    cell: ({ getValue }) => <UliCell uli={getValue()} />,
  }),
  helper.accessor('loanType', { id: 'loanType', header: 'Type', size: 130, cell: ({ getValue }) => loanTypeLabel(getValue()) }),
  helper.accessor('tradeDate', { id: 'tradeDate', header: 'Trade Date', size: 130, cell: ({ getValue }) => formatDate(getValue()) || '—' }),
  helper.accessor('mortgageeOfRecord', {
    id: 'mortgageeOfRecord',
    header: 'Mortgagee of Record',
    size: 170,
    cell: ({ getValue }) => getValue() ?? '—',
  }),
  helper.accessor((loan) => deriveAssetStatus(loan.status, roleStates(loan)), {
    id: 'status',
    header: 'Status',
    size: 160,
    cell: ({ getValue }) => <StatusIndicator status={getValue()} />,
  }),
  party('owner', 'Owner'),
  party('servicer', 'Servicer'),
  helper.accessor((loan) => loan.controller, {
    id: 'controller',
    header: 'Controller',
    size: 170,
    // SPEC section 2: the controller is N/A for HELOC types.
    cell: ({ getValue, row }) => (isHelocType(row.original.loanType) ? ASSET_TEXTS.notApplicable : <PartyCell entry={getValue()} />),
  }),
  party('subServicer', 'Sub-Servicer'),
  party('securedParty', 'Secured Party'),
  helper.display({
    id: 'actions',
    header: () => <span className="sr-only">{ASSET_TEXTS.actionsColumn}</span>,
    meta: { label: ASSET_TEXTS.actionsColumn, pinRight: true },
    size: 64,
    enableSorting: false,
    enableResizing: false,
    cell: ({ row }) => <AssetRowActions loan={row.original} />,
  }),
];

export const assetRowId = (loan: LoanListItem): string => loan.loanId;
