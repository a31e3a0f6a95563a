import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  poolAssetsMachine,
  selectIsNotFound,
  selectPageSelection,
  selectPageSummary,
  selectPaging,
  selectPoolName,
  selectSelectedIds,
  type PoolPaging,
} from '../../machines/pool-assets';
import { HttpError } from '../../src/contract/http-error';
import type { PoolDetail } from '../../src/contract/pools';
import { loanIdOf, samplePoolDetail, samplePoolId } from '../support/loan-list-fixtures';

function start(answer: (paging: PoolPaging) => PoolDetail | Error, paging: PoolPaging = { page: 1, limit: 10 }) {
  const loads: PoolPaging[] = [];
  const shown: Array<{ paging: PoolPaging; replace: boolean }> = [];
  const actor = createActor(
    poolAssetsMachine.provide({
      actors: {
        loadPage: fromPromise(async ({ input }) => {
          expect(input.poolId).toBe(samplePoolId);
          loads.push(input.paging);
          const result = answer(input.paging);
          if (result instanceof Error) throw result;
          return result;
        }),
      },
      actions: { showPaging: (_, params) => void shown.push(params) },
    }),
    { input: { poolId: samplePoolId, ...paging } },
  ).start();
  return { actor, loads, shown };
}

const of23 = ({ page, limit }: PoolPaging) =>
  samplePoolDetail((page - 1) * limit, Math.max(0, Math.min(limit, 23 - (page - 1) * limit)), 23);
const settled = (actor: ReturnType<typeof start>['actor']) => vi.waitFor(() => expect(actor.getSnapshot().hasTag('loading')).toBe(false));

describe('pool assets machine', () => {
  it("shows the pool's name and its first page", async () => {
    const { actor, shown } = start(of23);
    await settled(actor);
    expect(selectPoolName(actor.getSnapshot())).toBe('Harbor Pool 2025-03');
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 1 of 3. Items 1 through 10');
    expect(shown).toEqual([{ paging: { page: 1, limit: 10 }, replace: true }]);
  });

  it('pages, clamped, and changes the page size back to page 1', async () => {
    const { actor, loads, shown } = start(of23, { page: 2, limit: 10 });
    await settled(actor);
    actor.send({ type: 'page.go', page: 40 });
    await settled(actor);
    expect(selectPaging(actor.getSnapshot())).toEqual({ page: 3, limit: 10 });
    expect(shown.at(-1)).toEqual({ paging: { page: 3, limit: 10 }, replace: false });
    actor.send({ type: 'page.go', page: 3 });
    actor.send({ type: 'page.size', limit: 50 });
    await settled(actor);
    expect(loads).toEqual([
      { page: 2, limit: 10 },
      { page: 3, limit: 10 },
      { page: 1, limit: 50 },
    ]);
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 1 of 1. Items 1 through 23');
  });

  it('clamps a linked page past the end, replacing the URL entry; follows the back button', async () => {
    const { actor, loads, shown } = start(of23, { page: 8, limit: 10 });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    expect(loads.map((paging) => paging.page)).toEqual([8, 3]);
    expect(shown.at(-1)).toEqual({ paging: { page: 3, limit: 10 }, replace: true });
    actor.send({ type: 'view.sync', paging: { page: 1, limit: 10 } });
    await settled(actor);
    actor.send({ type: 'view.sync', paging: { page: 1, limit: 10 } });
    expect(loads).toHaveLength(3);
  });

  it('selects rows and whole pages', async () => {
    const { actor } = start(of23);
    await settled(actor);
    actor.send({ type: 'selection.toggle', loanId: loanIdOf(3) });
    expect(selectPageSelection(actor.getSnapshot())).toBe('some');
    actor.send({ type: 'selection.togglePage' });
    expect(selectSelectedIds(actor.getSnapshot())).toHaveLength(10);
    actor.send({ type: 'selection.togglePage' });
    expect(selectPageSelection(actor.getSnapshot())).toBe('none');
    actor.send({ type: 'selection.toggle', loanId: loanIdOf(3) });
    actor.send({ type: 'selection.toggle', loanId: loanIdOf(3) });
    actor.send({ type: 'selection.toggle', loanId: loanIdOf(4) });
    actor.send({ type: 'selection.clear' });
    expect(selectSelectedIds(actor.getSnapshot())).toEqual([]);
  });

  it('an unknown or foreign pool (404) and a malformed id (400) are not found; other failures can be retried', async () => {
    for (const status of [404, 400]) {
      const { actor } = start(() => new HttpError(status, '{"message":"Not Found"}'));
      await vi.waitFor(() => expect(selectIsNotFound(actor.getSnapshot())).toBe(true));
    }
    let fail = true;
    const { actor } = start((paging) => (fail ? new HttpError(500, 'boom') : of23(paging)));
    await vi.waitFor(() => expect(actor.getSnapshot().matches('failed')).toBe(true));
    fail = false;
    actor.send({ type: 'list.retry' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
  });
});
