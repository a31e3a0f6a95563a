// The caller cache's rules, on a fake clock: what is reused, for how long, and what never is.
import { describe, expect, it } from 'vitest';
import type { SessionCaller } from '../../src/server/db/identity-repository';
import { CallerCache } from '../../src/server/identity/caller-cache';

const HOUR = 60 * 60 * 1000;

function callerEndingAt(sessionExpiresAt: number, name = 'Ada'): SessionCaller {
  return {
    identity: {
      id: 'i-1',
      email: 'ada@registry.test',
      name,
      passwordHash: 'x',
      roles: {},
      manageable: true,
      webauthnUserId: null,
      createdAt: new Date(0),
    },
    sessionExpiresAt: new Date(sessionExpiresAt),
    user: null,
    namedMembership: null,
    namedContacts: [],
  };
}

function setup(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: 1_000_000 };
  const cache = new CallerCache({ ttlMs: options.ttlMs ?? 10_000, maxEntries: options.maxEntries ?? 100, now: () => clock.now });
  cache.setEnabled(true);
  let loads = 0;
  let answer: SessionCaller | undefined = callerEndingAt(clock.now + HOUR);
  const load = async () => {
    loads++;
    return answer;
  };
  return {
    cache,
    clock,
    load,
    loads: () => loads,
    answer: (next: SessionCaller | undefined) => {
      answer = next;
    },
  };
}

describe('CallerCache', () => {
  it('reuses an answer for the same session and organization until its time is up', async () => {
    const { cache, clock, load, loads } = setup({ ttlMs: 10_000 });
    await cache.get('token', 'org-a', load);
    await cache.get('token', 'org-a', load);
    expect(loads()).toBe(1);
    clock.now += 10_001;
    await cache.get('token', 'org-a', load);
    expect(loads()).toBe(2);
  });

  it('keeps organizations and sessions apart', async () => {
    const { cache, load, loads } = setup();
    await cache.get('token', 'org-a', load);
    await cache.get('token', 'org-b', load);
    await cache.get('token', null, load);
    await cache.get('other-token', 'org-a', load);
    expect(loads()).toBe(4);
  });

  it('never reuses an answer past the end of its session', async () => {
    const { cache, clock, load, loads, answer } = setup({ ttlMs: 10_000 });
    answer(callerEndingAt(clock.now + 2_000));
    await cache.get('token', 'org-a', load);
    clock.now += 2_001;
    answer(undefined);
    expect(await cache.get('token', 'org-a', load)).toBeUndefined();
    expect(loads()).toBe(2);
  });

  it('does not keep an unknown session (each try asks again)', async () => {
    const { cache, load, loads, answer } = setup();
    answer(undefined);
    await cache.get('token', null, load);
    await cache.get('token', null, load);
    expect(loads()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('forgets everything when cleared', async () => {
    const { cache, load, loads } = setup();
    await cache.get('token', 'org-a', load);
    cache.clear();
    await cache.get('token', 'org-a', load);
    expect(loads()).toBe(2);
  });

  it('does not store a lookup that was under way when the cache was cleared', async () => {
    const { cache } = setup();
    let finish: (caller: SessionCaller) => void = () => undefined;
    const slow = () => new Promise<SessionCaller | undefined>((resolve) => (finish = resolve));
    const pending = cache.get('token', 'org-a', slow);
    cache.clear();
    finish(callerEndingAt(Date.now() + HOUR, 'Before the change'));
    expect((await pending)?.identity.name).toBe('Before the change');
    const fresh = await cache.get('token', 'org-a', async () => callerEndingAt(Date.now() + HOUR, 'After the change'));
    expect(fresh?.identity.name).toBe('After the change');
  });

  it('shares one lookup between concurrent calls of a session', async () => {
    const { cache, load, loads } = setup();
    const [first, second] = await Promise.all([cache.get('token', 'org-a', load), cache.get('token', 'org-a', load)]);
    expect(loads()).toBe(1);
    expect(second).toBe(first);
  });

  it('does not keep a failed lookup', async () => {
    const { cache, load, loads } = setup();
    await expect(cache.get('token', 'org-a', () => Promise.reject(new Error('connection lost')))).rejects.toThrow('connection lost');
    await cache.get('token', 'org-a', load);
    expect(loads()).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const { cache, load, loads } = setup({ maxEntries: 2 });
    for (const token of ['a', 'b', 'c']) await cache.get(token, null, load);
    expect(cache.size).toBe(2);
    await cache.get('c', null, load);
    expect(loads()).toBe(3);
    await cache.get('a', null, load);
    expect(loads()).toBe(4);
  });

  it('asks every time while disabled, or with no time to live', async () => {
    const disabled = setup();
    disabled.cache.setEnabled(false);
    await disabled.cache.get('token', null, disabled.load);
    await disabled.cache.get('token', null, disabled.load);
    expect(disabled.loads()).toBe(2);

    const noTtl = setup({ ttlMs: 0 });
    await noTtl.cache.get('token', null, noTtl.load);
    await noTtl.cache.get('token', null, noTtl.load);
    expect(noTtl.loads()).toBe(2);
  });
});
