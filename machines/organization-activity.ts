// /administration/organizations/:organizationUuid/activity: an organization's audit log, newest
// first, a configuration of the shared list (paged-list.ts, paged on the server by GET v2
// /participants/{participantId}/activity), with 'Export CSV' (every row, Accept: text/csv): one
// export at a time, a failure told by a toast.
import { fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { ORGANIZATION_TEXTS as T } from '../src/domain/administration-texts';
import { pagedListMachine, type ListView, type PagedListParentEvent, type PagedListRef } from './paged-list';
import { toastShow } from './toasts';

export interface OrganizationActivityInput {
  readonly organizationId: string;
  readonly view: ListView;
}

export interface ActivityCsv {
  readonly file: Blob;
  readonly fileName: string;
}

export type OrganizationActivityEvent = { type: 'csv.export' } | PagedListParentEvent;

export const organizationActivityMachine = setup({
  types: {
    input: {} as OrganizationActivityInput,
    context: {} as OrganizationActivityInput,
    events: {} as OrganizationActivityEvent,
  },
  actors: {
    // Provided by the screen: the list over GET v2 /participants/{participantId}/activity.
    list: pagedListMachine,
    // Provided by the screen: the same with Accept: text/csv.
    downloadCsv: fromPromise<ActivityCsv, { organizationId: string }>(async () => {
      throw new Error('downloadCsv is provided by the screen');
    }),
  },
  actions: {
    /** Provided by the screen: hands the file to the browser. */
    saveFile: (_, _params: ActivityCsv) => undefined,
    notifyExportFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', T.exportFailed)),
  },
}).createMachine({
  id: 'organizationActivity',
  context: ({ input }) => input,
  invoke: { id: 'list', src: 'list', input: ({ context }) => ({ view: context.view, idKey: 'id' }) },
  initial: 'idle',
  states: {
    idle: { on: { 'csv.export': 'exporting' } },
    exporting: {
      tags: ['busy'],
      invoke: {
        src: 'downloadCsv',
        input: ({ context }) => ({ organizationId: context.organizationId }),
        onDone: { target: 'idle', actions: { type: 'saveFile', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: 'notifyExportFailed' },
      },
    },
  },
});

type OrganizationActivitySnapshot = SnapshotFrom<typeof organizationActivityMachine>;

export const selectActivityList = (snapshot: OrganizationActivitySnapshot): PagedListRef | undefined => snapshot.children.list;
export const selectIsExportingActivity = (snapshot: OrganizationActivitySnapshot): boolean => snapshot.hasTag('busy');
