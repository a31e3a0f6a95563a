// The messages list machine (machines/messages.ts) with fake calls: the view in the URL, paging
// and the Archived filter, selection, bulk actions with SPEC's texts, the per-row message actors
// and the unread count reported after every load.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { messageMachine, type MessageActorRef, type NotifyParams } from '../../machines/message';
import {
  bulkPatchOf,
  messageActorId,
  messageListQueryOf,
  messagesMachine,
  parseMessagesView,
  selectIsEmpty,
  selectPageSelection,
  selectPageSummary,
  selectRows,
  selectSelectedIds,
  serializeMessagesView,
  type MessagesSnapshot,
  type MessagesView,
} from '../../machines/messages';
import { HttpError } from '../../src/contract/http-error';
import type { Message, MessageBulkPatch, MessageBulkResult, MessageList } from '../../src/contract/messages';
import { MESSAGES_TEXTS, type BulkMessageAction } from '../../src/domain/messages';
import { sampleMessage, sampleMessageList, withData } from '../web/support/message-fixtures';

const view: MessagesView = { page: 1, limit: 10, archived: false };
const page = (first: number, count: number) => Array.from({ length: count }, (_, i) => sampleMessage(first + i));
const serverError = new HttpError(500, 'Internal Server Error');

interface Fakes {
  load?: (view: MessagesView) => Promise<MessageList>;
  bulk?: (patch: MessageBulkPatch) => Promise<MessageBulkResult>;
  update?: (message: Message) => Promise<Message>;
}

function start(initial: MessagesView, fakes: Fakes) {
  const loads: MessagesView[] = [];
  const bulks: MessageBulkPatch[] = [];
  const shownViews: { view: MessagesView; replace: boolean }[] = [];
  const toasts: NotifyParams[] = [];
  const counts: number[] = [];
  const logic = messagesMachine.provide({
    actors: {
      loadMessages: fromPromise(({ input }) => {
        loads.push(input.view);
        return (fakes.load ?? (async () => sampleMessageList([])))(input.view);
      }),
      updateMessages: fromPromise(({ input }) => {
        bulks.push(input);
        return (fakes.bulk ?? (async (patch) => ({ messagesUpdated: patch.uuids.length })))(input);
      }),
      message: messageMachine.provide({
        actors: {
          updateMessage: fromPromise(async ({ input }) => withData(sampleMessage(1), { read: input.read ?? false, archived: false })),
        },
        actions: { notify: (_, params) => void toasts.push(params) },
      }),
    },
    actions: {
      showView: (_, params) => void shownViews.push(params),
      notify: (_, params) => void toasts.push(params),
      reportUnreadCount: (_, { unreadCount }) => void counts.push(unreadCount),
    },
  });
  const actor = createActor(logic, { input: { view: initial } }).start();
  const ready = () => waitFor(actor, (s: MessagesSnapshot) => s.matches({ browsing: 'ready' }));
  return { actor, loads, bulks, shownViews, toasts, counts, ready };
}

