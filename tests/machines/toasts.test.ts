import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { MAX_VISIBLE_TOASTS, TOAST_TIMEOUT_MS } from '../../src/domain/constants';
import { toastsMachine, visibleToasts } from '../../machines/toasts';

describe('toasts machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const show = (actor: ReturnType<typeof createActor<typeof toastsMachine>>, message: string) =>
    actor.send({ type: 'toast.show', variant: 'info', message });
  const messages = (actor: ReturnType<typeof createActor<typeof toastsMachine>>) =>
    visibleToasts(actor.getSnapshot().context).map((toast) => toast.message);

  it('shows a toast and removes it after 6000 ms', () => {
    const actor = createActor(toastsMachine).start();
    show(actor, 'Saved');
    expect(messages(actor)).toEqual(['Saved']);
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS - 1);
    expect(messages(actor)).toEqual(['Saved']);
    vi.advanceTimersByTime(1);
    expect(messages(actor)).toEqual([]);
    expect(actor.getSnapshot().matches('empty')).toBe(true);
  });

  it('shows at most five; a queued toast shows, with a full timeout, when one leaves', () => {
    const actor = createActor(toastsMachine).start();
    for (let i = 1; i <= 7; i += 1) show(actor, `t${i}`);
    expect(messages(actor)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(MAX_VISIBLE_TOASTS).toBe(5);
    vi.advanceTimersByTime(1000);
    actor.send({ type: 'toast.dismiss', id: 2 });
    expect(messages(actor)).toEqual(['t1', 't3', 't4', 't5', 't6']);
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS - 1000);
    // t1, t3, t4, t5 expired at 6000 ms; t6 became visible at 1000 ms, so it stays; t7 took a slot at 6000 ms.
    expect(messages(actor)).toEqual(['t6', 't7']);
    vi.advanceTimersByTime(1000);
    expect(messages(actor)).toEqual(['t7']);
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS);
    expect(messages(actor)).toEqual([]);
  });

  it('ignores dismissing an unknown toast', () => {
    const actor = createActor(toastsMachine).start();
    show(actor, 'one');
    actor.send({ type: 'toast.dismiss', id: 99 });
    expect(messages(actor)).toEqual(['one']);
    actor.send({ type: 'toast.dismiss', id: 1 });
    expect(actor.getSnapshot().matches('empty')).toBe(true);
  });
});
