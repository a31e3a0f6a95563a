// /messages (SPEC sections 2, 4, 5, 8 and 9): the organization's messages, newest first, a page
// at a time, with the Archived filter (off by default: archived messages hidden); select one,
// several or all on the page and act on the selection, or act on one message. The view (page,
// limit, filter) lives in the URL. The shared list holds the page and the selection, the
// messages machine the bulk actions and the actors of the messages acted on; after every action
// the page comes again from the server and the app-wide unread count (the navigation badge, the
// dashboard tile) takes its figure.
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, type FocusEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { MessageActorRef } from '../../../../machines/message';
import {
  messageActorId,
  parseMessagesView,
  selectIsUpdating,
  selectList,
  selectMessageActors,
  selectUnreadCount,
  serializeMessagesView,
  type MessagesView,
  type MessageUserEvent,
} from '../../../../machines/messages';
import {
  selectHasFailed,
  selectIsEmpty,
  selectIsLoaded,
  selectIsLoading,
  selectListItems,
  selectListView,
  selectPageSelection,
  selectSelectedIds,
  type PagedListRef,
} from '../../../../machines/paged-list';
import type { Message } from '../../../contract/messages';
import { MESSAGES_TEXTS as T, type BulkMessageAction } from '../../../domain/messages';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { useListUrl } from '../../ui/use-list-url';
import { LoadFailed } from '../assets/asset-table-parts';
import { MessageRow, messageRowId } from './message-row';
import { messagesLogic } from './messages-actors';

const MESSAGES_URL = { parse: parseMessagesView, serialize: serializeMessagesView };

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
  const services = useAppServices();
  const navigate = useNavigate();
  const location = useLocation();
  const logic = useMemo(() => messagesLogic(services, (to) => void navigate(to)), [services, navigate]);
  const messages = useScreenActor(logic, { input: { view: parseMessagesView(location.search) } });
  const list = useSelector(messages, selectList) as PagedListRef;
  useListUrl(list, MESSAGES_URL);

  const view = useSelector(list, selectListView<MessagesView>);
  const rows = useSelector(list, selectListItems<Message>);
  const loading = useSelector(list, selectIsLoading);
  const loaded = useSelector(list, selectIsLoaded);
  const failed = useSelector(list, selectHasFailed);
  const empty = useSelector(list, selectIsEmpty);
  const selectedIds = useSelector(list, selectSelectedIds);
  const pageSelection = useSelector(list, selectPageSelection);
  const updating = useSelector(messages, selectIsUpdating);
  const unreadCount = useSelector(messages, selectUnreadCount);
  const actors = useSelector(messages, selectMessageActors);
  const actorOf = useMemo(() => new Map<string, MessageActorRef>(actors.map((ref) => [ref.id, ref])), [actors]);
  const canApplyBulk = (loaded || empty) && !updating;
  const act = (message: Message, event: MessageUserEvent) => messages.send({ type: 'message.act', message, event });
  const now = new Date();

  // After an action a row may leave the page (archived while archived ones are hidden): the focus
  // it held goes to the row now in its place, else to the Archived filter. Only a focus the page
  // took away is given back: focus moves after the user's own action, never on a load.
  const listRef = useRef<HTMLUListElement>(null);
  const lastFocused = useRef<{ uuid: string; index: number; element: HTMLElement } | null>(null);
  const rememberFocus = (event: FocusEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-uuid]');
    if (!row || !listRef.current) return;
    lastFocused.current = { uuid: row.dataset.uuid ?? '', index: [...listRef.current.children].indexOf(row), element: event.target };
  };
  useEffect(() => {
    const last = lastFocused.current;
    if (!last || last.element.isConnected || document.activeElement !== document.body) return;
    lastFocused.current = null;
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
            onChange={(event) => list.send({ type: 'list.filter', filters: { archived: event.target.checked } })}
          />
          <label htmlFor={ARCHIVED_FILTER_ID} className="text-sm font-medium text-slate-800">
            {T.archivedFilter}
          </label>
        </div>
        <button type="button" className={toolButton} onClick={() => list.send({ type: 'list.reload' })}>
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
              onClick={() => messages.send({ type: 'bulk.apply', action, uuids: selectedIds })}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      {failed ? (
        <LoadFailed message={T.failed} onRetry={() => list.send({ type: 'list.reload' })} />
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
              {rows.map((message) => (
                <MessageRow
                  key={message.uuid}
                  message={message}
                  messageRef={actorOf.get(messageActorId(message.uuid))}
                  selected={selectedIds.includes(message.uuid)}
                  onToggleSelected={(id) => list.send({ type: 'selection.toggle', id })}
                  onAct={act}
                  now={now}
                />
              ))}
            </ul>
          )}
          <p role="status" className="sr-only">
            {loading && rows.length > 0 ? T.loading : ''}
          </p>
          <ListPagination list={list} />
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
