// The messages machine (machines/messages.ts) with fake calls: its list (paged-list.ts) loading
// the view, bulk actions on the selection with SPEC's texts, a message's actor spawned only when
// the user acts on it, and the unread count reported after every load.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { messageMachine, type NotifyParams } from '../../machines/message';
import {
  bulkPatchOf,
  messageActorId,
  messageListQueryOf,
  messagesMachine,
  parseMessagesView,
  selectList,
  selectMessageActors,
  serializeMessagesView,
  type MessagesView,
} from '../../machines/messages';
import { pagedListOf, selectIsEmpty, selectListItems, selectSelectedIds, type PagedListRef } from '../../machines/paged-list';
import { HttpError } from '../../src/contract/http-error';
import type { Message, MessageBulkPatch, MessageBulkResult, MessageList } from '../../src/contract/messages';
import { MESSAGES_TEXTS, type BulkMessageAction } from '../../src/domain/messages';
import { LONG_TEXT, sampleMessage, sampleMessageList, withData } from '../web/support/message-fixtures';

const view: MessagesView = { page: 1, limit: 10, archived: false };
const page = (first: number, count: number) => Array.from({ length: count }, (_, i) => sampleMessage(first + i));
const serverError = new HttpError(500, 'Internal Server Error');

interface Fakes {
  load?: (view: MessagesView) => Promise<MessageList>;
  bulk?: (patch: MessageBulkPatch) => Promise<MessageBulkResult>;
}

function start(initial: MessagesView, fakes: Fakes) {
  const loads: MessagesView[] = [];
  const bulks: MessageBulkPatch[] = [];
  const updates: unknown[] = [];
  const toasts: NotifyParams[] = [];
  const counts: number[] = [];
  const logic = messagesMachine.provide({
    actors: {
      list: pagedListOf(async (shown) => {
        loads.push(shown as MessagesView);
        const { messages, totalCount, unreadCount } = await (fakes.load ?? (async () => sampleMessageList([])))(shown as MessagesView);
        return { items: messages, totalCount, unreadCount };
      }),
      updateMessages: fromPromise(({ input }) => {
        bulks.push(input);
        return (fakes.bulk ?? (async (patch) => ({ messagesUpdated: patch.uuids.length })))(input);
      }),
      message: messageMachine.provide({
        actors: {
          updateMessage: fromPromise(async ({ input }) => {
            updates.push(input);
            return withData(sampleMessage(1), { read: input.read ?? false, archived: false });
          }),
        },
        actions: { notify: (_, params) => void toasts.push(params) },
      }),
    },
    actions: {
      notify: (_, params) => void toasts.push(params),
      reportUnreadCount: (_, { unreadCount }) => void counts.push(unreadCount),
    },
  });
  const actor = createActor(logic, { input: { view: initial } }).start();
  const list = () => selectList(actor.getSnapshot()) as PagedListRef;
  const ready = async () => {
    await waitFor(list(), (s) => s.matches('loaded') || s.matches('empty'));
    await waitFor(actor, (s) => s.matches('idle'));
    return list().getSnapshot();
  };
  /** A bulk button: the action on what the list has selected. */
  const bulk = (action: BulkMessageAction) => actor.send({ type: 'bulk.apply', action, uuids: selectSelectedIds(list().getSnapshot()) });
  return { actor, list, loads, bulks, updates, toasts, counts, ready, bulk };
}

