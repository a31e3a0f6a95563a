// @vitest-environment jsdom
// Model-based test of the messages list machine through the signed-in app: every transition of
// its statechart is walked on /messages (paging, page size, the Archived filter, the URL, refresh
// and retry, selection, bulk actions, a row's change) over a fake API whose message calls the
// test settles. The screen's other behaviour (every bulk text, the badge, focus, times) follows.
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messagesMachine, serializeMessagesView, type MessagesSnapshot, type MessagesView } from '../../machines/messages';
import { HttpError } from '../../src/contract/http-error';
import type { Message, MessageBulkPatch, MessageListQuery } from '../../src/contract/messages';
import { APP_PATHS } from '../../src/domain/app-paths';
import { MESSAGES_TEXTS as T, messagePreview } from '../../src/domain/messages';
import { pageSummary } from '../../src/domain/asset-table';
import { PAGINATION_TEXTS, TEXTS } from '../../src/domain/texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { LONG_TEXT, sampleMessage, sampleMessageList, withData } from './support/message-fixtures';
import {
  archivedSwitch,
  bulkGroup,
  messageItem,
  messageItems,
  messageList,
  openMessagesScreen,
  pageSummaryText,
  toastTexts,
} from './support/messages-screen';

const [first, second, third] = [
  sampleMessage(1, { messageData: { message: LONG_TEXT } }),
  sampleMessage(2, { messageData: { read: true } }),
  sampleMessage(3, { targetType: 'POOL', messageData: { read: true, archived: true } }),
] as [Message, Message, Message];
const pageOfThree = sampleMessageList([first, second, third], { totalCount: 25, unreadCount: 4 });
const nothing = sampleMessageList([], { totalCount: 0, unreadCount: 0 });
const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');
/** The screen opens on page 2, so a list that shrank can be clamped to its last page. */
const START_VIEW: MessagesView = { page: 2, limit: 10, archived: false };

/** State identity: the machine's state and the context that its guards and the screen depend on. */
const serializeState = (snapshot: MessagesSnapshot) => {
  const { view, rows, selectedIds, totalCount } = snapshot.context;
  return JSON.stringify([snapshot.value, view, rows.length, selectedIds, totalCount]);
};

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);
const VIEW_EVENTS = ['page.go', 'page.size', 'filters.archived', 'view.sync'];
const sameView = (a: MessagesView, b: MessagesView) => serializeMessagesView(a) === serializeMessagesView(b);

const walker = createModelWalker(messagesMachine, {
  input: { view: START_VIEW },
  serializeState,
  events: {
    'done: loadMessages': [{ output: pageOfThree }, { output: nothing }],
    'error: loadMessages': { error: serverError },
    'done: updateMessages': { output: { messagesUpdated: 2 } },
    'error: updateMessages': { error: serverError },
    'page.go': { page: 1 },
    'page.size': { limit: 20 },
    'filters.archived': { archived: true },
    // Following a link to the last page.
    'view.sync': { view: { page: 3, limit: 10, archived: false } },
    'selection.toggle': { uuid: first.uuid },
    'bulk.apply': { action: 'archive' },
  },
  // The state space stays small: views change, rows are selected and acted on only from the
  // first page shown (page 2, nothing selected); the other views are loaded and shown. An empty
  // answer comes on page 2 (clamped to page 1) and then on page 1 (the empty state); a failed
  // load on the first one. Only what the screen offers: 'Clear selection' with a selection.
  filterEvents: (snapshot, event) => {
    const { view, rows, selectedIds, totalCount } = snapshot.context;
    const home = sameView(view, START_VIEW);
    const shown = rows.length > 0;
    const ready = snapshot.matches({ browsing: 'ready' });
    const settledHome = ready && home && shown;
    const output = (event as { output?: unknown }).output;
    if (output === nothing) return !shown && totalCount === 0 && !view.archived && view.limit === 10;
    if (event.type.startsWith('xstate.error.actor') && snapshot.matches({ browsing: 'loading' })) return home && !shown;
    if (VIEW_EVENTS.includes(event.type)) return settledHome && selectedIds.length === 0;
    if (event.type === 'list.refresh') {
      return home && (snapshot.matches({ browsing: 'failed' }) || (shown && selectedIds.length === 0 && !snapshot.matches('updating')));
    }
    if (event.type === 'message.changed') return home && shown && selectedIds.length === 0 && !snapshot.matches({ browsing: 'failed' });
    if (event.type === 'selection.toggle') return settledHome && (selectedIds.length === 0 || sameIds(selectedIds, [first.uuid]));
    if (event.type === 'selection.togglePage') return settledHome;
    if (event.type === 'selection.clear') return settledHome && selectedIds.length > 0;
    if (event.type === 'bulk.apply') return settledHome && selectedIds.length <= 1;
    return true;
  },
});

