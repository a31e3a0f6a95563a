// The users of one organization (/administration/organizations/:organizationUuid/users; SPEC
// sections 2 and 9): a configuration of the shared list (paged-list.ts: page, limit and
// sort in the URL, paged and sorted on the server) with the actions on a pending invitation:
// Resend (a new link, which the admin then has in hand to copy), Revoke, and Copy link. The
// organization's name is read beside the list for the heading; without it the heading stands alone.
import { assertEvent, assign, enqueueActions, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isHttpError } from '../src/contract/http-error';
import { ORGANIZATION_USER_SORTS, type OrganizationUser } from '../src/contract/organization-users';
import type { Participant } from '../src/contract/participants';
import { isPageSize, pageOffset, type PageSize } from '../src/domain/asset-table';
import { DEFAULT_PAGE_SIZE } from '../src/domain/constants';
import { ORGANIZATION_USERS_TEXTS as T } from '../src/domain/organization-users';
import { pagedListMachine, type ListSort, type ListView, type PagedListParentEvent, type PagedListRef } from './paged-list';
import { toastShow } from './toasts';

export type OrganizationUserSort = (typeof ORGANIZATION_USER_SORTS)[number];
export interface OrganizationUsersView extends ListView {
  /** Part of a name or email ('' for every member). */
  readonly query: string;
}

export const DEFAULT_ORGANIZATION_USERS_VIEW: OrganizationUsersView = {
  page: 1,
  limit: DEFAULT_PAGE_SIZE as PageSize,
  sort: null,
  query: '',
};

const isSort = (value: string | null): value is OrganizationUserSort =>
  (ORGANIZATION_USER_SORTS as readonly (string | null)[]).includes(value);

/** The view a URL names (`?page=2&limit=20&sort=email&direction=desc&query=ada`); anything malformed falls back to its default. */
export function parseOrganizationUsersView(search: string): OrganizationUsersView {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  const column = params.get('sort');
  const sort: ListSort | null = isSort(column) ? { column, direction: params.get('direction') === 'desc' ? 'desc' : 'asc' } : null;
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    limit: isPageSize(limit) ? limit : DEFAULT_ORGANIZATION_USERS_VIEW.limit,
    sort,
    query: (params.get('query') ?? '').trim().slice(0, 200),
  };
}

/** The URL search of a view: only what differs from the first page of the default size, by name. */
export function serializeOrganizationUsersView(view: OrganizationUsersView): string {
  const params = new URLSearchParams();
  if (view.page !== 1 || view.limit !== DEFAULT_PAGE_SIZE) {
    params.set('page', String(view.page));
    params.set('limit', String(view.limit));
  }
  if (view.sort) {
    params.set('sort', view.sort.column);
    params.set('direction', view.sort.direction);
  }
  if (view.query) params.set('query', view.query);
  return params.size ? `?${params.toString()}` : '';
}

/** GET v2 /participants/{participantId}/users query of a view (by name when unsorted). */
export const organizationUsersQueryOf = (view: OrganizationUsersView) => ({
  limit: view.limit,
  offset: pageOffset(view.page, view.limit),
  sort: (view.sort?.column ?? 'name') as OrganizationUserSort,
  direction: view.sort?.direction ?? 'asc',
  ...(view.query ? { query: view.query } : {}),
});

export interface OrganizationUsersInput {
  readonly participantId: string;
  readonly view: OrganizationUsersView;
}

export interface OrganizationUsersContext {
  readonly participantId: string;
  readonly view: OrganizationUsersView;
  /** The organization's name for the heading; null until read (or when it cannot be). */
  readonly organizationName: string | null;
  /** Invitation links the admin has in hand (from a resend), by user id. */
  readonly links: Readonly<Record<string, string>>;
  /** The member an invitation action is under way (or was last asked) for. */
  readonly target: OrganizationUser | null;
}

export type OrganizationUsersEvent =
  | { type: 'invitation.resend'; user: OrganizationUser }
  | { type: 'invitation.revoke'; user: OrganizationUser }
  | { type: 'link.copy'; user: OrganizationUser }
  | PagedListParentEvent;

const errorText = (error: unknown, fallback: string) =>
  isHttpError(error) && error.status >= 400 && error.status < 500 && error.serverMessage ? `${fallback} ${error.serverMessage}` : fallback;

