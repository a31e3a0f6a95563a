import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { HttpError } from '../../src/contract/http-error';
import {
  assetPageMachine,
  selectCanRequestDeactivation,
  selectDetailStatus,
  selectHistory,
  selectIsNoLongerHeld,
  selectLoanDetails,
  selectUli,
  type AssetRecord,
} from '../../machines/asset-page';
import { sampleEvents, sampleLoanDetails, sampleLoanId } from '../support/loan-fixtures';

function start(loanId: string, load: (loanId: string, signal: AbortSignal) => Promise<AssetRecord>) {
  const calls: string[] = [];
  const signals: AbortSignal[] = [];
  const logic = assetPageMachine.provide({
    actors: {
      loadAsset: fromPromise(({ input, signal }) => {
        calls.push(input.loanId);
        signals.push(signal);
        return load(input.loanId, signal);
      }),
    },
  });
  return { actor: createActor(logic, { input: { loanId } }).start(), calls, signals };
}

describe('asset page machine', () => {
  it('loads details and events, keeps the visible history and the detail status', async () => {
    const { actor, calls } = start(sampleLoanId, async () => ({
      details: sampleLoanDetails({ pendingOwner: true }),
      events: sampleEvents,
    }));
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));
    expect(calls).toEqual([sampleLoanId]);
    expect(selectLoanDetails(snapshot)?.loan.loanId).toBe(sampleLoanId);
    expect(selectUli(snapshot)).toBe('5493001KJTIIGC8Y1R12ABCDEF1234567890');
    expect(selectHistory(snapshot).map((event) => event.eventType)).toEqual([
      'REGISTRATION',
      'DEACTIVATION_REQUESTED',
      'TRANSFER_OF_CONTROL',
    ]);
    expect(selectDetailStatus(snapshot)).toBe('Pending Update');
  });

  it('shows Deactivated, else the raw status', async () => {
    const deactivated = start(sampleLoanId, async () => ({
      details: sampleLoanDetails({ status: 'Inactive', deactivated: true }),
      events: [],
    }));
    expect(selectDetailStatus(await waitFor(deactivated.actor, (s) => s.matches('ready')))).toBe('Deactivated');
    const deleted = start(sampleLoanId, async () => ({ details: sampleLoanDetails({ status: 'Deleted' }), events: [] }));
    expect(selectDetailStatus(await waitFor(deleted.actor, (s) => s.matches('ready')))).toBe('Deleted');
  });

  it('offers the deactivation only to an owner or servicer of an active loan with no transfer pending', async () => {
    const owner = '00000000-0000-4000-8000-000000000001';
    const other = '00000000-0000-4000-8000-000000000002';
    const loaded = async (details: ReturnType<typeof sampleLoanDetails>) =>
      waitFor(start(sampleLoanId, async () => ({ details, events: [] })).actor, (s) => s.matches('ready'));
    const active = await loaded(sampleLoanDetails());
    expect(selectCanRequestDeactivation(active, owner)).toBe(true);
    expect(selectCanRequestDeactivation(active, other)).toBe(false);
    expect(selectCanRequestDeactivation(active, null)).toBe(false);
    expect(selectCanRequestDeactivation(await loaded(sampleLoanDetails({ status: 'Inactive', deactivated: true })), owner)).toBe(false);
    expect(selectCanRequestDeactivation(await loaded(sampleLoanDetails({ pendingOwner: true })), owner)).toBe(false);
    // Nothing is offered before the loan is there.
    const loading = start(sampleLoanId, () => new Promise(() => undefined)).actor.getSnapshot();
    expect(selectCanRequestDeactivation(loading, owner)).toBe(false);
  });

  it('refuses a malformed id without calling the server', () => {
    const { actor, calls } = start('not-a-loan', async () => {
      throw new Error('must not be called');
    });
    expect(actor.getSnapshot().matches('notFound')).toBe(true);
    expect(calls).toEqual([]);
  });

  it('ends in notFound on 404 (unknown or foreign) and on 400', async () => {
    for (const status of [404, 400]) {
      const { actor } = start(sampleLoanId, async () => {
        throw new HttpError(status, '{"message":"Loan not found"}');
      });
      await waitFor(actor, (s) => s.matches('notFound'));
    }
  });

  it('says the role moved on (not not found) on 410, from the first load and from a reload', async () => {
    const gone = new HttpError(410, '{"statusCode":410,"error":"Gone","message":"no longer"}');
    const first = start(sampleLoanId, async () => {
      throw gone;
    });
    const snapshot = await waitFor(first.actor, (s) => s.matches('noLongerHeld'));
    expect(selectIsNoLongerHeld(snapshot)).toBe(true);
    expect(snapshot.matches('notFound')).toBe(false);
    let loads = 0;
    const reloaded = start(sampleLoanId, async () => {
      loads += 1;
      if (loads === 1) return { details: sampleLoanDetails(), events: [] };
      throw gone;
    });
    await waitFor(reloaded.actor, (s) => s.matches('ready'));
    expect(selectIsNoLongerHeld(reloaded.actor.getSnapshot())).toBe(false);
    reloaded.actor.send({ type: 'asset.reload' });
    await waitFor(reloaded.actor, (s) => s.matches('noLongerHeld'));
  });

  it('fails on other errors and loads again on retry', async () => {
    let attempts = 0;
    const { actor, calls } = start(sampleLoanId, async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(500, 'Internal Server Error');
      return { details: sampleLoanDetails(), events: [] };
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectLoanDetails(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'asset.retry' });
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));
    expect(selectDetailStatus(snapshot)).toBe('Active');
    expect(calls).toHaveLength(2);
  });

  it('ignores retry unless the load failed', async () => {
    const { actor, calls } = start(sampleLoanId, async () => ({ details: sampleLoanDetails(), events: [] }));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'asset.retry' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('loads the asset again on reload, keeping the loaded one meanwhile', async () => {
    const answers: Array<() => Promise<AssetRecord>> = [
      async () => ({ details: sampleLoanDetails(), events: [] }),
      async () => ({ details: sampleLoanDetails({ pendingOwner: true }), events: sampleEvents }),
      async () => {
        throw new HttpError(404, '{"message":"Loan not found"}');
      },
      async () => ({ details: sampleLoanDetails(), events: [] }),
      async () => {
        throw new HttpError(500, 'Internal Server Error');
      },
    ];
    const { actor, calls } = start(sampleLoanId, () => (answers.shift() as () => Promise<AssetRecord>)());
    // Ignored until the asset is loaded.
    actor.send({ type: 'asset.reload' });
    let snapshot = await waitFor(actor, (s) => s.matches('ready'));
    expect(selectDetailStatus(snapshot)).toBe('Active');
    expect(snapshot.hasTag('loaded')).toBe(true);
    actor.send({ type: 'asset.reload' });
    snapshot = actor.getSnapshot();
    expect(snapshot.matches('reloading')).toBe(true);
    expect(snapshot.hasTag('loaded')).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(selectLoanDetails(snapshot)?.parties[0]?.state).toBe('CONFIRMED');
    snapshot = await waitFor(actor, (s) => s.matches('ready'));
    expect(selectDetailStatus(snapshot)).toBe('Pending Update');
    expect(selectHistory(snapshot)).toHaveLength(3);
    // A reload that finds the loan gone, or fails, says so as a first load would.
    actor.send({ type: 'asset.reload' });
    await waitFor(actor, (s) => s.matches('notFound'));
    const other = start(sampleLoanId, () => (answers.shift() as () => Promise<AssetRecord>)());
    await waitFor(other.actor, (s) => s.matches('ready'));
    other.actor.send({ type: 'asset.reload' });
    await waitFor(other.actor, (s) => s.matches('failed'));
    expect(calls).toHaveLength(3);
    expect(other.calls).toHaveLength(2);
  });

  it('aborts the load when the page goes away', () => {
    const { actor, signals } = start(sampleLoanId, () => new Promise<AssetRecord>(() => undefined));
    expect(signals[0]?.aborted).toBe(false);
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
  });
});
