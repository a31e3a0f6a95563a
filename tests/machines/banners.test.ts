// The banners machine: each banner checked on its own (SPEC section 8's report), newest first,
// only the active ones of this app, the limits of SPEC section 9 by placement, and dismissals kept
// by id and updatedAt (an edited banner comes back).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { bannersMachine, parseBannerFile, selectInvalidCount, selectIsSettled, selectVisibleBanners } from '../../machines/banners';
import { BANNER_DATA_INVALID, bannerDismissalKey } from '../../src/domain/banners';
import { EDITED_FILE, FILE, NEWEST, NEWEST_EDITED, OLDER, OLDEST } from '../support/banner-fixtures';

function start(files: Array<() => Promise<unknown>>, dismissed: string[] = []) {
  const reportInvalid = vi.fn();
  const rememberDismissals = vi.fn();
  const loads = [...files];
  const actor = createActor(
    bannersMachine.provide({
      actors: { loadBannerFile: fromPromise(() => (loads.shift() ?? (() => Promise.resolve([])))()) },
      actions: { reportInvalid: (_, params) => reportInvalid(params), rememberDismissals: (_, params) => rememberDismissals(params.keys) },
    }),
    { input: { app: 'registry', dismissed } },
  ).start();
  return { actor, reportInvalid, rememberDismissals };
}

const settle = () => vi.advanceTimersByTimeAsync(0);
const messages = (actor: ReturnType<typeof start>['actor'], placement: 'default' | 'shell' | 'dashboard') =>
  selectVisibleBanners(actor.getSnapshot(), placement).map((banner) => banner.message);

describe('banners machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the valid banners newest first and counts the malformed ones', () => {
    const parsed = parseBannerFile(FILE);
    expect(parsed.invalidCount).toBe(3);
    expect(parsed.banners.map((banner) => banner.uuid)).toEqual([
      '55555555-5555-4555-8555-555555555555',
      '44444444-4444-4444-8444-444444444444',
      NEWEST.uuid,
      OLDER.uuid,
      OLDEST.uuid,
    ]);
    expect(parseBannerFile({ banners: [] })).toEqual({ banners: [], invalidCount: 1 });
  });

  it('shows the active banners of this app: 2 by default, 1 on the dashboard and the shell', async () => {
    const { actor, reportInvalid } = start([async () => FILE]);
    expect(selectIsSettled(actor.getSnapshot())).toBe(false);
    await settle();
    expect(selectIsSettled(actor.getSnapshot())).toBe(true);
    expect(messages(actor, 'default')).toEqual([NEWEST.message, OLDER.message]);
    expect(messages(actor, 'dashboard')).toEqual([NEWEST.message]);
    expect(messages(actor, 'shell')).toEqual([NEWEST.message]);
    expect(selectInvalidCount(actor.getSnapshot())).toBe(3);
    expect(reportInvalid).toHaveBeenCalledWith({ count: 3 });
  });

  it('reports malformed banners on the console with SPEC section 8’s message', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const actor = createActor(bannersMachine.provide({ actors: { loadBannerFile: fromPromise(async (): Promise<unknown> => FILE) } }), {
      input: { app: 'registry', dismissed: [] },
    }).start();
    await settle();
    expect(error).toHaveBeenCalledWith(expect.stringContaining(BANNER_DATA_INVALID));
    error.mockRestore();
    actor.stop();
  });

  it('dismisses a dismissable banner, remembers it, and shows the next one', async () => {
    const { actor, rememberDismissals } = start([async () => FILE]);
    await settle();
    actor.send({ type: 'banner.dismiss', uuid: NEWEST.uuid });
    expect(rememberDismissals).toHaveBeenLastCalledWith([bannerDismissalKey(NEWEST)]);
    expect(messages(actor, 'default')).toEqual([OLDER.message, OLDEST.message]);
    // A banner that is not dismissable stays.
    actor.send({ type: 'banner.dismiss', uuid: OLDEST.uuid });
    expect(messages(actor, 'default')).toContain(OLDEST.message);
    expect(rememberDismissals).toHaveBeenCalledTimes(1);
  });

  it('brings an edited banner back, and forgets the dismissal of the old version', async () => {
    const { actor, rememberDismissals } = start([async () => FILE, async () => EDITED_FILE], [bannerDismissalKey(NEWEST)]);
    await settle();
    expect(messages(actor, 'shell')).toEqual([OLDER.message]);
    actor.send({ type: 'banners.reload' });
    // The banners shown stay while the file is read again.
    expect(messages(actor, 'shell')).toEqual([OLDER.message]);
    await settle();
    expect(messages(actor, 'shell')).toEqual([NEWEST_EDITED.message]);
    expect(rememberDismissals).toHaveBeenLastCalledWith([]);
  });

  it('shows no banner when the file cannot be read, or takes more than 3 s; a reload tries again', async () => {
    const failed = start([() => Promise.reject(new Error('502'))]);
    await settle();
    expect(failed.actor.getSnapshot().matches('failed')).toBe(true);
    expect(selectIsSettled(failed.actor.getSnapshot())).toBe(true);
    const slow = start([() => new Promise(() => {}), async () => [OLDER]]);
    await vi.advanceTimersByTimeAsync(2999);
    expect(selectIsSettled(slow.actor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(slow.actor.getSnapshot().matches('failed')).toBe(true);
    slow.actor.send({ type: 'banners.reload' });
    await settle();
    expect(messages(slow.actor, 'default')).toEqual([OLDER.message]);
  });

  it('keeps the banners shown when a reload fails', async () => {
    const { actor } = start([async () => [OLDER], () => Promise.reject(new Error('502'))]);
    await settle();
    actor.send({ type: 'banners.reload' });
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(messages(actor, 'default')).toEqual([OLDER.message]);
  });
});