describe('messages machine', () => {
  it('loads the page the URL names (newest first is the server order), starts no actor for its messages, and reports the unread count', async () => {
    const messages = page(1, 3);
    const run = start(
      { page: 2, limit: 20, archived: true },
      { load: async () => sampleMessageList(messages, { totalCount: 23, unreadCount: 7 }) },
    );
    expect(run.list().getSnapshot().hasTag('loading')).toBe(true);
    const snapshot = await run.ready();
    expect(run.loads).toEqual([{ page: 2, limit: 20, archived: true }]);
    expect(messageListQueryOf(run.loads[0] as MessagesView)).toEqual({ limit: 20, offset: 20, archived: 'true' });
    expect(selectListItems<Message>(snapshot)).toEqual(messages);
    expect(selectMessageActors(run.actor.getSnapshot())).toEqual([]);
    expect(Object.keys(run.actor.getSnapshot().children)).toEqual(['list']);
    expect(run.counts).toEqual([7]);
    expect(run.actor.getSnapshot().context.unreadCount).toBe(7);
  });

  it("spawns a message's actor when the user first acts on it, and hands it every later event", async () => {
    const first = sampleMessage(1, { messageData: { message: LONG_TEXT } });
    const run = start(view, { load: async () => sampleMessageList([first, sampleMessage(2)]) });
    await run.ready();
    run.actor.send({ type: 'message.act', message: first, event: { type: 'message.expand' } });
    const [ref] = selectMessageActors(run.actor.getSnapshot());
    expect(ref?.id).toBe(messageActorId(first.uuid));
    expect(ref?.getSnapshot().matches({ text: 'expanded' })).toBe(true);
    run.actor.send({ type: 'message.act', message: first, event: { type: 'message.collapse' } });
    expect(selectMessageActors(run.actor.getSnapshot())).toEqual([ref]);
    expect(ref?.getSnapshot().matches({ text: 'collapsed' })).toBe(true);
  });

  it("a bulk action with nothing selected says 'Must select at least one message!' and sends nothing", async () => {
    const run = start(view, { load: async () => sampleMessageList(page(1, 2)) });
    await run.ready();
    run.bulk('archive');
    expect(run.toasts).toEqual([{ variant: 'error', message: 'Must select at least one message!' }]);
    expect(MESSAGES_TEXTS.selectAtLeastOne).toBe('Must select at least one message!');
    expect(run.bulks).toEqual([]);
    expect(run.actor.getSnapshot().matches('idle')).toBe(true);
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
      for (const id of chosen) run.list().send({ type: 'selection.toggle', id });
      run.bulk(action);
      expect(run.actor.getSnapshot().hasTag('updating')).toBe(true);
      // A second bulk action waits for the first.
      run.bulk('archive');
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
    run.list().send({ type: 'selection.togglePage' });
    run.bulk('markRead');
    const snapshot = await run.ready();
    expect(run.toasts).toEqual([{ variant: 'error', message: 'Failed to update message(s)' }]);
    expect(run.loads).toHaveLength(1);
    expect(selectSelectedIds(snapshot)).toHaveLength(2);
  });

  it("reloads when a message's change went through: its actor kept while it is shown (stopped when not), selection cleared", async () => {
    const [first, second, third] = page(1, 3) as [Message, Message, Message];
    let answer = sampleMessageList([first, second]);
    const run = start(view, { load: async () => answer });
    await run.ready();
    run.list().send({ type: 'selection.togglePage' });
    answer = sampleMessageList([withData(first, { read: true }), third]);
    run.actor.send({ type: 'message.act', message: first, event: { type: 'message.markRead' } });
    run.actor.send({ type: 'message.act', message: second, event: { type: 'message.expand' } });
    const [firstRef, secondRef] = selectMessageActors(run.actor.getSnapshot());
    await waitFor(run.list(), (s) => s.hasTag('loading'));
    await run.ready();
    expect(run.updates).toEqual([{ uuid: first.uuid, read: true }]);
    expect(selectMessageActors(run.actor.getSnapshot())).toEqual([firstRef]);
    expect(firstRef?.getSnapshot().value).toMatchObject({ read: 'read' });
    expect(secondRef?.getSnapshot().status).toBe('stopped');
    expect(selectSelectedIds(run.list().getSnapshot())).toEqual([]);
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
    await waitFor(run.list(), (s) => s.matches('failed'));
    expect(run.counts).toEqual([]);
    run.list().send({ type: 'list.reload' });
    expect(selectIsEmpty(await run.ready())).toBe(true);
    run.list().send({ type: 'list.reload' });
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
