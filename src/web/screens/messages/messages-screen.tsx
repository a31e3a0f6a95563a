// /messages (SPEC sections 2, 4, 5, 8 and 9): the organization's messages, newest first, a page
// at a time, with the Archived filter (off by default: archived messages hidden); select one,
// several or all on the page and act on the selection, or act on one message. The view (page,
// limit, filter) lives in the URL. The messages machine holds the page and the selection, a
// message actor per row its states; after every action the page comes again from the server and
// the app-wide unread count (the navigation badge, the dashboard tile) takes its figure.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, type FocusEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { fromPromise, sendTo } from 'xstate';
import { messageMachine, type NotifyParams } from '../../../../machines/message';
import { toastShow } from '../../../../machines/toasts';
import {
  DEFAULT_MESSAGES_VIEW,
  messageListQueryOf,
  messagesMachine,
  parseMessagesView,
  sameMessagesView,
  selectCanApplyBulk,
  selectHasFailed,
  selectIsEmpty,
  selectIsLoading,
  selectIsUpdating,
  selectPageCount,
  selectPageSelection,
  selectPageSummary,
  selectRows,
  selectSelectedIds,
  selectUnreadCount,
  selectView,
  serializeMessagesView,
} from '../../../../machines/messages';
import type { RegistryApi } from '../../../client/api';
import { MESSAGES_TEXTS as T, type BulkMessageAction } from '../../../domain/messages';
import { MessageCountActorContext, ToastsActorContext } from '../../app/actor-contexts';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { Pagination } from '../../ui/pagination';
import { LoadFailed } from '../assets/asset-table-parts';
import { MessageRow, messageRowId } from './message-row';

type ToastsRef = ReturnType<typeof ToastsActorContext.useActorRef>;
type MessageCountRef = ReturnType<typeof MessageCountActorContext.useActorRef>;

/**
 * The messages machine (and its row actors) over the app's API, toasts, router and unread count.
 * The toasts and the count are actors of the app's system: `sendTo` reaches them after the
 * machine's step.
 */
export function provideMessages(api: RegistryApi, toasts: ToastsRef, messageCount: MessageCountRef, navigate: (to: string) => void) {
  const toast = (_: unknown, { variant, message }: NotifyParams) => toastShow(variant, message);
  const message = messageMachine.provide({
    actors: { updateMessage: fromPromise(({ input, signal }) => api.updateMessage(input, signal)) },
    actions: {
      notify: sendTo(toasts, toast),
      openTarget: (_, { path }) => navigate(path),
      refreshUnreadCount: sendTo(messageCount, { type: 'messageCount.refresh' }),
    },
  });
  return messagesMachine.provide({
    actors: {
      loadMessages: fromPromise(({ input, signal }) => api.listMessages(messageListQueryOf(input.view), signal)),
      updateMessages: fromPromise(({ input, signal }) => api.updateMessages(input, signal)),
      message,
    },
    actions: {
      notify: sendTo(toasts, toast),
      reportUnreadCount: sendTo(messageCount, (_, { unreadCount }: { unreadCount: number }) => ({
        type: 'messageCount.changed' as const,
        unreadCount,
      })),
    },
  });
}

const BULK_ACTIONS: ReadonlyArray<{ action: BulkMessageAction; label: string }> = [
  { action: 'markRead', label: T.markRead },
  { action: 'markUnread', label: T.markUnread },
  { action: 'archive', label: T.archive },
  { action: 'unarchive', label: T.unarchive },
];

const ARCHIVED_FILTER_ID = 'messages-archived';

const toolButton =
  'inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

