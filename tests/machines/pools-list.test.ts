import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { HttpError } from '../../src/contract/http-error';
import type { Pool, PoolListQuery } from '../../src/contract/pools';
import { parsePoolRange, poolListQuery, poolsListMachine, selectPoolRange, selectPools, type PoolRange } from '../../machines/pools-list';
import { samplePool } from '../support/loan-fixtures';

function start(range: PoolRange, load: (query: PoolListQuery) => Promise<readonly Pool[]>) {
  const queries: PoolListQuery[] = [];
  const signals: AbortSignal[] = [];
  const logic = poolsListMachine.provide({
    actors: {
      loadPools: fromPromise(({ input, signal }) => {
        queries.push(input.query);
        signals.push(signal);
        return load(input.query);
      }),
    },
  });
  return { actor: createActor(logic, { input: { range } }).start(), queries, signals };
}

describe('pools list machine', () => {
  afterEach(() => vi.useRealTimers());

  it('asks for completed pools and shows them', async () => {
    const pools = [samplePool(1), samplePool(2)];
    const { actor, queries } = start('all', async () => pools);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('loaded'));
    expect(queries).toEqual([{ state: 'COMPLETE' }]);
    expect(selectPools(snapshot)).toEqual(pools);
    expect(selectPoolRange(snapshot)).toBe('all');
  });

  it('last 30 days: the start of the local day one month ago, with its offset', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 31, 15, 30));
    const { actor, queries } = start('last30Days', async () => []);
    await waitFor(actor, (s) => s.matches('empty'));
    const completedAfter = queries[0]?.completedAfter as string;
    expect(queries[0]?.state).toBe('COMPLETE');
    // One month before March 31 is February 28 (not 30 days: March 1), at local midnight.
    expect(new Date(completedAfter).getTime()).toBe(new Date(2025, 1, 28, 0, 0, 0).getTime());
    expect(completedAfter).toMatch(/^2025-02-28T00:00:00([+-]\d{2}:\d{2}|Z)$/);
  });

  it('is empty when no pool matches, and fails and retries on an error', async () => {
    let attempts = 0;
    const { actor, signals } = start('all', async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(500, 'Internal Server Error');
      return [];
    });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'pools.retry' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('empty'));
    expect(selectPools(snapshot)).toEqual([]);
    expect(signals).toHaveLength(2);
    actor.send({ type: 'pools.retry' });
    expect(actor.getSnapshot().matches('empty')).toBe(true);
  });

  it('reads the range from the URL value, anything else meaning all', () => {
    expect(parsePoolRange('last30Days')).toBe('last30Days');
    expect(parsePoolRange(null)).toBe('all');
    expect(parsePoolRange('forever')).toBe('all');
    expect(poolListQuery('all', new Date())).toEqual({ state: 'COMPLETE' });
  });

  it('aborts the request when the screen goes away', () => {
    const { actor, signals } = start('all', () => new Promise(() => undefined));
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
  });
});
