// The asset table's columns (SPEC sections 2-4), shared by /assets/assets and the pool
// assets screen: ULI, type, trade date, mortgagee of record, status, the five parties (controller
// N/A for HELOC types) and the row actions View Details, View Documents, Deactivate (pinned to
// the right edge, so they are in view however far the table is scrolled).
import { useLocation } from 'react-router-dom';
import { deactivationSubjectOfItem } from '../../../contract/deactivation';
import type { LoanListItem, LoanSortColumn, PartyValue, RoleEntry } from '../../../contract/loans';
import { APP_PATHS } from '../../../domain/app-paths';
import { ASSET_COLUMN_LABELS } from '../../../domain/asset-columns';
import { deactivationBlocker } from '../../../domain/deactivation';
import { formatDate } from '../../../domain/format';
import { deriveAssetStatus, isHelocType, loanTypeLabel, stateLabel } from '../../../domain/loan';
import { ASSET_TEXTS } from '../../../domain/asset-texts';
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

/** Badge colours of an unsettled role state: text says it, colour only repeats it. */
const STATE_BADGE: Readonly<Record<string, string>> = {
  REQUESTED: 'border-sky-300 bg-sky-50 text-sky-900',
  PENDING: 'border-amber-300 bg-amber-50 text-amber-900',
  REJECTED: 'border-red-300 bg-red-50 text-red-900',
};

/**
 * A party: its name, wrapping rather than cut off, and its state when the role is not settled
 * ('Requested', 'Pending', 'Rejected') as a badge on its own line, never truncated. Everything is
 * text in the cell: screen readers, find in page and zoom get it whole, no hover needed.
 */
function PartyCell({ entry }: { entry: RoleEntry | null }) {
  if (!entry) return <span className="text-slate-400">—</span>;
  const name = partyName(entry.currentValue);
  return (
    <span className="flex flex-col items-start gap-1 py-1.5 whitespace-normal">
      <span className="break-words">{name || '—'}</span>
      {entry.state !== 'CONFIRMED' && (
        <span
          data-testid="party-state"
          className={`rounded-full border px-2 py-px text-xs font-medium whitespace-nowrap ${STATE_BADGE[entry.state] ?? 'border-slate-300 text-slate-700'}`}
        >
          <span className="sr-only">, </span>
          {stateLabel(entry.state)}
        </span>
      )}
    </span>
  );
}

const roleStates = (loan: LoanListItem) =>
  [loan.owner, loan.servicer, loan.controller, loan.subServicer, loan.securedParty].map((entry) => entry?.state);

const helper = createDataTableColumnHelper<LoanListItem>();

/** Narrow enough for the state badge, never narrower (the resize handle stops there). */
const PARTY_MIN_WIDTH = 110;

const party = (id: Extract<LoanSortColumn, 'owner' | 'servicer' | 'subServicer' | 'securedParty'>) =>
  helper.accessor((loan) => loan[id], {
    id,
    header: ASSET_COLUMN_LABELS[id],
    size: 170,
    minSize: PARTY_MIN_WIDTH,
    cell: ({ getValue }) => <PartyCell entry={getValue()} />,
  });

export const assetColumns: readonly DataTableColumn<LoanListItem>[] = [
  helper.accessor('uli', {
    id: 'uli',
    header: ASSET_COLUMN_LABELS.uli,
    size: 195,
    cell: ({ getValue }) => <UliCell uli={getValue()} />,
  }),
  helper.accessor('loanType', {
    id: 'loanType',
    header: ASSET_COLUMN_LABELS.loanType,
    size: 110,
    // Wraps ('Piggyback HELOC') rather than cut off.
    cell: ({ getValue }) => <span className="block py-1.5 break-words whitespace-normal">{loanTypeLabel(getValue())}</span>,
  }),
  helper.accessor('tradeDate', {
    id: 'tradeDate',
    header: ASSET_COLUMN_LABELS.tradeDate,
    size: 130,
    cell: ({ getValue }) => formatDate(getValue()) || '—',
  }),
  helper.accessor('mortgageeOfRecord', {
    id: 'mortgageeOfRecord',
    header: ASSET_COLUMN_LABELS.mortgageeOfRecord,
    size: 170,
    cell: ({ getValue }) => <span className="block py-1.5 break-words whitespace-normal">{getValue() ?? '—'}</span>,
  }),
  helper.accessor((loan) => deriveAssetStatus(loan.status, roleStates(loan)), {
    id: 'status',
    header: ASSET_COLUMN_LABELS.status,
    // 'Rejected Update' whole beside its dot.
    size: 155,
    cell: ({ getValue }) => <StatusIndicator status={getValue()} />,
  }),
  party('owner'),
  party('servicer'),
  helper.accessor((loan) => loan.controller, {
    id: 'controller',
    header: ASSET_COLUMN_LABELS.controller,
    size: 170,
    minSize: PARTY_MIN_WIDTH,
    // SPEC section 2: the controller is N/A for HELOC types.
    cell: ({ getValue, row }) => (isHelocType(row.original.loanType) ? ASSET_TEXTS.notApplicable : <PartyCell entry={getValue()} />),
  }),
  party('subServicer'),
  party('securedParty'),
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