export const organizationUsersListMachine = setup({
  types: {
    input: {} as OrganizationUsersInput,
    context: {} as OrganizationUsersContext,
    events: {} as OrganizationUsersEvent,
  },
  actors: {
    // Provided by the screen: the list over GET v2 /participants/{participantId}/users.
    list: pagedListMachine,
    // Provided by the screen: GET v2 /participants/{participantId} (the heading's name).
    loadOrganization: fromPromise<Participant, { participantId: string }>(async () => {
      throw new Error('loadOrganization is provided by the screen');
    }),
    // Provided by the screen: POST and DELETE .../users/{userId}/invitation.
    resendInvitation: fromPromise<{ invitationLink: string }, { participantId: string; userId: string }>(async () => {
      throw new Error('resendInvitation is provided by the screen');
    }),
    revokeInvitation: fromPromise<void, { participantId: string; userId: string }>(async () => {
      throw new Error('revokeInvitation is provided by the screen');
    }),
    // Provided by the screen: the link to the clipboard.
    copyLink: fromPromise<void, { link: string }>(async () => {
      throw new Error('copyLink is provided by the screen');
    }),
  },
  guards: {
    hasLink: ({ context, event }) => event.type === 'link.copy' && context.links[event.user.userId] !== undefined,
  },
  actions: {
    keepName: assign(({ event }) => ({ organizationName: (event as unknown as { output: Participant }).output.name })),
    keepTarget: assign(({ event }) => {
      assertEvent(event, ['invitation.resend', 'invitation.revoke', 'link.copy']);
      return { target: event.user };
    }),
    keepLink: assign(({ context, event }) => {
      const { invitationLink } = (event as unknown as { output: { invitationLink: string } }).output;
      return context.target ? { links: { ...context.links, [context.target.userId]: invitationLink } } : {};
    }),
    dropLink: assign(({ context }) => {
      if (!context.target) return {};
      const links = { ...context.links };
      delete links[context.target.userId];
      return { links };
    }),
    reloadList: enqueueActions(({ enqueue }) => enqueue.sendTo('list', { type: 'list.reload' })),
    // The app's toasts actor (machines/app-root.ts): the screen's machine runs as a child of the root.
    notifyResent: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.resent)),
    notifyResendFailed: sendTo(
      ({ system }) => system.get('toasts'),
      ({ event }) => toastShow('error', errorText((event as unknown as { error: unknown }).error, T.resendFailed)),
    ),
    notifyRevoked: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.revoked)),
    notifyRevokeFailed: sendTo(
      ({ system }) => system.get('toasts'),
      ({ event }) => toastShow('error', errorText((event as unknown as { error: unknown }).error, T.revokeFailed)),
    ),
    notifyCopied: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.linkCopied)),
    notifyCopyFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', T.copyFailed)),
    /** Provided by the screen: the focus to the new link (a resend), so it can be copied at once. */
    focusLink: (_, _params: { userId: string }) => undefined,
  },
}).createMachine({
  id: 'organizationUsersList',
  context: ({ input }) => ({ participantId: input.participantId, view: input.view, organizationName: null, links: {}, target: null }),
  invoke: { id: 'list', src: 'list', input: ({ context }) => ({ view: context.view, idKey: 'userId' }) },
  type: 'parallel',
  states: {
    /** The organization's name for the heading, read beside the list. */
    organization: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadOrganization',
            input: ({ context }) => ({ participantId: context.participantId }),
            onDone: { target: 'named', actions: 'keepName' },
            // The heading goes without the name (the call may not be offered to this caller).
            onError: { target: 'unnamed' },
          },
        },
        named: {},
        unnamed: {},
      },
    },
    /** One invitation action at a time; the others wait for it. */
    invitations: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'invitation.resend': { target: 'resending', actions: 'keepTarget' },
            'invitation.revoke': { target: 'revoking', actions: 'keepTarget' },
            'link.copy': { guard: 'hasLink', target: 'copying', actions: 'keepTarget' },
          },
        },
        resending: {
          tags: ['busy'],
          invoke: {
            src: 'resendInvitation',
            input: ({ context }) => ({ participantId: context.participantId, userId: context.target?.userId ?? '' }),
            onDone: {
              target: 'idle',
              actions: [
                'keepLink',
                'notifyResent',
                'reloadList',
                { type: 'focusLink', params: ({ context }) => ({ userId: context.target?.userId ?? '' }) },
              ],
            },
            onError: { target: 'idle', actions: 'notifyResendFailed' },
          },
        },
        revoking: {
          tags: ['busy'],
          invoke: {
            src: 'revokeInvitation',
            input: ({ context }) => ({ participantId: context.participantId, userId: context.target?.userId ?? '' }),
            onDone: { target: 'idle', actions: ['dropLink', 'notifyRevoked', 'reloadList'] },
            onError: { target: 'idle', actions: 'notifyRevokeFailed' },
          },
        },
        copying: {
          invoke: {
            src: 'copyLink',
            input: ({ context }) => ({ link: context.links[context.target?.userId ?? ''] ?? '' }),
            onDone: { target: 'idle', actions: 'notifyCopied' },
            onError: { target: 'idle', actions: 'notifyCopyFailed' },
          },
        },
      },
    },
  },
});

export type OrganizationUsersSnapshot = SnapshotFrom<typeof organizationUsersListMachine>;

export const selectUsersList = (snapshot: OrganizationUsersSnapshot): PagedListRef | undefined =>
  snapshot.children.list as PagedListRef | undefined;
export const selectOrganizationName = (snapshot: OrganizationUsersSnapshot): string | null => snapshot.context.organizationName;
export const selectLinks = (snapshot: OrganizationUsersSnapshot): Readonly<Record<string, string>> => snapshot.context.links;
export const selectIsBusy = (snapshot: OrganizationUsersSnapshot): boolean => snapshot.hasTag('busy');
/** The member whose invitation action is under way. */
export const selectBusyUserId = (snapshot: OrganizationUsersSnapshot): string | null =>
  snapshot.hasTag('busy') ? (snapshot.context.target?.userId ?? null) : null;
/** What the screen sends its machine. */
export type OrganizationUsersListSend = (event: Exclude<OrganizationUsersEvent, PagedListParentEvent>) => void;
