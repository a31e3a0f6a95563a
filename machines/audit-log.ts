// /administration/audit: registry staff search the whole audit log, a configuration of the shared
// list (paged-list.ts, paged on the server by GET v2 /audit): the search form's draft (organization,
// user, entity type and id, a date range), applied as the list's filters (page 1, a new history
// entry); 'Clear' drops them; Back shows the filters the URL names. 'Export CSV' downloads the
// rows the applied filters match (Accept: text/csv): one export at a time, a failure told by a toast.
import { assign, enqueueActions, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import type { AuditLogFilters } from '../src/contract/audit';
import { AUDIT_TEXTS as T } from '../src/domain/audit-texts';
import { listFilterEvent, pagedListMachine, type ListView, type PagedListParentEvent, type PagedListRef } from './paged-list';
import { toastShow } from './toasts';

export const AUDIT_FILTER_FIELDS = ['participantId', 'user', 'targetType', 'entityId', 'from', 'to'] as const;
export type AuditFilterField = (typeof AUDIT_FILTER_FIELDS)[number];

export type AuditLogView = ListView & AuditLogFilters;

export interface AuditLogInput {
  readonly view: AuditLogView;
}

export interface AuditLogContext {
  readonly view: AuditLogView;
  /** What the search form shows (applied or not). */
  readonly draft: AuditLogFilters;
  /** The filters the list shows (and the export downloads). */
  readonly filters: AuditLogFilters;
}

export interface AuditCsv {
  readonly file: Blob;
  readonly fileName: string;
}

export type AuditLogEvent =
  | { type: 'draft.change'; field: AuditFilterField; value: string }
  | { type: 'filters.apply' }
  | { type: 'filters.clear' }
  | { type: 'csv.export' }
  | PagedListParentEvent;

/** The filters a view names, empty ones left out. */
export function filtersOf(source: object): AuditLogFilters {
  const filters: Record<string, string> = {};
  for (const field of AUDIT_FILTER_FIELDS) {
    const value = (source as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.trim() !== '') filters[field] = value.trim();
  }
  return filters;
}

/** Every filter field, the empty ones undefined: what the list's view gets (so an emptied field is dropped from it). */
const listFilters = (filters: AuditLogFilters): Record<AuditFilterField, string | undefined> =>
  Object.fromEntries(AUDIT_FILTER_FIELDS.map((field) => [field, filters[field]])) as Record<AuditFilterField, string | undefined>;

export const auditLogMachine = setup({
  types: {
    input: {} as AuditLogInput,
    context: {} as AuditLogContext,
    events: {} as AuditLogEvent,
  },
  actors: {
    // Provided by the screen: the list over GET v2 /audit.
    list: pagedListMachine,
    // Provided by the screen: the same with Accept: text/csv.
    downloadCsv: fromPromise<AuditCsv, { filters: AuditLogFilters }>(async () => {
      throw new Error('downloadCsv is provided by the screen');
    }),
  },
  actions: {
    /** Provided by the screen: hands the file to the browser. */
    saveFile: (_, _params: AuditCsv) => undefined,
    notifyExportFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', T.exportFailed)),
    changeDraft: assign(({ context, event }) =>
      event.type === 'draft.change' ? { draft: { ...context.draft, [event.field]: event.value } } : {},
    ),
    applyDraft: enqueueActions(({ context, enqueue }) => {
      const filters = filtersOf(context.draft);
      enqueue.assign({ filters });
      enqueue.sendTo('list', listFilterEvent<AuditLogView>(listFilters(filters)));
    }),
    clearFilters: enqueueActions(({ enqueue }) => {
      enqueue.assign({ filters: {}, draft: {} });
      enqueue.sendTo('list', listFilterEvent<AuditLogView>(listFilters({})));
    }),
    /** Back or a link named other filters: the form and the export follow the URL. */
    followView: assign(({ event }) => {
      if (event.type !== 'list.synced') return {};
      const filters = filtersOf(event.view);
      return { filters, draft: filters };
    }),
  },
}).createMachine({
  id: 'auditLog',
  context: ({ input }) => ({ view: input.view, draft: filtersOf(input.view), filters: filtersOf(input.view) }),
  invoke: { id: 'list', src: 'list', input: ({ context }) => ({ view: context.view, idKey: 'chainSeq' }) },
  on: {
    'draft.change': { actions: 'changeDraft' },
    'filters.apply': { actions: 'applyDraft' },
    'filters.clear': { actions: 'clearFilters' },
    'list.synced': { actions: 'followView' },
  },
  initial: 'idle',
  states: {
    idle: { on: { 'csv.export': 'exporting' } },
    exporting: {
      tags: ['busy'],
      invoke: {
        src: 'downloadCsv',
        input: ({ context }) => ({ filters: context.filters }),
        onDone: { target: 'idle', actions: { type: 'saveFile', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: 'notifyExportFailed' },
      },
    },
  },
});

type AuditLogSnapshot = SnapshotFrom<typeof auditLogMachine>;

export const selectAuditList = (snapshot: AuditLogSnapshot): PagedListRef | undefined => snapshot.children.list as PagedListRef | undefined;
export const selectIsExportingAudit = (snapshot: AuditLogSnapshot): boolean => snapshot.hasTag('busy');
export const selectAuditDraft = (snapshot: AuditLogSnapshot): AuditLogFilters => snapshot.context.draft;
