// /administration/organizations (SPEC sections 2 and 9): every organization, a page at a time,
// searched by name, code or email (500 ms after the last keystroke) and filtered by status; each
// row leads to its edit page, its users and its activity; 'Add organization' opens the add form.
// The view lives in the URL.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import {
  parseOrganizationsView,
  selectOrganizationSearchText,
  selectOrganizationStatus,
  selectOrganizationsList,
  serializeOrganizationsView,
} from '../../../../machines/organizations-list';
import { selectHasFailed, type PagedListRef } from '../../../../machines/paged-list';
import { ORGANIZATION_STATUSES, type OrganizationStatus } from '../../../contract/organizations';
import type { Participant } from '../../../contract/participants';
import { APP_PATHS } from '../../../domain/app-paths';
import { ORGANIZATION_TEXTS as T } from '../../../domain/administration-texts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { CONTROL_CLASS } from '../../ui/form-field';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { RowActionsMenu } from '../../ui/row-actions-menu';
import { useListUrl } from '../../ui/use-list-url';
import { LoadFailed } from '../assets/asset-table-parts';
import { organizationsListLogic } from './organizations-actors';

const ORGANIZATIONS_URL = { parse: parseOrganizationsView, serialize: serializeOrganizationsView };

const STATUS_LABELS: Readonly<Record<OrganizationStatus, string>> = {
  active: T.statusActive,
  inactive: T.statusInactive,
  all: T.statusAll,
};

const helper = createDataTableColumnHelper<Participant>();

const columns: readonly DataTableColumn<Participant>[] = [
  helper.accessor('name', {
    id: 'name',
    header: T.name,
    size: 260,
    cell: ({ row }) => (
      <Link className="font-medium text-brand-700 underline" to={APP_PATHS.organization(row.original.id)}>
        {row.original.name}
      </Link>
    ),
  }),
  helper.accessor('code', { id: 'code', header: T.code, size: 100 }),
  helper.accessor('email', { id: 'email', header: T.email, size: 240, enableSorting: false }),
  helper.accessor('isActive', {
    id: 'isActive',
    header: T.status,
    size: 120,
    enableSorting: false,
    cell: ({ getValue }) => (getValue() ? T.statusActive : T.statusInactive),
  }),
  helper.display({
    id: 'actions',
    header: () => <span className="sr-only">{T.actionsColumn}</span>,
    size: 80,
    enableSorting: false,
    cell: ({ row }) => (
      <RowActionsMenu
        label={T.actions(row.original.name)}
        actions={[
          { label: T.edit, to: APP_PATHS.organization(row.original.id) },
          { label: T.users, to: APP_PATHS.organizationUsers(row.original.id) },
          { label: T.activity, to: APP_PATHS.organizationActivity(row.original.id) },
        ]}
      />
    ),
  }),
];

export function OrganizationsScreen() {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => organizationsListLogic(services), [services]);
  const organizations = useScreenActor(logic, { input: { view: parseOrganizationsView(location.search) } });
  const list = useSelector(organizations, selectOrganizationsList) as PagedListRef;
  useListUrl(list, ORGANIZATIONS_URL);
  const searchText = useSelector(organizations, selectOrganizationSearchText);
  const status = useSelector(organizations, selectOrganizationStatus);
  const failed = useSelector(list, selectHasFailed);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageHeading>{T.listTitle}</PageHeading>
        <Link
          to={APP_PATHS.newOrganization}
          className="inline-flex h-10 items-center rounded-md bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800"
        >
          {T.addOrganization}
        </Link>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor="organization-search" className="text-sm font-medium text-slate-700">
            {T.search}
          </label>
          <input
            id="organization-search"
            type="search"
            className={CONTROL_CLASS}
            value={searchText}
            placeholder={T.searchHint}
            autoComplete="off"
            onChange={(event) => organizations.send({ type: 'filters.search', text: event.target.value })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="organization-status" className="text-sm font-medium text-slate-700">
            {T.statusFilter}
          </label>
          <select
            id="organization-status"
            className={CONTROL_CLASS}
            value={status}
            onChange={(event) => organizations.send({ type: 'filters.status', status: event.target.value as OrganizationStatus })}
          >
            {ORGANIZATION_STATUSES.map((option) => (
              <option key={option} value={option}>
                {STATUS_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {failed ? (
        <LoadFailed message={T.failed} onRetry={() => list.send({ type: 'list.reload' })} />
      ) : (
        <div>
          <ListDataTable
            list={list}
            sortable
            label={T.tableLabel}
            columns={columns}
            getRowId={(organization) => organization.id}
            loadingMessage={T.loading}
            emptyMessage={T.empty}
          />
          <ListPagination list={list} />
        </div>
      )}
    </div>
  );
}
