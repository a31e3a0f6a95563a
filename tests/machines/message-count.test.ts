import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { HttpError } from '../../src/contract/http-error';
import { messageCountMachine, selectHasFailed, selectIsLoading, selectUnreadBadge, selectUnreadCount } from '../../machines/message-count';

interface Load {
  readonly signal: AbortSignal;
  resolve(count: number): void;
  reject(error: unknown): void;
}

/** An actor whose count loads stay pending until the test settles them. */
function start() {
  const loads: Load[] = [];
  const actor = createActor(
    messageCountMachine.provide({
      actors: {
        fetchUnreadCount: fromPromise(
          ({ signal }) =>
            new Promise<number>((resolve, reject) => {
              loads.push({ signal, resolve, reject });
            }),
        ),
      },
    }),
  ).start();
  const last = () => {
    const load = loads.at(-1);
    if (!load) throw new Error('no load was made');
    return load;
  };
  return { actor, loads, last };
}

const serverError = new HttpError(500, 'Internal Server Error');
/** Lets settled promises reach the machine. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('message count machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads nothing until the organization is known, then loads its count once', async () => {
    const { actor, loads, last } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    // The messages screen cannot report a count before sign-in, nor ask for one.
    actor.send({ type: 'messageCount.changed', unreadCount: 4 });
    actor.send({ type: 'messageCount.refresh' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectUnreadCount(actor.getSnapshot())).toBeNull();
    expect(loads).toHaveLength(0);

    actor.send({ type: 'messageCount.load' });
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    expect(loads).toHaveLength(1);
    last().resolve(12);
    await settle();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ active: 'loaded' })).toBe(true);
    expect(selectUnreadCount(snapshot)).toBe(12);
    expect(selectUnreadBadge(snapshot)).toBe('9+');
    expect(selectIsLoading(snapshot)).toBe(false);
  });

  it('shows the count under the cap as it is, and no badge for none', async () => {
    const { actor, last } = start();
    actor.send({ type: 'messageCount.load' });
    last().resolve(9);
    await settle();
    expect(selectUnreadBadge(actor.getSnapshot())).toBe('9');
    actor.send({ type: 'messageCount.changed', unreadCount: 0 });
    expect(selectUnreadCount(actor.getSnapshot())).toBe(0);
    expect(selectUnreadBadge(actor.getSnapshot())).toBeNull();
  });

  it('drops the old count at once on an organization switch and aborts a load under way', async () => {
    const { actor, loads, last } = start();
    actor.send({ type: 'messageCount.load' });
    last().resolve(7);
    await settle();
    expect(selectUnreadCount(actor.getSnapshot())).toBe(7);

    actor.send({ type: 'messageCount.load' });
    expect(selectUnreadCount(actor.getSnapshot())).toBeNull();
    expect(selectUnreadBadge(actor.getSnapshot())).toBeNull();
    expect(loads).toHaveLength(2);
    // Switched again before the answer: the second organization's answer is never shown.
    actor.send({ type: 'messageCount.load' });
    expect(loads[1]?.signal.aborted).toBe(true);
    loads[1]?.resolve(99);
    await settle();
    expect(selectUnreadCount(actor.getSnapshot())).toBeNull();
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    last().resolve(2);
    await settle();
    expect(selectUnreadCount(actor.getSnapshot())).toBe(2);
  });

  it('takes the count the messages screen reports, also while a load is under way (which it ends)', async () => {
    const { actor, loads, last } = start();
    actor.send({ type: 'messageCount.load' });
    actor.send({ type: 'messageCount.changed', unreadCount: 3 });
    expect(actor.getSnapshot().matches({ active: 'loaded' })).toBe(true);
    expect(selectUnreadCount(actor.getSnapshot())).toBe(3);
    expect(loads[0]?.signal.aborted).toBe(true);
    last().resolve(50);
    await settle();
    expect(selectUnreadCount(actor.getSnapshot())).toBe(3);
    actor.send({ type: 'messageCount.changed', unreadCount: 11 });
    expect(selectUnreadCount(actor.getSnapshot())).toBe(11);
    expect(loads).toHaveLength(1);
  });

  it('loads again on refresh, keeping the count shown meanwhile; a refresh during a load starts it over', async () => {
    const { actor, loads, last } = start();
    actor.send({ type: 'messageCount.load' });
    last().resolve(5);
    await settle();
    actor.send({ type: 'messageCount.refresh' });
    expect(loads).toHaveLength(2);
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    expect(selectUnreadCount(actor.getSnapshot())).toBe(5);
    actor.send({ type: 'messageCount.refresh' });
    expect(loads).toHaveLength(3);
    expect(loads[1]?.signal.aborted).toBe(true);
    last().resolve(4);
    await settle();
    expect(actor.getSnapshot().matches({ active: 'loaded' })).toBe(true);
    expect(selectUnreadCount(actor.getSnapshot())).toBe(4);
  });

  it('a failed load shows no count, is not retried by itself, and loads again when asked', async () => {
    const { actor, loads, last } = start();
    actor.send({ type: 'messageCount.load' });
    last().resolve(6);
    await settle();
    actor.send({ type: 'messageCount.refresh' });
    last().reject(serverError);
    await settle();
    let snapshot = actor.getSnapshot();
    expect(selectHasFailed(snapshot)).toBe(true);
    expect(selectUnreadCount(snapshot)).toBeNull();
    expect(selectUnreadBadge(snapshot)).toBeNull();
    // No retry, however long it waits (SPEC section 9).
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(loads).toHaveLength(2);

    actor.send({ type: 'messageCount.refresh' });
    expect(selectHasFailed(actor.getSnapshot())).toBe(false);
    last().resolve(1);
    await settle();
    snapshot = actor.getSnapshot();
    expect(selectUnreadCount(snapshot)).toBe(1);
    expect(selectUnreadBadge(snapshot)).toBe('1');
  });

  it('a failed load leaves the count to the messages screen or a switch', async () => {
    const { actor, last } = start();
    actor.send({ type: 'messageCount.load' });
    last().reject(serverError);
    await settle();
    actor.send({ type: 'messageCount.changed', unreadCount: 2 });
    expect(actor.getSnapshot().matches({ active: 'loaded' })).toBe(true);
    actor.send({ type: 'messageCount.refresh' });
    last().reject(serverError);
    await settle();
    actor.send({ type: 'messageCount.load' });
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
  });

  it('never loads by itself: no timer, no second load without an event', async () => {
    const { actor, loads, last } = start();
    actor.send({ type: 'messageCount.load' });
    last().resolve(3);
    await settle();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(loads).toHaveLength(1);
    expect(actor.getSnapshot().matches({ active: 'loaded' })).toBe(true);
  });

  it('forgets the count on sign-out and aborts a load under way', async () => {
    const { actor, loads, last } = start();
    actor.send({ type: 'messageCount.load' });
    last().resolve(8);
    await settle();
    actor.send({ type: 'messageCount.reset' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectUnreadCount(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'messageCount.load' });
    actor.send({ type: 'messageCount.reset' });
    expect(loads[1]?.signal.aborted).toBe(true);
    loads[1]?.resolve(30);
    await settle();
    expect(selectUnreadCount(actor.getSnapshot())).toBeNull();
    expect(loads).toHaveLength(2);
  });
});
