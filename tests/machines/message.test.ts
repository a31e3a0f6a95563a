// The per-message machine (machines/message.ts) with a fake PATCH: its starting states, every
// single action with its SPEC toast, opening what it points to, answers, syncs and aborts.
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import {
  messageMachine,
  messageTargetPath,
  selectAnswer,
  selectIsAnswerable,
  selectIsArchived,
  selectIsRead,
  type MessageSnapshot,
  type NotifyParams,
} from '../../machines/message';
import { HttpError } from '../../src/contract/http-error';
import type { Message, MessagePatch } from '../../src/contract/messages';
import { APP_PATHS } from '../../src/domain/app-paths';
import { MESSAGES_TEXTS } from '../../src/domain/messages';
import { LONG_TEXT, sampleMessage, withData } from '../web/support/message-fixtures';

type Answer = (patch: MessagePatch) => Promise<Message>;

/** A stand-in for the list: counts `message.changed`. */
function fakeList() {
  let changes = 0;
  const actor = createActor(createMachine({ on: { 'message.changed': { actions: () => void (changes += 1) } } })).start();
  return { actor, changes: () => changes };
}

/** The message actor over a fake PATCH, told to a fake list. */
function start(message: Message, answer: Answer = async (patch) => applyPatch(message, patch)) {
  const patches: MessagePatch[] = [];
  const signals: AbortSignal[] = [];
  const toasts: NotifyParams[] = [];
  const opened: string[] = [];
  let countRefreshes = 0;
  const list = fakeList();
  const logic = messageMachine.provide({
    actors: {
      updateMessage: fromPromise(({ input, signal }) => {
        patches.push(input);
        signals.push(signal);
        return answer(input);
      }),
    },
    actions: {
      notify: (_, params) => void toasts.push(params),
      openTarget: (_, { path }) => void opened.push(path),
      refreshUnreadCount: () => void (countRefreshes += 1),
    },
  });
  const actor = createActor(logic, { input: { message, list: list.actor } }).start();
  return {
    actor,
    patches,
    signals,
    toasts,
    opened,
    changes: list.changes,
    countRefreshes: () => countRefreshes,
    settled: () => waitFor(actor, (s: MessageSnapshot) => !s.hasTag('busy')),
  };
}

/** What the server answers: the message with the change applied (a response also marks it read). */
function applyPatch(message: Message, patch: MessagePatch): Message {
  if (patch.response !== undefined) return withData(message, { response: patch.response, read: true });
  if (patch.read !== undefined) return withData(message, { read: patch.read });
  return withData(message, { archived: patch.archived ?? false });
}

const failing =
  (status: number): Answer =>
  async () => {
    throw new HttpError(status, JSON.stringify({ statusCode: status, message: 'no' }));
  };

const unread = sampleMessage(1);
const read = sampleMessage(2, { messageData: { read: true } });
const archived = sampleMessage(3, { messageData: { archived: true, read: true } });
const actionable = sampleMessage(4, { targetType: 'REQUEST_EXECUTE_CONTRACT', messageData: { isActionable: true } });

