import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { HttpError } from '../../src/contract/http-error';
import type { LoanListQuery } from '../../src/contract/loans';
import { ASSET_COUNT_QUERY, assetCountMachine, selectAssetCount } from '../../machines/asset-count';

function start(count: (query: LoanListQuery) => Promise<number>) {
  const queries: LoanListQuery[] = [];
  const signals: AbortSignal[] = [];
  const logic = assetCountMachine.provide({
    actors: {
      countAssets: fromPromise(({ input, signal }) => {
        queries.push(input.query);
        signals.push(signal);
        return count(input.query);
      }),
    },
  });
  return { actor: createActor(logic).start(), queries, signals };
}

describe('asset count machine', () => {
  it('counts with a first page of 10 and the default five roles', async () => {
    const { actor, queries } = start(async () => 1234);
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(selectAssetCount(actor.getSnapshot())).toBeNull();
    const snapshot = await waitFor(actor, (s) => s.matches('loaded'));
    expect(selectAssetCount(snapshot)).toBe(1234);
    expect(queries).toEqual([{ limit: 10, offset: 0, participantRoles: 'OWNER,CONTROLLER,SERVICER,SUB_SERVICER,SECURED_PARTY' }]);
    expect(ASSET_COUNT_QUERY.limit).toBe(10);
  });

  it('fails, and counts again on retry', async () => {
    let attempts = 0;
    const { actor } = start(async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(503, 'Service Unavailable');
      return 0;
    });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'assetCount.retry' });
    const snapshot = await waitFor(actor, (s) => s.matches('loaded'));
    expect(selectAssetCount(snapshot)).toBe(0);
    actor.send({ type: 'assetCount.retry' });
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
  });

  it('aborts the count when the organization changes (the actor stops)', () => {
    const { actor, signals } = start(() => new Promise(() => undefined));
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
  });
});
