// The asset CSV calls behind the csv-export machine: chosen ids go in requests of at most
// CSV_IDS_PER_REQUEST (the ids travel in the query string), joined into one file with one header.
import { describe, expect, it, vi } from 'vitest';
import type { RegistryApi } from '../../src/client/api';
import { DEFAULT_ASSET_LIST_VIEW } from '../../src/domain/asset-table';
import { CSV_IDS_PER_REQUEST, downloadAssetCsv } from '../../src/web/screens/assets/asset-csv';

const HEADER = 'Loan ID,ULI,Borrower';
/** What the server sends for some ids: the byte order mark, the header, a row per id (a quoted line break in one). */
const csvFor = (ids: readonly string[]) =>
  new Blob(['\uFEFF', `${HEADER}\n`, ...ids.map((id) => `${id},ULI-${id},"Line one\nline two"\n`)], { type: 'text/csv; charset=utf-8' });

const idsOf = (count: number) => Array.from({ length: count }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);

function fakeApi() {
  const loansCsv = vi.fn(async (query: { loanIds?: readonly string[] }) => csvFor(query.loanIds ?? idsOf(3)));
  const poolAssetsCsv = vi.fn(async (query: { loanIds?: readonly string[]; poolDenomination?: string }) =>
    csvFor(query.loanIds ?? idsOf(2)),
  );
  return { api: { loansCsv, poolAssetsCsv } as unknown as RegistryApi, loansCsv, poolAssetsCsv };
}

const assets = { kind: 'assets', view: DEFAULT_ASSET_LIST_VIEW } as const;
const now = new Date('2026-11-26T12:00:00Z');

describe('downloadAssetCsv', () => {
  it('sends a selection larger than one request carries in parts and joins them: one mark, one header, every row in order', async () => {
    const { api, loansCsv } = fakeApi();
    const chosen = idsOf(CSV_IDS_PER_REQUEST * 2 + 20);
    const { file, fileName } = await downloadAssetCsv(api, { loanIds: chosen, scope: assets }, now);
    expect(fileName).toBe('assets.csv');
    expect(loansCsv.mock.calls.map(([query]) => query.loanIds?.length)).toEqual([CSV_IDS_PER_REQUEST, CSV_IDS_PER_REQUEST, 20]);
    expect(loansCsv.mock.calls.flatMap(([query]) => query.loanIds)).toEqual(chosen);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.split('\uFEFF')).toHaveLength(2);
    expect(text.split(`${HEADER}\n`)).toHaveLength(2);
    expect([...text.matchAll(/^(\S+),ULI-/gm)].map((match) => match[1])).toEqual(chosen);
    expect(file.type).toBe('text/csv; charset=utf-8');
  });

  it('sends a selection that fits one request as it is, with the filters of the view', async () => {
    const { api, loansCsv } = fakeApi();
    const chosen = idsOf(CSV_IDS_PER_REQUEST);
    const { file } = await downloadAssetCsv(api, { loanIds: chosen, scope: assets }, now);
    expect(loansCsv).toHaveBeenCalledTimes(1);
    expect(loansCsv.mock.calls[0]?.[0]).toMatchObject({ loanIds: chosen, participantRoles: DEFAULT_ASSET_LIST_VIEW.roles.join(',') });
    expect(await file.text()).toContain(`${chosen.at(-1)},ULI-`);
  });

  it('asks for the whole filtered set in one request when nothing is chosen', async () => {
    const { api, loansCsv } = fakeApi();
    await downloadAssetCsv(api, { loanIds: [], scope: assets }, now);
    expect(loansCsv).toHaveBeenCalledTimes(1);
    expect(loansCsv.mock.calls[0]?.[0]).not.toHaveProperty('loanIds');
  });

  it("splits a pool's chosen assets the same way; without a choice it names the pool", async () => {
    const { api, poolAssetsCsv } = fakeApi();
    const pool = { kind: 'pool', poolId: '11111111-0000-4000-8000-000000000000' } as const;
    const { fileName } = await downloadAssetCsv(api, { loanIds: idsOf(CSV_IDS_PER_REQUEST + 1), scope: pool } as never, now);
    expect(fileName).toBe('pool-assets.csv');
    expect(poolAssetsCsv.mock.calls.map(([query]) => query.loanIds?.length)).toEqual([CSV_IDS_PER_REQUEST, 1]);
    await downloadAssetCsv(api, { loanIds: [], scope: pool } as never, now);
    expect(poolAssetsCsv.mock.calls.at(-1)?.[0]).toEqual({ poolDenomination: pool.poolId });
  });

  it('fails as a whole when a part fails: no file of some of the rows', async () => {
    const { api, loansCsv } = fakeApi();
    loansCsv.mockImplementationOnce(async (query) => csvFor(query.loanIds ?? [])).mockRejectedValueOnce(new Error('431'));
    await expect(downloadAssetCsv(api, { loanIds: idsOf(CSV_IDS_PER_REQUEST * 2), scope: assets }, now)).rejects.toThrow('431');
  });
});
