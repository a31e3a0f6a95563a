// /assets/assets (SPEC section 2, issue 5): the organization's assets, paged on the server, with
// the role, text and date filters, sorting, selection and CSV export; the view lives in the URL
// (page, limit, filters, sort) so a link, a reload and the back button restore it.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { fromPromise } from 'xstate';
import {
  assetTableMachine,
  selectHasFailed,
  selectIsLoading,
  selectNeedsRole,
  selectPageCount,
  selectPageSelection,
  selectPageSummary,
  selectRows,
  selectSearchText,
  selectSelectedIds,
  selectView,
} from '../../../../machines/asset-table';
import { selectIsExporting } from '../../../../machines/csv-export';
import type { LoanListItem, LoanSortColumn } from '../../../contract/loans';
import { loanListQueryOf, parseAssetListView, serializeAssetListView, type FilterableRole } from '../../../domain/asset-table';
import { DATE_FILTER_LABELS, DATE_FILTERS, isDateFilter } from '../../../domain/date-filters';
import { FILTERABLE_ROLES, partyRoleLabel } from '../../../domain/loan';
import { ASSET_TEXTS } from '../../../domain/texts';
import { useAppServices } from '../../app/services';
import { DataTable, type DataTableSelection } from '../../ui/data-table';
import { MultiSelect } from '../../ui/multi-select';
import { PageHeading } from '../../ui/page-heading';
import { Pagination } from '../../ui/pagination';
import { DownloadAssignmentsButton } from './asset-batch-download';
import { useAssetColumns } from './asset-column-visibility';
import { assetRowId } from './asset-columns';
import { useCsvExportActor } from './asset-csv';
import { AssetListTabs } from './asset-list-tabs';
import { CsvExportButton, LoadFailed, SelectionBar } from './asset-table-parts';

const roleOptions = FILTERABLE_ROLES.map((role) => ({ value: role, label: partyRoleLabel(role) }));

export function AssetsScreen() {
  const { api } = useAppServices();
  const navigate = useNavigate();
  const location = useLocation();

  const tableLogic = useMemo(
    () =>
      assetTableMachine.provide({
        actors: { loadPage: fromPromise(({ input, signal }) => api.listLoans(loanListQueryOf(input.view, new Date()), signal)) },
        actions: { showView: (_, { view, replace }) => void navigate({ search: serializeAssetListView(view) }, { replace }) },
      }),
    [api, navigate],
  );
  const table = useActorRef(tableLogic, { input: { view: parseAssetListView(location.search) } });

  // The URL changed outside the table (back button, a link): the machine shows that view.
  useEffect(() => {
    table.send({ type: 'view.sync', view: parseAssetListView(location.search) });
  }, [location.search, table]);

  const { columns, chooser } = useAssetColumns();
  const csv = useCsvExportActor();
  const exporting = useSelector(csv, selectIsExporting);

  const view = useSelector(table, selectView);
  const searchText = useSelector(table, selectSearchText);
  const rows = useSelector(table, selectRows);
  const loading = useSelector(table, selectIsLoading);
  const failed = useSelector(table, selectHasFailed);
  const needsRole = useSelector(table, selectNeedsRole);
  const summary = useSelector(table, selectPageSummary);
  const pageCount = useSelector(table, selectPageCount);
  const selectedIds = useSelector(table, selectSelectedIds);
  const pageSelection = useSelector(table, selectPageSelection);
  // 'Clear selection' disappears with the selection: the focus goes to the header checkbox.
  const pageCheckbox = useRef<HTMLInputElement>(null);

  const selection = useMemo<DataTableSelection<LoanListItem>>(
    () => ({
      selectedIds,
      pageSelection,
      onToggleRow: (loanId) => table.send({ type: 'selection.toggle', loanId }),
      onTogglePage: () => table.send({ type: 'selection.togglePage' }),
      rowLabel: (loan) => ASSET_TEXTS.selectRow(loan.uli),
      pageLabel: ASSET_TEXTS.selectPage,
      pageCheckboxRef: pageCheckbox,
    }),
    [selectedIds, pageSelection, table],
  );
  const sort = useMemo(() => (view.sort ? { columnId: view.sort.column, direction: view.sort.direction } : null), [view.sort]);

  return (
    <div className="flex flex-col gap-6">
      <PageHeading>{ASSET_TEXTS.title}</PageHeading>
      <AssetListTabs />
      <section aria-label={ASSET_TEXTS.filters} className="flex flex-wrap items-end gap-4">
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor="asset-search" className="text-sm font-medium text-slate-700">
            {ASSET_TEXTS.search}
          </label>
          <input
            id="asset-search"
            type="search"
            value={searchText}
            placeholder={ASSET_TEXTS.searchHint}
            autoComplete="off"
            className="h-10 rounded-md border border-slate-300 px-3 text-sm"
            onChange={(event) => table.send({ type: 'filters.search', text: event.target.value })}
          />
        </div>
        <MultiSelect
          label={ASSET_TEXTS.roles}
          options={roleOptions}
          selected={view.roles}
          onChange={(roles) => table.send({ type: 'filters.roles', roles: roles as FilterableRole[] })}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="asset-date-filter" className="text-sm font-medium text-slate-700">
            {ASSET_TEXTS.dateFilter}
          </label>
          <select
            id="asset-date-filter"
            value={view.dateFilter ?? ''}
            className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
            onChange={(event) => table.send({ type: 'filters.date', filter: isDateFilter(event.target.value) ? event.target.value : null })}
          >
            <option value="">{ASSET_TEXTS.allDates}</option>
            {DATE_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {DATE_FILTER_LABELS[filter]}
              </option>
            ))}
          </select>
        </div>
        {chooser}
      </section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SelectionBar count={selectedIds.length} onClear={() => table.send({ type: 'selection.clear' })} focusAfterClear={pageCheckbox} />
        {/* No role chosen: nothing matches, so there is nothing to download or export either. */}
        {!needsRole && (
          <div className="flex flex-wrap items-center gap-3">
            {/* Issue 6: the batch download of assignment documents (selected rows, or the filtered set). */}
            <DownloadAssignmentsButton selectedIds={selectedIds} view={view} />
            <CsvExportButton
              selectedCount={selectedIds.length}
              exporting={exporting}
              onExport={() => csv.send({ type: 'csv.export', request: { loanIds: selectedIds, scope: { kind: 'assets', view } } })}
            />
          </div>
        )}
      </div>
      {failed ? (
        <LoadFailed message={ASSET_TEXTS.failed} onRetry={() => table.send({ type: 'list.retry' })} />
      ) : (
        <div>
          <DataTable
            label={ASSET_TEXTS.tableLabel}
            columns={columns}
            rows={rows}
            getRowId={assetRowId}
            loading={loading}
            pageSize={view.limit}
            loadingMessage={ASSET_TEXTS.loading}
            emptyMessage={needsRole ? ASSET_TEXTS.chooseRole : ASSET_TEXTS.empty}
            sort={sort}
            onSort={(column) => table.send({ type: 'sort.toggle', column: column as LoanSortColumn })}
            selection={selection}
          />
          <Pagination
            page={view.page}
            pageCount={pageCount}
            limit={view.limit}
            summary={summary}
            onPage={(page) => table.send({ type: 'page.go', page })}
            onPageSize={(limit) => table.send({ type: 'page.size', limit })}
          />
        </div>
      )}
    </div>
  );
}
