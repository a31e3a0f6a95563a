// /administration/organizations/:organizationUuid/activity: the organization's audit log (who, when,
// from which address, what, and the values before and after), newest first, a page at a time, and
// 'Export CSV' of every row. The page and limit live in the URL.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { selectActivityList, selectIsExportingActivity } from '../../../../machines/organization-activity';
import { selectHasFailed, type PagedListRef } from '../../../../machines/paged-list';
import { parsePoolsView, serializePoolsView } from '../../../../machines/pools-list';
import type { AuditEntry } from '../../../contract/organizations';
import { APP_PATHS } from '../../../domain/app-paths';
import { ORGANIZATION_TEXTS as T } from '../../../domain/administration-texts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { useListUrl } from '../../ui/use-list-url';
import { LoadFailed } from '../assets/asset-table-parts';
import { organizationActivityLogic } from './organizations-actors';

/** Page and limit only (the pools' codec without a range: it is always 'all' here). */
const ACTIVITY_URL = {
  parse: (search: string) => {
    const { page, limit } = parsePoolsView(search);
    return { page, limit };
  },
  serialize: (view: { page: number; limit: 10 | 20 | 50 | 100 }) => serializePoolsView({ ...view, range: 'all' }),
};

const describeChange = (entry: AuditEntry): string => {
  const before = entry.before as Record<string, unknown> | null;
  const after = entry.after as Record<string, unknown> | null;
  if (!before || !after) return '';
  return Object.keys(after)
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => `${key}: ${JSON.stringify(before[key] ?? null)} → ${JSON.stringify(after[key])}`)
    .join('; ');
};

const helper = createDataTableColumnHelper<AuditEntry>();
const columns: readonly DataTableColumn<AuditEntry>[] = [
  helper.accessor('occurredAt', {
    id: 'occurredAt',
    header: T.when,
    size: 200,
    enableSorting: false,
    cell: ({ getValue }) => new Date(getValue()).toLocaleString('en-US'),
  }),
  helper.accessor('actorEmail', {
    id: 'actorEmail',
    header: T.who,
    size: 220,
    enableSorting: false,
    cell: ({ getValue }) => getValue() ?? '—',
  }),
  helper.accessor('clientAddress', {
    id: 'clientAddress',
    header: T.from,
    size: 140,
    enableSorting: false,
    cell: ({ getValue }) => getValue() ?? '—',
  }),
  helper.accessor('action', { id: 'action', header: T.what, size: 200, enableSorting: false }),
  helper.display({ id: 'change', header: T.change, size: 360, cell: ({ row }) => describeChange(row.original) }),
];

export function OrganizationActivityScreen() {
  const { organizationUuid = '' } = useParams();
  return <OrganizationActivity key={organizationUuid} organizationId={organizationUuid} />;
}

function OrganizationActivity({ organizationId }: { organizationId: string }) {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => organizationActivityLogic(services, organizationId), [services, organizationId]);
  const activity = useScreenActor(logic, { input: { organizationId, view: ACTIVITY_URL.parse(location.search) } });
  const list = useSelector(activity, selectActivityList) as PagedListRef;
  useListUrl(list, ACTIVITY_URL);
  const failed = useSelector(list, selectHasFailed);
  const exporting = useSelector(activity, selectIsExportingActivity);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.organization(organizationId)}>
            {T.editTitle}
          </Link>
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <PageHeading>{T.activityTitle}</PageHeading>
          <button
            type="button"
            className="inline-flex h-10 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60"
            disabled={exporting}
            onClick={() => activity.send({ type: 'csv.export' })}
          >
            {exporting ? T.exportingCsv : T.exportCsv}
          </button>
        </div>
      </div>
      {failed ? (
        <LoadFailed message={T.activityFailed} onRetry={() => list.send({ type: 'list.reload' })} />
      ) : (
        <div>
          <ListDataTable
            list={list}
            label={T.activityTableLabel}
            columns={columns}
            getRowId={(entry) => String(entry.id)}
            loadingMessage={T.activityLoading}
            emptyMessage={T.activityEmpty}
          />
          <ListPagination list={list} />
        </div>
      )}
    </div>
  );
}
