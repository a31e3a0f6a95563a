// /administration/audit: registry staff search the whole audit log by organization, user, entity
// and time, newest first, a page at a time, and export what the search finds as CSV. The filters,
// page and limit live in the URL.
import { useSelector } from '@xstate/react';
import { useMemo, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import {
  AUDIT_FILTER_FIELDS,
  filtersOf,
  selectAuditDraft,
  selectAuditList,
  selectIsExportingAudit,
  type AuditFilterField,
  type AuditLogView,
} from '../../../../machines/audit-log';
import { selectHasFailed, type PagedListRef } from '../../../../machines/paged-list';
import { parsePoolsView, serializePoolsView } from '../../../../machines/pools-list';
import type { AuditTrailEntry } from '../../../contract/audit';
import { APP_PATHS } from '../../../domain/app-paths';
import { AUDIT_ENTITY_TYPES, AUDIT_TEXTS as T, auditActionWords, auditActorWords } from '../../../domain/audit-texts';
import { NAVIGATION_LABELS } from '../../../domain/texts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { CONTROL_CLASS, FormField } from '../../ui/form-field';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { useListUrl } from '../../ui/use-list-url';
import { LoadFailed } from '../assets/asset-table-parts';
import { auditLogLogic } from './audit-log-actors';

/** The URL's names of the filters. */
const URL_PARAMS: Record<AuditFilterField, string> = {
  participantId: 'organization',
  user: 'user',
  targetType: 'type',
  entityId: 'entity',
  from: 'from',
  to: 'to',
};

export const AUDIT_LOG_URL = {
  parse: (search: string): AuditLogView => {
    const { page, limit } = parsePoolsView(search);
    const params = new URLSearchParams(search);
    const named = Object.fromEntries(AUDIT_FILTER_FIELDS.map((field) => [field, params.get(URL_PARAMS[field]) ?? undefined]));
    const filters = filtersOf(named);
    return { page, limit, ...Object.fromEntries(AUDIT_FILTER_FIELDS.map((field) => [field, filters[field]])) };
  },
  serialize: (view: AuditLogView): string => {
    const search = new URLSearchParams(serializePoolsView({ page: view.page, limit: view.limit, range: 'all' }));
    const filters = filtersOf(view);
    for (const field of AUDIT_FILTER_FIELDS) if (filters[field]) search.set(URL_PARAMS[field], filters[field]);
    return search.size ? `?${search.toString()}` : '';
  },
};

const helper = createDataTableColumnHelper<AuditTrailEntry>();
const columns: readonly DataTableColumn<AuditTrailEntry>[] = [
  helper.accessor('occurredAt', {
    id: 'occurredAt',
    header: T.when,
    size: 190,
    enableSorting: false,
    cell: ({ getValue }) => new Date(getValue()).toLocaleString('en-US'),
  }),
  helper.display({ id: 'who', header: T.who, size: 240, cell: ({ row }) => auditActorWords(row.original) }),
  helper.accessor('clientAddress', {
    id: 'from',
    header: T.from,
    size: 130,
    enableSorting: false,
    cell: ({ getValue }) => getValue() ?? '—',
  }),
  helper.display({
    id: 'entity',
    header: T.entity,
    size: 220,
    cell: ({ row }) => `${row.original.targetType} ${row.original.targetId ?? ''}`.trim(),
  }),
  helper.display({ id: 'what', header: T.what, size: 380, cell: ({ row }) => auditActionWords(row.original) }),
];

const TEXT_FIELDS: readonly { field: AuditFilterField; label: string; type: 'text' | 'date' }[] = [
  { field: 'participantId', label: T.organizationField, type: 'text' },
  { field: 'user', label: T.userField, type: 'text' },
  { field: 'entityId', label: T.entityIdField, type: 'text' },
  { field: 'from', label: T.fromField, type: 'date' },
  { field: 'to', label: T.toField, type: 'date' },
];

export function AuditLogScreen() {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => auditLogLogic(services), [services]);
  const audit = useScreenActor(logic, { input: { view: AUDIT_LOG_URL.parse(location.search) } });
  const list = useSelector(audit, selectAuditList) as PagedListRef;
  useListUrl(list, AUDIT_LOG_URL);
  const failed = useSelector(list, selectHasFailed);
  const exporting = useSelector(audit, selectIsExportingAudit);
  const draft = useSelector(audit, selectAuditDraft);
  const change = (field: AuditFilterField, value: string) => audit.send({ type: 'draft.change', field, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    audit.send({ type: 'filters.apply' });
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.administration}>
            {NAVIGATION_LABELS.administration}
          </Link>
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <PageHeading>{T.logTitle}</PageHeading>
          <button
            type="button"
            className="inline-flex h-10 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60"
            disabled={exporting}
            onClick={() => audit.send({ type: 'csv.export' })}
          >
            {exporting ? T.exportingCsv : T.exportCsv}
          </button>
        </div>
        <p className="text-sm text-slate-700">{T.logIntro}</p>
      </div>
      <form role="search" aria-label={T.searchLabel} onSubmit={submit} className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
        {TEXT_FIELDS.slice(0, 2).map(({ field, label, type }) => (
          <FormField key={field} id={`audit-${field}`} label={label}>
            {(control) => (
              <input
                {...control}
                type={type}
                className={CONTROL_CLASS}
                value={draft[field] ?? ''}
                onChange={(event) => change(field, event.target.value)}
              />
            )}
          </FormField>
        ))}
        <FormField id="audit-targetType" label={T.entityTypeField}>
          {(control) => (
            <select
              {...control}
              className={CONTROL_CLASS}
              value={draft.targetType ?? ''}
              onChange={(event) => change('targetType', event.target.value)}
            >
              <option value="">{T.entityTypeAny}</option>
              {AUDIT_ENTITY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {TEXT_FIELDS.slice(2).map(({ field, label, type }) => (
          <FormField key={field} id={`audit-${field}`} label={label}>
            {(control) => (
              <input
                {...control}
                type={type}
                className={CONTROL_CLASS}
                value={draft[field] ?? ''}
                onChange={(event) => change(field, event.target.value)}
              />
            )}
          </FormField>
        ))}
        <div className="flex items-end gap-2 sm:col-span-3 lg:col-span-6">
          <button type="submit" className="h-10 rounded-md bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-600">
            {T.search}
          </button>
          <button
            type="button"
            className="h-10 rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            onClick={() => audit.send({ type: 'filters.clear' })}
          >
            {T.clear}
          </button>
        </div>
      </form>
      {failed ? (
        <LoadFailed message={T.logFailed} onRetry={() => list.send({ type: 'list.reload' })} />
      ) : (
        <div>
          <ListDataTable
            list={list}
            label={T.logTableLabel}
            columns={columns}
            getRowId={(entry) => String(entry.chainSeq)}
            loadingMessage={T.logLoading}
            emptyMessage={T.logEmpty}
          />
          <ListPagination list={list} />
        </div>
      )}
    </div>
  );
}
