import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { csvExportMachine, selectIsExporting, type CsvExportRequest } from '../../machines/csv-export';
import { DEFAULT_ASSET_LIST_VIEW } from '../../src/domain/asset-table';

const selected: CsvExportRequest = { loanIds: ['a'], scope: { kind: 'assets', view: DEFAULT_ASSET_LIST_VIEW } };
const wholePool: CsvExportRequest = { loanIds: [], scope: { kind: 'pool', poolId: 'p' } };

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
  it('shows progress while downloading, then saves the file', async () => {
    let finish: (blob: Blob) => void = () => undefined;
    const requests: CsvExportRequest[] = [];
    const { actor, saved, notifyFailed } = start((request) => {
      requests.push(request);
      return new Promise((resolve) => (finish = resolve));
    });
    actor.send({ type: 'csv.export', request: selected });
    expect(selectIsExporting(actor.getSnapshot())).toBe(true);
    // One export at a time: a second click while busy is ignored.
    actor.send({ type: 'csv.export', request: wholePool });
    const blob = new Blob(['ULI\n'], { type: 'text/csv' });
    finish(blob);
    await vi.waitFor(() => expect(selectIsExporting(actor.getSnapshot())).toBe(false));
    expect(requests).toEqual([selected]);
    expect(saved).toEqual([{ file: blob, fileName: 'assets.csv' }]);
    expect(notifyFailed).not.toHaveBeenCalled();
  });

  it('tells the user when the download fails, and can export again', async () => {
    const { actor, saved, notifyFailed } = start(async () => {
      throw new Error('500');
    });
    actor.send({ type: 'csv.export', request: wholePool });
    await vi.waitFor(() => expect(notifyFailed).toHaveBeenCalledTimes(1));
    expect(saved).toEqual([]);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'csv.export', request: wholePool });
    expect(selectIsExporting(actor.getSnapshot())).toBe(true);
  });
});
