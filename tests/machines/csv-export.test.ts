import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { csvExportMachine, csvRequestOf, selectIsExporting, type CsvExportRequest } from '../../machines/csv-export';
import { DEFAULT_ASSET_LIST_VIEW } from '../../src/domain/asset-table';

function start(download: (request: CsvExportRequest) => Promise<Blob>) {
  const saved: Array<{ file: Blob; fileName: string }> = [];
  const notifyFailed = vi.fn();
  const actor = createActor(
    csvExportMachine.provide({
      actors: { downloadCsv: fromPromise(async ({ input }) => ({ file: await download(input), fileName: 'assets.csv' })) },
      actions: { saveFile: (_, file) => void saved.push(file), notifyFailed },
    }),
  ).start();
  return { actor, saved, notifyFailed };
}

describe('csv export machine', () => {
  it('exports the selection when there is one, else the whole scope', () => {
    const scope: CsvExportRequest = { kind: 'filtered', view: DEFAULT_ASSET_LIST_VIEW };
    expect(csvRequestOf([], scope)).toBe(scope);
    expect(csvRequestOf(['a', 'b'], scope)).toEqual({ kind: 'loans', loanIds: ['a', 'b'] });
    expect(csvRequestOf([], { kind: 'pool', poolId: 'p' })).toEqual({ kind: 'pool', poolId: 'p' });
  });

  it('shows progress while downloading, then saves the file', async () => {
    let finish: (blob: Blob) => void = () => undefined;
    const requests: CsvExportRequest[] = [];
    const { actor, saved, notifyFailed } = start((request) => {
      requests.push(request);
      return new Promise((resolve) => (finish = resolve));
    });
    actor.send({ type: 'csv.export', request: { kind: 'loans', loanIds: ['a'] } });
    expect(selectIsExporting(actor.getSnapshot())).toBe(true);
    // One export at a time: a second click while busy is ignored.
    actor.send({ type: 'csv.export', request: { kind: 'pool', poolId: 'p' } });
    const blob = new Blob(['ULI\n'], { type: 'text/csv' });
    finish(blob);
    await vi.waitFor(() => expect(selectIsExporting(actor.getSnapshot())).toBe(false));
    expect(requests).toEqual([{ kind: 'loans', loanIds: ['a'] }]);
    expect(saved).toEqual([{ file: blob, fileName: 'assets.csv' }]);
    expect(notifyFailed).not.toHaveBeenCalled();
  });

  it('tells the user when the download fails, and can export again', async () => {
    const { actor, saved, notifyFailed } = start(async () => {
      throw new Error('500');
    });
    actor.send({ type: 'csv.export', request: { kind: 'pool', poolId: 'p' } });
    await vi.waitFor(() => expect(notifyFailed).toHaveBeenCalledTimes(1));
    expect(saved).toEqual([]);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'csv.export', request: { kind: 'pool', poolId: 'p' } });
    expect(selectIsExporting(actor.getSnapshot())).toBe(true);
  });
});
