// /assets/assets (SPEC section 2): the organization's assets, paged on the server, with
// the role, text and date filters, sorting, selection and CSV export; the view lives in the URL
// (page, limit, filters, sort) so a link, a reload and the back button restore it.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { selectList, selectNeedsRole, selectSearchText, selectSearchTooShort } from '../../../../machines/asset-table';
import { selectIsExporting } from '../../../../machines/csv-export';
import { selectHasFailed, selectListView, selectSelectedIds, type PagedListRef } from '../../../../machines/paged-list';
import type { LoanListItem } from '../../../contract/loans';
import { parseAssetListView, serializeAssetListView, type AssetListView, type FilterableRole } from '../../../domain/asset-table';
import { DATE_FILTER_LABELS, DATE_FILTERS, isDateFilter } from '../../../domain/date-filters';
import { FILTERABLE_ROLES, partyRoleLabel } from '../../../domain/loan';
import { ASSET_TEXTS } from '../../../domain/asset-texts';
import { APP_PATHS } from '../../../domain/app-paths';
import { RECONCILIATION_TEXTS } from '../../../domain/reconciliation';
import { useAppServices } from '../../app/services';
import { ListDataTable, type ListDataTableProps } from '../../ui/data-table';
import { MultiSelect } from '../../ui/multi-select';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { useListUrl } from '../../ui/use-list-url';
import { DownloadAssignmentsButton } from './asset-batch-download';
import { useAssetColumns } from './asset-column-visibility';
import { assetRowId } from './asset-columns';
import { useCsvExportActor } from './asset-csv';
import { AssetListTabs } from './asset-list-tabs';
import { CsvExportButton, LoadFailed, SelectionBar } from './asset-table-parts';
import { assetTableLogic } from './assets-actors';

const ASSETS_URL = { parse: parseAssetListView, serialize: serializeAssetListView };
const roleOptions = FILTERABLE_ROLES.map((role) => ({ value: role, label: partyRoleLabel(role) }));

export function AssetsScreen() {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => assetTableLogic(services), [services]);
  const table = useActorRef(logic, { input: { view: parseAssetListView(location.search) } });
  const list = useSelector(table, selectList) as PagedListRef;
  useListUrl(list, ASSETS_URL, { fillEmptyUrl: true });

  const { columns, chooser } = useAssetColumns();
  const csv = useCsvExportActor();
  const exporting = useSelector(csv, selectIsExporting);

  const view = useSelector(list, selectListView<AssetListView>);
  const searchText = useSelector(table, selectSearchText);
  const searchTooShort = useSelector(table, selectSearchTooShort);
  const failed = useSelector(list, selectHasFailed);
  const needsRole = useSelector(list, selectNeedsRole);
  const selectedIds = useSelector(list, selectSelectedIds);
  // 'Clear selection' disappears with the selection: the focus goes to the header checkbox.
  const pageCheckbox = useRef<HTMLInputElement>(null);
  const selectable = useMemo<ListDataTableProps<LoanListItem>['selectable']>(
    () => ({ rowLabel: (loan) => ASSET_TEXTS.selectRow(loan.uli), pageLabel: ASSET_TEXTS.selectPage, pageCheckboxRef: pageCheckbox }),
    [],
  );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{ASSET_TEXTS.title}</PageHeading>
        <Link
          to={APP_PATHS.reconcile}
          className="rounded-md border border-brand-700 px-3 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        >
          {RECONCILIATION_TEXTS.action}
        </Link>
      </div>
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
            aria-describedby="asset-search-note"
            className="h-10 rounded-md border border-slate-300 px-3 text-sm"
            onChange={(event) => table.send({ type: 'filters.search', text: event.target.value })}
          />
          <p id="asset-search-note" role="status" className="min-h-4 text-xs text-slate-600">
            {searchTooShort ? ASSET_TEXTS.searchTooShort : ''}
          </p>
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
        <SelectionBar count={selectedIds.length} onClear={() => list.send({ type: 'selection.clear' })} focusAfterClear={pageCheckbox} />
        {/* No role chosen: nothing matches, so there is nothing to download or export either. */}
        {!needsRole && (
          <div className="flex flex-wrap items-center gap-3">
            {/* The batch download of assignment documents (selected rows, or the filtered set). */}
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
        <LoadFailed message={ASSET_TEXTS.failed} onRetry={() => list.send({ type: 'list.reload' })} />
      ) : (
        <div>
          <ListDataTable
            list={list}
            label={ASSET_TEXTS.tableLabel}
            columns={columns}
            getRowId={assetRowId}
            loadingMessage={ASSET_TEXTS.loading}
            emptyMessage={needsRole ? ASSET_TEXTS.chooseRole : ASSET_TEXTS.empty}
            sortable
            selectable={selectable}
          />
          <ListPagination list={list} />
        </div>
      )}
    </div>
  );
}