describe('message machine', () => {
  it('starts in the states the listed message is in', () => {
    const states = (message: Message) =>
      createActor(messageMachine, { input: { message, list: fakeList().actor } })
        .start()
        .getSnapshot().value;
    expect(states(unread)).toEqual({ read: 'unread', archive: 'unarchived', answer: 'notActionable', text: 'collapsed' });
    expect(states(archived)).toEqual({ read: 'read', archive: 'archived', answer: 'notActionable', text: 'collapsed' });
    expect(states(actionable)).toMatchObject({ answer: 'unanswered' });
    expect(states(withData(actionable, { response: true, read: true }))).toMatchObject({ answer: 'confirmed', read: 'read' });
    expect(states(withData(actionable, { response: false, read: true }))).toMatchObject({ answer: 'rejected' });
  });

  const singleActions = [
    {
      event: 'message.markRead',
      action: 'markRead',
      message: unread,
      patch: { read: true },
      toast: '1 message(s) marked as read',
      after: { read: 'read' },
    },
    {
      event: 'message.markUnread',
      action: 'markUnread',
      message: read,
      patch: { read: false },
      toast: '1 message(s) marked as unread',
      after: { read: 'unread' },
    },
    {
      event: 'message.archive',
      action: 'archive',
      message: unread,
      patch: { archived: true },
      toast: '1 message(s) archived',
      after: { archive: 'archived' },
    },
    {
      event: 'message.unarchive',
      action: 'unarchive',
      message: archived,
      patch: { archived: false },
      toast: '1 message(s) unarchived',
      after: { archive: 'unarchived' },
    },
  ] as const;

  for (const { event, action, message, patch, toast, after } of singleActions) {
    it(`${event}: one PATCH, the toast '${toast}', and the list told to reload`, async () => {
      const run = start(message);
      const before = run.actor.getSnapshot().value;
      run.actor.send({ type: event });
      expect(run.actor.getSnapshot().hasTag('busy')).toBe(true);
      // A second click while the call runs sends nothing more.
      run.actor.send({ type: event });
      const snapshot = await run.settled();
      expect(run.patches).toEqual([{ uuid: message.uuid, ...patch }]);
      expect(snapshot.value).toMatchObject(after);
      expect(run.toasts).toEqual([{ variant: 'success', message: toast }]);
      expect(toast).toBe(MESSAGES_TEXTS.bulkSucceeded(1, action));
      expect(run.changes()).toBe(1);
      expect(before).not.toEqual(snapshot.value);
    });

    it(`${event}: a failure says 'Failed to update message(s)' and keeps the state; 404 and 409 also reload the list`, async () => {
      for (const [status, reloads] of [
        [500, 0],
        [404, 1],
        [409, 1],
      ] as const) {
        const run = start(message, failing(status));
        const before = run.actor.getSnapshot().value;
        run.actor.send({ type: event });
        const snapshot = await run.settled();
        expect(snapshot.value).toEqual(before);
        expect(run.toasts).toEqual([{ variant: 'error', message: 'Failed to update message(s)' }]);
        expect(run.changes(), `status ${status}`).toBe(reloads);
      }
    });
  }

  it('offers each single action only from the state it changes', () => {
    const run = start(read);
    run.actor.send({ type: 'message.markRead' });
    run.actor.send({ type: 'message.unarchive' });
    run.actor.send({ type: 'message.confirm' });
    expect(run.patches).toEqual([]);
    expect(run.actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it("confirm: PATCH response true, 'Message confirmed', the answer shown and the message read", async () => {
    const run = start(actionable);
    expect(selectIsAnswerable(run.actor.getSnapshot())).toBe(true);
    run.actor.send({ type: 'message.confirm' });
    const snapshot = await run.settled();
    expect(run.patches).toEqual([{ uuid: actionable.uuid, response: true }]);
    expect(run.toasts).toEqual([{ variant: 'success', message: 'Message confirmed' }]);
    expect(selectAnswer(snapshot)).toBe(true);
    expect(selectIsAnswerable(snapshot)).toBe(false);
    expect(selectIsRead(snapshot)).toBe(true);
    expect(run.changes()).toBe(1);
    // Answered once: neither answer is offered again.
    run.actor.send({ type: 'message.reject' });
    expect(run.patches).toHaveLength(1);
  });

  it("reject: PATCH response false, 'Message rejected'", async () => {
    const run = start(actionable);
    run.actor.send({ type: 'message.reject' });
    const snapshot = await run.settled();
    expect(run.patches).toEqual([{ uuid: actionable.uuid, response: false }]);
    expect(run.toasts).toEqual([{ variant: 'success', message: 'Message rejected' }]);
    expect(selectAnswer(snapshot)).toBe(false);
  });

  it("failed answers: 'Unable to confirm message' and 'Unable to reject message'; 409 (answered meanwhile) reloads the list", async () => {
    for (const [event, text] of [
      ['message.confirm', 'Unable to confirm message'],
      ['message.reject', 'Unable to reject message'],
    ] as const) {
      for (const [status, reloads] of [
        [500, 0],
        [409, 1],
      ] as const) {
        const run = start(actionable, failing(status));
        run.actor.send({ type: event });
        const snapshot = await run.settled();
        expect(run.toasts).toEqual([{ variant: 'error', message: text }]);
        expect(snapshot.value).toMatchObject({ answer: 'unanswered', read: 'unread' });
        expect(run.changes()).toBe(reloads);
      }
    }
    expect([MESSAGES_TEXTS.confirmFailed, MESSAGES_TEXTS.rejectFailed]).toEqual(['Unable to confirm message', 'Unable to reject message']);
  });

  it('a message that takes no response offers no answer', () => {
    const run = start(unread);
    run.actor.send({ type: 'message.confirm' });
    expect(run.patches).toEqual([]);
    expect(selectIsAnswerable(run.actor.getSnapshot())).toBe(false);
    expect(selectAnswer(run.actor.getSnapshot())).toBeNull();
  });

  it('opening an unread message marks it read first, then goes to its asset and has the unread count asked again', async () => {
    const run = start(unread);
    run.actor.send({ type: 'message.open' });
    expect(run.opened).toEqual([]);
    const snapshot = await run.settled();
    expect(run.patches).toEqual([{ uuid: unread.uuid, read: true }]);
    expect(run.opened).toEqual([APP_PATHS.asset(unread.targetId)]);
    expect(run.countRefreshes()).toBe(1);
    expect(selectIsRead(snapshot)).toBe(true);
    expect(run.toasts).toEqual([]);
  });

  it('opening a read message goes there at once; a failed mark-read stays, toasts, and goes nowhere', async () => {
    const already = start(read);
    already.actor.send({ type: 'message.open' });
    expect(already.patches).toEqual([]);
    expect(already.opened).toEqual([APP_PATHS.asset(read.targetId)]);

    const failed = start(unread, failing(500));
    failed.actor.send({ type: 'message.open' });
    const snapshot = await failed.settled();
    expect(failed.opened).toEqual([]);
    expect(selectIsRead(snapshot)).toBe(false);
    expect(failed.toasts).toEqual([{ variant: 'error', message: 'Failed to update message(s)' }]);
  });

  it('leads loans and transfer requests to the asset page, pools to their assets, relationships to the partner view, batches nowhere', () => {
    const target = (targetType: Message['targetType']) => messageTargetPath({ targetType, targetId: 'abc' });
    expect(target('LOAN')).toBe(APP_PATHS.asset('abc'));
    expect(target('REQUEST_EXECUTE_CONTRACT')).toBe(APP_PATHS.asset('abc'));
    expect(target('POOL')).toBe(APP_PATHS.poolAssets('abc'));
    expect(target('RELATIONSHIP')).toBe(APP_PATHS.partnerProfile('abc'));
    expect(target('BATCH')).toBeNull();
    const run = start(sampleMessage(9, { targetType: 'BATCH' }));
    run.actor.send({ type: 'message.open' });
    expect(run.patches).toEqual([]);
    expect(run.opened).toEqual([]);
  });

  it('takes the state a reload brings, except in a region whose own call is under way', async () => {
    let finish: (message: Message) => void = () => undefined;
    const run = start(actionable, () => new Promise((resolve) => (finish = resolve)));
    run.actor.send({ type: 'message.sync', message: withData(actionable, { read: true, archived: true }) });
    expect(run.actor.getSnapshot().value).toMatchObject({ read: 'read', archive: 'archived', answer: 'unanswered' });
    run.actor.send({ type: 'message.sync', message: withData(actionable, { read: false, archived: false, response: false }) });
    expect(run.actor.getSnapshot().value).toMatchObject({ read: 'unread', archive: 'unarchived', answer: 'rejected' });

    const second = start(actionable, () => new Promise((resolve) => (finish = resolve)));
    second.actor.send({ type: 'message.archive' });
    second.actor.send({ type: 'message.sync', message: withData(actionable, { archived: false, response: true }) });
    // The archive region waits for its call; the answer region takes the server's answer.
    expect(second.actor.getSnapshot().value).toMatchObject({ archive: 'archiving', answer: 'confirmed' });
    expect(selectIsArchived(second.actor.getSnapshot())).toBe(false);
    finish(withData(actionable, { archived: true, response: true }));
    expect((await second.settled()).value).toMatchObject({ archive: 'archived' });
  });

  it('shows the whole text only of a shortened message', () => {
    const long = createActor(messageMachine, {
      input: { message: sampleMessage(5, { messageData: { message: LONG_TEXT } }), list: fakeList().actor },
    }).start();
    long.send({ type: 'message.expand' });
    expect(long.getSnapshot().value).toMatchObject({ text: 'expanded' });
    long.send({ type: 'message.collapse' });
    expect(long.getSnapshot().value).toMatchObject({ text: 'collapsed' });
    const short = createActor(messageMachine, { input: { message: unread, list: fakeList().actor } }).start();
    short.send({ type: 'message.expand' });
    expect(short.getSnapshot().value).toMatchObject({ text: 'collapsed' });
  });

  it('aborts its call when the row goes away', () => {
    const run = start(unread, () => new Promise(() => undefined));
    run.actor.send({ type: 'message.archive' });
    run.actor.stop();
    expect(run.signals[0]?.aborted).toBe(true);
  });
});
