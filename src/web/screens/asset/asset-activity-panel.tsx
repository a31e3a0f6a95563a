// The asset page's Activity tab: the loan's audit rows, newest first, a page at a time, each in
// plain words (who, what happened, when). The list is the shared one (machines/paged-list.ts);
// its page and limit live in the URL.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { selectHasFailed, type PagedListRef } from '../../../../machines/paged-list';
import { parsePoolsView, serializePoolsView } from '../../../../machines/pools-list';
import type { AuditTrailEntry } from '../../../contract/audit';
import { AUDIT_TEXTS as T, auditActionWords, auditActorWords } from '../../../domain/audit-texts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { ListPagination } from '../../ui/pagination';
import { useListUrl } from '../../ui/use-list-url';
import { LoadFailed } from '../assets/asset-table-parts';
import { assetActivityLogic } from './asset-actors';

/** Page and limit only (the pools' codec without a range). */
export const ACTIVITY_URL = {
  parse: (search: string) => {
    const { page, limit } = parsePoolsView(search);
    return { page, limit };
  },
  serialize: (view: { page: number; limit: 10 | 20 | 50 | 100 }) => serializePoolsView({ ...view, range: 'all' }),
};

const helper = createDataTableColumnHelper<AuditTrailEntry>();
export const activityColumns: readonly DataTableColumn<AuditTrailEntry>[] = [
  helper.accessor('occurredAt', {
    id: 'occurredAt',
    header: T.when,
    size: 200,
    enableSorting: false,
    cell: ({ getValue }) => new Date(getValue()).toLocaleString('en-US'),
  }),
  helper.display({ id: 'who', header: T.who, size: 260, cell: ({ row }) => auditActorWords(row.original) }),
  helper.display({ id: 'what', header: T.what, size: 480, cell: ({ row }) => auditActionWords(row.original) }),
];

export function AssetActivityPanel({ loanId }: { loanId: string }) {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => assetActivityLogic(services, loanId), [services, loanId]);
  const list = useScreenActor(logic, { input: { view: ACTIVITY_URL.parse(location.search), idKey: 'id' } }) as PagedListRef;
  useListUrl(list, ACTIVITY_URL);
  const failed = useSelector(list, selectHasFailed);
  if (failed) return <LoadFailed message={T.activityFailed} onRetry={() => list.send({ type: 'list.reload' })} />;
  return (
    <div>
      <ListDataTable
        list={list}
        label={T.activityTableLabel}
        columns={activityColumns}
        getRowId={(entry) => String(entry.id)}
        loadingMessage={T.activityLoading}
        emptyMessage={T.activityEmpty}
      />
      <ListPagination list={list} />
    </div>
  );
}
