// The asset list page cache's rules, on a fake clock: what is reused, for how long, what an
// emptying removes (also from loads under way) and how much is kept.
import { describe, expect, it } from 'vitest';
import { LoanPageCache } from '../../src/server/db/loan-page-cache';

function setup(options: { ttlMs?: number; maxBytes?: number } = {}) {
  const clock = { now: 1_000_000 };
  const cache = new LoanPageCache({ ttlMs: options.ttlMs ?? 60_000, maxBytes: options.maxBytes ?? 1_000_000, now: () => clock.now });
  cache.setEnabled(true);
  let loads = 0;
  const load = (page: string) => async () => {
    loads++;
    return page;
  };
  return { cache, clock, load, loads: () => loads };
}

/** A load that answers when told to. */
function deferred() {
  let answer: (page: string) => void = () => undefined;
  const page = new Promise<string>((resolve) => (answer = resolve));
  return { load: () => page, answer };
}

describe('LoanPageCache', () => {
  it('reuses a page for the same key until its time is up', async () => {
    const { cache, clock, load, loads } = setup({ ttlMs: 60_000 });
    expect(await cache.get('a', load('page 1'))).toBe('page 1');
    expect(await cache.get('a', load('page 2'))).toBe('page 1');
    expect(loads()).toBe(1);
    clock.now += 60_001;
    expect(await cache.get('a', load('page 3'))).toBe('page 3');
    expect(loads()).toBe(2);
  });

  it('keeps keys apart', async () => {
    const { cache, load } = setup();
    await cache.get('org-a', load('a'));
    expect(await cache.get('org-b', load('b'))).toBe('b');
    expect(cache.size).toBe(2);
  });

  it('forgets every page when emptied', async () => {
    const { cache, load, loads } = setup();
    await cache.get('a', load('old'));
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await cache.get('a', load('new'))).toBe('new');
    expect(loads()).toBe(2);
  });

  it('does not store a page whose load was under way when the cache was emptied', async () => {
    const { cache, load } = setup();
    const slow = deferred();
    const before = cache.get('a', slow.load);
    cache.clear();
    slow.answer('read before the change');
    expect(await before).toBe('read before the change');
    expect(cache.size).toBe(0);
    expect(await cache.get('a', load('read after the change'))).toBe('read after the change');
  });

  it('shares one load among concurrent calls for a key, but not across an emptying', async () => {
    const { cache, load, loads } = setup();
    const shared = deferred();
    const first = cache.get('a', shared.load);
    const second = cache.get('a', load('not asked'));
    shared.answer('one load');
    expect([await first, await second]).toEqual(['one load', 'one load']);
    expect(loads()).toBe(0);

    const stale = deferred();
    const before = cache.get('b', stale.load);
    cache.clear();
    const after = cache.get('b', load('after'));
    stale.answer('before');
    expect([await before, await after]).toEqual(['before', 'after']);
  });

  it('asks the loader every time while disabled (no change channel) and after setEnabled(false)', async () => {
    const { cache, load, loads } = setup();
    cache.setEnabled(false);
    await cache.get('a', load('x'));
    await cache.get('a', load('x'));
    expect(loads()).toBe(2);
    expect(cache.size).toBe(0);
    const off = new LoanPageCache({ ttlMs: 60_000, maxBytes: 0 });
    off.setEnabled(true);
    let offLoads = 0;
    await off.get('a', async () => `${++offLoads}`);
    expect(await off.get('a', async () => `${++offLoads}`)).toBe('2');
  });

  it('keeps at most maxBytes, dropping the least recently used page first', async () => {
    // Each entry: key 1 char + page 49 chars = 50 UTF-16 units = 100 bytes.
    const { cache, load, loads } = setup({ maxBytes: 250 });
    const page = (letter: string) => letter.repeat(49);
    await cache.get('a', load(page('a')));
    await cache.get('b', load(page('b')));
    await cache.get('a', load(page('a'))); // a is now the most recently used
    await cache.get('c', load(page('c')));
    expect(cache.size).toBe(2);
    expect(cache.byteSize).toBe(200);
    const before = loads();
    await cache.get('a', load(page('a')));
    expect(loads()).toBe(before);
    await cache.get('b', load(page('b')));
    expect(loads()).toBe(before + 1);
  });

  it('does not keep a page larger than the whole cache', async () => {
    const { cache, load } = setup({ maxBytes: 50 });
    expect(await cache.get('a', load('x'.repeat(100)))).toHaveLength(100);
    expect(cache.size).toBe(0);
  });

  it('passes a failed load on and keeps nothing of it', async () => {
    const { cache, load } = setup();
    await expect(cache.get('a', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('a', load('recovered'))).toBe('recovered');
  });
});
