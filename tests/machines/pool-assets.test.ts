import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { pagedListOf, selectListView, selectPageSummary, type ListView } from '../../machines/paged-list';
import {
  parsePagingView,
  poolAssetsMachine,
  selectIsNotFound,
  selectList,
  selectPoolName,
  serializePagingView,
  type PoolAssetsPage,
} from '../../machines/pool-assets';
import { HttpError } from '../../src/contract/http-error';
import { samplePoolDetail } from '../support/loan-list-fixtures';

function start(answer: (view: ListView) => PoolAssetsPage | Error, view: ListView = { page: 1, limit: 10 }) {
  const loads: ListView[] = [];
  const actor = createActor(
    poolAssetsMachine.provide({
      actors: {
        list: pagedListOf(async (shown) => {
          loads.push(shown);
          const result = answer(shown);
          if (result instanceof Error) throw result;
          return result;
        }),
      },
    }),
    { input: { view, returnTo: '/assets/pools?completed=last30Days' } },
  ).start();
  const list = () => selectList(actor.getSnapshot());
  return { actor, loads, list };
}

const of23 = ({ page, limit }: ListView): PoolAssetsPage => {
  const { pool, loans, totalCount } = samplePoolDetail((page - 1) * limit, Math.max(0, Math.min(limit, 23 - (page - 1) * limit)), 23);
  return { items: loans, totalCount, pool };
};

describe('pool assets machine', () => {
  it("shows the pool's name with its first page, and keeps where 'Back to pools' goes", async () => {
    const { actor, list } = start(of23);
    await vi.waitFor(() => expect(selectPoolName(actor.getSnapshot())).toBe('Harbor Pool 2025-03'));
    const snapshot = list()?.getSnapshot();
    expect(snapshot && selectPageSummary(snapshot)).toBe('Page 1 of 3. Items 1 through 10');
    expect(actor.getSnapshot().context.returnTo).toBe('/assets/pools?completed=last30Days');
  });

  it('clamps a linked page past the end', async () => {
    const { list, loads } = start(of23, { page: 8, limit: 10 });
    await vi.waitFor(() => expect(list()?.getSnapshot().matches('loaded')).toBe(true));
    expect(loads.map((view) => view.page)).toEqual([8, 3]);
    expect(selectListView(list()!.getSnapshot())).toEqual({ page: 3, limit: 10 });
  });

  it('an unknown or foreign pool (404) and a malformed id (400) are not found; other failures can be retried', async () => {
    for (const status of [404, 400]) {
      const { actor, list } = start(() => new HttpError(status, '{"message":"Not Found"}'));
      await vi.waitFor(() => expect(selectIsNotFound(actor.getSnapshot())).toBe(true));
      expect(list()).toBeUndefined();
    }
    let fail = true;
    const { actor, list } = start((view) => (fail ? new HttpError(500, 'boom') : of23(view)));
    await vi.waitFor(() => expect(list()?.getSnapshot().matches('failed')).toBe(true));
    expect(selectIsNotFound(actor.getSnapshot())).toBe(false);
    fail = false;
    list()?.send({ type: 'list.reload' });
    await vi.waitFor(() => expect(list()?.getSnapshot().matches('loaded')).toBe(true));
  });

  it('reads and writes page and limit in the URL', () => {
    expect(parsePagingView('?page=3&limit=20')).toEqual({ page: 3, limit: 20 });
    expect(parsePagingView('?page=x&limit=7')).toEqual({ page: 1, limit: 10 });
    expect(serializePagingView({ page: 2, limit: 50 })).toBe('?page=2&limit=50');
  });
});