export function MessagesScreen() {
  const { api } = useAppServices();
  const toasts = ToastsActorContext.useActorRef();
  const messageCount = MessageCountActorContext.useActorRef();
  const navigate = useNavigate();
  const location = useLocation();

  // A correction (replace) is written only when the URL names another view or a malformed one. A
  // URL that names the view (or, empty, the default one) is left alone, so a navigation under way
  // elsewhere (the session going to the dashboard as this screen mounts again) is never cut short.
  const currentSearch = useRef(location.search);
  currentSearch.current = location.search;
  const logic = useMemo(
    () =>
      provideMessages(api, toasts, messageCount, (to) => void navigate(to)).provide({
        actions: {
          showView: (_, { view, replace }) => {
            const search = serializeMessagesView(view);
            const named =
              search === currentSearch.current || (currentSearch.current === '' && sameMessagesView(view, DEFAULT_MESSAGES_VIEW));
            if (replace && named) return;
            void navigate({ search }, { replace });
          },
        },
      }),
    [api, toasts, messageCount, navigate],
  );
  const list = useActorRef(logic, { input: { view: parseMessagesView(location.search) } });

  // The URL changed outside the screen (back button, a link): the machine shows that view.
  useEffect(() => {
    list.send({ type: 'view.sync', view: parseMessagesView(location.search) });
  }, [location.search, list]);

  const view = useSelector(list, selectView);
  const rows = useSelector(list, selectRows);
  const loading = useSelector(list, selectIsLoading);
  const updating = useSelector(list, selectIsUpdating);
  const failed = useSelector(list, selectHasFailed);
  const empty = useSelector(list, selectIsEmpty);
  const selectedIds = useSelector(list, selectSelectedIds);
  const pageSelection = useSelector(list, selectPageSelection);
  const unreadCount = useSelector(list, selectUnreadCount);
  const summary = useSelector(list, selectPageSummary);
  const pageCount = useSelector(list, selectPageCount);
  const canApplyBulk = useSelector(list, selectCanApplyBulk);
  const now = new Date();

  // After an action a row may leave the page (archived while archived ones are hidden): the focus
  // it held goes to the row now in its place, else to the Archived filter.
  const listRef = useRef<HTMLUListElement>(null);
  const lastFocused = useRef<{ uuid: string; index: number } | null>(null);
  const rememberFocus = (event: FocusEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-uuid]');
    if (!row || !listRef.current) return;
    lastFocused.current = { uuid: row.dataset.uuid ?? '', index: [...listRef.current.children].indexOf(row) };
  };
  useEffect(() => {
    const last = lastFocused.current;
    if (!last || document.activeElement !== document.body) return;
    const items = [...(listRef.current?.querySelectorAll<HTMLLIElement>('li[data-uuid]') ?? [])];
    const target =
      document.getElementById(messageRowId(last.uuid)) ??
      items[Math.min(last.index, items.length - 1)] ??
      document.getElementById(ARCHIVED_FILTER_ID);
    target?.focus();
  }, [rows]);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <PageHeading>{T.title}</PageHeading>
        <p role="status" className="text-sm text-slate-700">
          {unreadCount === null ? '' : T.unreadCount(unreadCount)}
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-2">
          <input
            id={ARCHIVED_FILTER_ID}
            type="checkbox"
            role="switch"
            checked={view.archived}
            className="h-4 w-4"
            onChange={(event) => list.send({ type: 'filters.archived', archived: event.target.checked })}
          />
          <label htmlFor={ARCHIVED_FILTER_ID} className="text-sm font-medium text-slate-800">
            {T.archivedFilter}
          </label>
        </div>
        <button type="button" className={toolButton} onClick={() => list.send({ type: 'list.refresh' })}>
          {T.refresh}
        </button>
      </div>
      <div
        role="group"
        aria-label={T.bulkActions}
        className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 px-4 py-2"
      >
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={pageSelection === 'all'}
            disabled={rows.length === 0}
            ref={(box) => {
              if (box) box.indeterminate = pageSelection === 'some';
            }}
            onChange={() => list.send({ type: 'selection.togglePage' })}
          />
          {T.selectAll}
        </label>
        <p className="min-w-24 text-sm text-slate-700" aria-live="polite">
          {selectedIds.length > 0 ? T.selectedCount(selectedIds.length) : ''}
        </p>
        {selectedIds.length > 0 && (
          <button
            type="button"
            className="text-sm font-medium text-brand-700 underline"
            onClick={() => list.send({ type: 'selection.clear' })}
          >
            {T.clearSelection}
          </button>
        )}
        <div className="ml-auto flex flex-wrap gap-2">
          {/* Never disabled (the focus stays); the machine takes them only while the page is shown. */}
          {BULK_ACTIONS.map(({ action, label }) => (
            <button
              key={action}
              type="button"
              className={toolButton}
              aria-disabled={!canApplyBulk}
              aria-busy={updating}
              onClick={() => list.send({ type: 'bulk.apply', action })}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      {failed ? (
        <LoadFailed message={T.failed} onRetry={() => list.send({ type: 'list.retry' })} />
      ) : (
        <div className="flex flex-col gap-2">
          {loading && rows.length === 0 ? (
            <>
              <p role="status" className="sr-only">
                {T.loading}
              </p>
              <LoadingRows count={view.limit} />
            </>
          ) : empty ? (
            <p className="rounded-lg border border-slate-200 bg-white p-8 text-center text-slate-600">{T.empty}</p>
          ) : (
            <ul
              ref={listRef}
              aria-label={T.tableLabel}
              aria-busy={loading || updating}
              tabIndex={-1}
              onFocus={rememberFocus}
              className={`overflow-hidden rounded-lg border border-slate-200 bg-white ${loading ? 'opacity-60' : ''}`}
            >
              {rows.map((ref) => {
                const uuid = ref.getSnapshot().context.message.uuid;
                return (
                  <MessageRow
                    key={ref.id}
                    messageRef={ref}
                    selected={selectedIds.includes(uuid)}
                    onToggleSelected={(id) => list.send({ type: 'selection.toggle', uuid: id })}
                    now={now}
                  />
                );
              })}
            </ul>
          )}
          <p role="status" className="sr-only">
            {loading && rows.length > 0 ? T.loading : ''}
          </p>
          <Pagination
            page={view.page}
            pageCount={pageCount}
            limit={view.limit}
            summary={summary}
            onPage={(page) => list.send({ type: 'page.go', page })}
            onPageSize={(limit) => list.send({ type: 'page.size', limit })}
          />
        </div>
      )}
    </div>
  );
}

/**
 * Placeholders of a page of messages while the first one loads, about a message's height each, so
 * the pagination and the footer do not jump down when the messages arrive (layout shift).
 */
function LoadingRows({ count }: { count: number }) {
  return (
    <ul aria-hidden="true" className="overflow-hidden rounded-lg border border-slate-200 bg-white">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className="flex h-48 flex-col gap-3 border-b sm:h-36 border-slate-100 px-4 py-3 last:border-b-0">
          <span className="h-4 w-40 rounded bg-slate-100" />
          <span className="h-4 w-3/4 rounded bg-slate-100" />
          <span className="h-8 w-56 rounded bg-slate-100" />
        </li>
      ))}
    </ul>
  );
}