const user = userEvent.setup();
const outputOf = (event: unknown) => (event as { output: unknown }).output;
const errorOf = (event: unknown) => (event as { error: HttpError }).error;
const checkbox = (message: Message) =>
  screen.getByRole('checkbox', { name: T.selectOne(messagePreview(message.messageData.message).text) });
const selectAll = () => screen.getByRole('checkbox', { name: T.selectAll });

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/messages/messages-screen')]);
});

describe('messages machine, driven through the messages screen', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openMessagesScreen(`${APP_PATHS.messages}${serializeMessagesView(START_VIEW)}`);
      await path.test({
        states: {
          browsing: async (snapshot) => {
            expect(screen.getByRole('heading', { level: 1, name: T.title })).toBeInTheDocument();
            // The URL names the view shown.
            await waitFor(() => expect(app.location().search).toBe(serializeMessagesView(snapshot.context.view)));
          },
          'browsing.loading': async (snapshot) => {
            await waitFor(() => expect(calls.pendingCount('listMessages')).toBe(1));
            const query = calls.pendingBodies('listMessages')[0] as MessageListQuery;
            const { view } = snapshot.context;
            expect(query).toEqual({ limit: view.limit, offset: (view.page - 1) * view.limit, archived: String(view.archived) });
            if (snapshot.context.rows.length > 0) {
              // The previous page stays on screen, marked busy.
              expect(messageList()).toHaveAttribute('aria-busy', 'true');
              expect(screen.getByText(T.loading)).toBeInTheDocument();
            } else {
              expect(await screen.findByText(T.loading)).toBeInTheDocument();
            }
          },
          'browsing.ready': async (snapshot) => {
            if (snapshot.context.rows.length > 0) {
              await waitFor(() => expect(messageList()).toHaveAttribute('aria-busy', 'false'));
              expect(messageItems()).toHaveLength(3);
              const { page, limit } = snapshot.context.view;
              expect(pageSummaryText()).toBe(pageSummary(page, limit, 25));
              expect(screen.getByText(T.unreadCount(4))).toBeInTheDocument();
              for (const message of [first, second, third]) {
                expect(checkbox(message)).toHaveProperty('checked', snapshot.context.selectedIds.includes(message.uuid));
              }
              expect(selectAll()).toHaveProperty('checked', snapshot.context.selectedIds.length === 3);
            } else {
              expect(await screen.findByText(T.empty)).toBeInTheDocument();
              expect(screen.queryByRole('list', { name: T.tableLabel })).not.toBeInTheDocument();
              expect(selectAll()).toBeDisabled();
            }
            expect(calls.pendingCount('listMessages')).toBe(0);
            for (const button of bulkGroup().getAllByRole('button', { name: /^(Mark read|Mark unread|Archive|Unarchive)$/ })) {
              expect(button).toHaveAttribute('aria-disabled', 'false');
            }
          },
          'browsing.failed': async () => {
            expect(await screen.findByText(T.failed)).toBeInTheDocument();
            expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
            expect(screen.queryByRole('list', { name: T.tableLabel })).not.toBeInTheDocument();
          },
          updating: async (snapshot) => {
            await waitFor(() => expect(calls.pendingCount('updateMessages')).toBe(1));
            const body = calls.pendingBodies('updateMessages')[0] as MessageBulkPatch;
            expect(body).toEqual({ uuids: snapshot.context.selectedIds, archived: true });
            expect(bulkGroup().getByRole('button', { name: T.archive })).toHaveAttribute('aria-busy', 'true');
          },
        },
        events: {
          'done: loadMessages': ({ event }) => calls.settle('listMessages', { value: outputOf(event) }),
          'error: loadMessages': ({ event }) => calls.settle('listMessages', { error: errorOf(event) }),
          'done: updateMessages': async ({ event }) => {
            await calls.settle('updateMessages', { value: outputOf(event) });
            await waitFor(() => expect(toastTexts()).toContain('2 message(s) archived'));
          },
          'error: updateMessages': async ({ event }) => {
            await calls.settle('updateMessages', { error: errorOf(event) });
            await waitFor(() => expect(toastTexts()).toContain(T.bulkFailed));
          },
          'page.go': () => user.click(screen.getByRole('button', { name: PAGINATION_TEXTS.first })),
          'page.size': () => user.selectOptions(screen.getByRole('combobox', { name: PAGINATION_TEXTS.pageSize }), '20'),
          'filters.archived': async () => {
            expect(archivedSwitch()).not.toBeChecked();
            await user.click(archivedSwitch());
            expect(archivedSwitch()).toBeChecked();
            // The focus stays on the filter.
            expect(document.activeElement).toBe(archivedSwitch());
          },
          'view.sync': async ({ event }) => {
            const { view } = event as { view: MessagesView };
            await act(() => app.router.navigate(`${APP_PATHS.messages}${serializeMessagesView(view)}`));
          },
          'list.refresh': () => user.click(screen.getByRole('button', { name: T.refresh })),
          'list.retry': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'selection.toggle': () => user.click(checkbox(first)),
          'selection.togglePage': () => user.click(selectAll()),
          'selection.clear': () => user.click(screen.getByRole('button', { name: T.clearSelection })),
          'bulk.apply': async ({ state }) => {
            await user.click(bulkGroup().getByRole('button', { name: T.archive }));
            if (state.context.selectedIds.length === 0) {
              await waitFor(() => expect(toastTexts()).toContain('Must select at least one message!'));
              expect(calls.pendingCount('updateMessages')).toBe(0);
            }
          },
          // A row's change went through: its read toggle, answered by the server.
          'message.changed': async () => {
            const toggle = messageItem(first.uuid).getByRole('button', { name: /^Mark (read|unread)$/ });
            const markingRead = toggle.textContent === T.markRead;
            await user.click(toggle);
            await calls.settle('updateMessage', { value: withData(first, { read: markingRead }) });
            await waitFor(() =>
              expect(toastTexts()).toContain(markingRead ? '1 message(s) marked as read' : '1 message(s) marked as unread'),
            );
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('messages screen', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('opens on page 1, 10 per page, archived hidden; a malformed URL is corrected in place', async () => {
    const { app, calls } = await openMessagesScreen();
    await calls.settle('listMessages', { value: pageOfThree });
    await screen.findByRole('list', { name: T.tableLabel });
    // The default view needs nothing written: the URL says it by leaving it out.
    expect(app.location().search).toBe('');
    expect(calls.bodies('listMessages')).toEqual([{ limit: 10, offset: 0, archived: 'false' }]);
    expect(archivedSwitch()).not.toBeChecked();
    cleanup();

    const other = await openMessagesScreen(`${APP_PATHS.messages}?page=0&limit=7&archived=maybe`);
    await other.calls.settle('listMessages', { value: pageOfThree });
    await screen.findByRole('list', { name: T.tableLabel });
    expect(other.app.location().search).toBe('?page=1&limit=10');
  });
});