describe('messages machine', () => {
  it('loads the page the URL names (newest first is the server order), one actor per message, and reports the unread count', async () => {
    const messages = page(1, 3);
    const run = start(
      { page: 2, limit: 20, archived: true },
      { load: async () => sampleMessageList(messages, { totalCount: 23, unreadCount: 7 }) },
    );
    expect(run.shownViews).toEqual([{ view: { page: 2, limit: 20, archived: true }, replace: true }]);
    expect(run.actor.getSnapshot().hasTag('loading')).toBe(true);
    const snapshot = await run.ready();
    expect(run.loads).toEqual([{ page: 2, limit: 20, archived: true }]);
    expect(messageListQueryOf(run.loads[0] as MessagesView)).toEqual({ limit: 20, offset: 20, archived: 'true' });
    expect(selectRows(snapshot).map((ref) => ref.id)).toEqual(messages.map((m) => messageActorId(m.uuid)));
    expect(selectRows(snapshot).map((ref) => ref.getSnapshot().context.message)).toEqual(messages);
    expect(run.counts).toEqual([7]);
    expect(selectPageSummary(snapshot)).toBe('Page 2 of 2. Items 21 through 23');
  });

  it('pages, changes the page size and the Archived filter as new history entries; the filter starts again at page 1', async () => {
    const run = start(view, { load: async () => sampleMessageList(page(1, 10), { totalCount: 45 }) });
    await run.ready();
    run.actor.send({ type: 'page.go', page: 3 });
    await run.ready();
    run.actor.send({ type: 'page.size', limit: 20 });
    await run.ready();
    run.actor.send({ type: 'page.go', page: 2 });
    await run.ready();
    run.actor.send({ type: 'filters.archived', archived: true });
    await run.ready();
    // The same view again changes nothing.
    run.actor.send({ type: 'filters.archived', archived: true });
    run.actor.send({ type: 'page.go', page: 1 });
    expect(run.loads).toEqual([
      view,
      { page: 3, limit: 10, archived: false },
      { page: 1, limit: 20, archived: false },
      { page: 2, limit: 20, archived: false },
      { page: 1, limit: 20, archived: true },
    ]);
    expect(run.shownViews.slice(1)).toEqual(run.loads.slice(1).map((shown) => ({ view: shown, replace: false })));
    expect(run.counts).toHaveLength(5);
  });

  it('clamps a page past the end (the URL, or a list that shrank) to the last page, in place', async () => {
    const run = start(
      { page: 9, limit: 10, archived: false },
      { load: async (v) => sampleMessageList(v.page === 9 ? [] : page(1, 2), { totalCount: 12 }) },
    );
    await run.ready();
    expect(run.loads.map((v) => v.page)).toEqual([9, 2]);
    expect(run.shownViews.at(-1)).toEqual({ view: { page: 2, limit: 10, archived: false }, replace: true });
    // Asking for page 50 of 2 goes to page 2: already shown, nothing loads.
    run.actor.send({ type: 'page.go', page: 50 });
    expect(run.loads).toHaveLength(2);
  });

  it('follows the URL (back button) without pushing it again', async () => {
    const run = start(view, { load: async () => sampleMessageList(page(1, 2)) });
    await run.ready();
    run.actor.send({ type: 'view.sync', view: { ...view, archived: true } });
    await run.ready();
    run.actor.send({ type: 'view.sync', view: { ...view, archived: true } });
    expect(run.loads).toEqual([view, { ...view, archived: true }]);
    expect(run.shownViews).toHaveLength(1);
  });

  it('selects one, several, or all on the page, and clears', async () => {
    const messages = page(1, 3);
    const run = start(view, { load: async () => sampleMessageList(messages) });
    await run.ready();
    const ids = messages.map((m) => m.uuid);
    run.actor.send({ type: 'selection.toggle', uuid: ids[1] as string });
    expect(selectSelectedIds(run.actor.getSnapshot())).toEqual([ids[1]]);
    expect(selectPageSelection(run.actor.getSnapshot())).toBe('some');
    run.actor.send({ type: 'selection.togglePage' });
    expect([...selectSelectedIds(run.actor.getSnapshot())].sort()).toEqual([...ids].sort());
    expect(selectPageSelection(run.actor.getSnapshot())).toBe('all');
    run.actor.send({ type: 'selection.togglePage' });
    expect(selectPageSelection(run.actor.getSnapshot())).toBe('none');
    run.actor.send({ type: 'selection.toggle', uuid: ids[0] as string });
    run.actor.send({ type: 'selection.toggle', uuid: 'not-on-this-page' });
    expect(selectSelectedIds(run.actor.getSnapshot())).toEqual([ids[0]]);
    run.actor.send({ type: 'selection.clear' });
    expect(selectSelectedIds(run.actor.getSnapshot())).toEqual([]);
  });

  it("a bulk action with nothing selected says 'Must select at least one message!' and sends nothing", async () => {
    const run = start(view, { load: async () => sampleMessageList(page(1, 2)) });
    await run.ready();
    run.actor.send({ type: 'bulk.apply', action: 'archive' });
    expect(run.toasts).toEqual([{ variant: 'error', message: 'Must select at least one message!' }]);
    expect(MESSAGES_TEXTS.selectAtLeastOne).toBe('Must select at least one message!');
    expect(run.bulks).toEqual([]);
    expect(run.actor.getSnapshot().matches({ browsing: 'ready' })).toBe(true);
  });

  const bulkCases: [BulkMessageAction, MessageBulkPatch, string][] = [
    ['archive', { uuids: [], archived: true }, '3 message(s) archived'],
    ['unarchive', { uuids: [], archived: false }, '3 message(s) unarchived'],
    ['markRead', { uuids: [], read: true }, '3 message(s) marked as read'],
    ['markUnread', { uuids: [], read: false }, '3 message(s) marked as unread'],
  ];
  for (const [action, body, toast] of bulkCases) {
    it(`bulk ${action}: PATCH the selection, '${toast}' from messagesUpdated, reload, selection cleared`, async () => {
      const messages = page(1, 4);
      const run = start(view, { load: async () => sampleMessageList(messages), bulk: async () => ({ messagesUpdated: 3 }) });
      await run.ready();
      const chosen = messages.slice(0, 2).map((m) => m.uuid);
      for (const uuid of chosen) run.actor.send({ type: 'selection.toggle', uuid });
      run.actor.send({ type: 'bulk.apply', action });
      expect(run.actor.getSnapshot().hasTag('updating')).toBe(true);
      // Paging waits for the bulk action.
      run.actor.send({ type: 'page.go', page: 2 });
      const snapshot = await run.ready();
      expect(run.bulks).toEqual([{ ...body, uuids: chosen }]);
      expect(bulkPatchOf(action, chosen)).toEqual({ ...body, uuids: chosen });
      // The count is the server's (3), not the selection's (2).
      expect(run.toasts).toEqual([{ variant: 'success', message: toast }]);
      expect(run.loads).toEqual([view, view]);
      expect(run.counts).toHaveLength(2);
      expect(selectSelectedIds(snapshot)).toEqual([]);
    });
  }

  it("a failed bulk action says 'Failed to update message(s)', keeps the selection and does not reload", async () => {
    const messages = page(1, 2);
    const run = start(view, { load: async () => sampleMessageList(messages), bulk: () => Promise.reject(serverError) });
    await run.ready();
    run.actor.send({ type: 'selection.togglePage' });
    run.actor.send({ type: 'bulk.apply', action: 'markRead' });
    const snapshot = await run.ready();
    expect(run.toasts).toEqual([{ variant: 'error', message: 'Failed to update message(s)' }]);
    expect(run.loads).toHaveLength(1);
    expect(selectSelectedIds(snapshot)).toHaveLength(2);
  });

  it("reloads when a row's change went through: same actors for messages still shown, others stopped, new ones spawned, selection cleared", async () => {
    const [first, second, third] = page(1, 3) as [Message, Message, Message];
    let answer = sampleMessageList([first, second]);
    const run = start(view, { load: async () => answer });
    const before = selectRows(await run.ready());
    run.actor.send({ type: 'selection.togglePage' });
    const [firstRef, secondRef] = before as [MessageActorRef, MessageActorRef];
    answer = sampleMessageList([withData(first, { read: true }), third]);
    firstRef.send({ type: 'message.markRead' });
    await waitFor(run.actor, (s) => s.matches({ browsing: 'loading' }));
    const after = selectRows(await run.ready());
    expect(after[0]).toBe(firstRef);
    expect(after[0]?.getSnapshot().value).toMatchObject({ read: 'read' });
    expect(after[1]?.id).toBe(messageActorId(third.uuid));
    expect(secondRef.getSnapshot().status).toBe('stopped');
    expect(selectSelectedIds(run.actor.getSnapshot())).toEqual([]);
    expect(run.toasts).toEqual([{ variant: 'success', message: '1 message(s) marked as read' }]);
    expect(run.counts).toHaveLength(2);
  });

  it('shows the failure and loads again on retry; an empty view is empty; refresh loads again', async () => {
    let attempts = 0;
    const run = start(view, {
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw serverError;
        return sampleMessageList([]);
      },
    });
    await waitFor(run.actor, (s) => s.matches({ browsing: 'failed' }));
    expect(run.counts).toEqual([]);
    run.actor.send({ type: 'list.retry' });
    expect(selectIsEmpty(await run.ready())).toBe(true);
    run.actor.send({ type: 'list.refresh' });
    await run.ready();
    expect(attempts).toBe(3);
    expect(run.counts).toEqual([0, 0]);
  });

  it('reads the view from the URL (malformed values fall back) and writes page and limit always, the filter when on', () => {
    expect(parseMessagesView('')).toEqual({ page: 1, limit: 10, archived: false });
    expect(parseMessagesView('?page=3&limit=50&archived=true')).toEqual({ page: 3, limit: 50, archived: true });
    expect(parseMessagesView('?page=-2&limit=7&archived=yes')).toEqual({ page: 1, limit: 10, archived: false });
    expect(serializeMessagesView({ page: 2, limit: 20, archived: false })).toBe('?page=2&limit=20');
    expect(serializeMessagesView({ page: 1, limit: 100, archived: true })).toBe('?page=1&limit=100&archived=true');
  });
});
