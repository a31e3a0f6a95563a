// @vitest-environment jsdom
// Model-based test of the csv-export machine through the export button of /assets/assets: the
// progress state while the file downloads, the saved file, and the failure toast.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvExportMachine, type CsvExportRequest } from '../../machines/csv-export';
import type { LoanCsvQuery } from '../../src/contract/loans';
import { DEFAULT_ASSET_LIST_VIEW } from '../../src/domain/asset-table';
import { ASSET_TEXTS } from '../../src/domain/asset-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { csv, walk } from '../machines/walks/csv-export';
import { sampleLoanPage } from '../support/loan-list-fixtures';
import { openAssetScreen } from './support/assets-screen';

const walker = createModelWalker(csvExportMachine, walk);

const user = userEvent.setup();

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/assets/assets-screen')]);
});

describe('csv-export machine, driven through the asset CSV button', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openAssetScreen();
      await calls.settle('listLoans', { value: sampleLoanPage(0, 10, 25) });
      await screen.findByRole('checkbox', { name: ASSET_TEXTS.selectRow('ULI000000') });
      const lastCsvQuery = () => calls.calls('loansCsv').at(-1)?.[0] as LoanCsvQuery & { loanIds?: string[] };
      await path.test({
        states: {
          idle: async () => {
            await waitFor(() => expect(screen.queryByText(ASSET_TEXTS.exportingCsv)).not.toBeInTheDocument());
            expect(screen.getByRole('button', { name: /Export/ })).toHaveAttribute('aria-busy', 'false');
          },
          exporting: async () => {
            expect(await screen.findByText(ASSET_TEXTS.exportingCsv)).toBeInTheDocument();
            expect(screen.getByRole('button', { name: /Export/ })).toHaveAttribute('aria-busy', 'true');
          },
        },
        events: {
          'csv.export': async ({ event }) => {
            const { loanIds } = (event as unknown as { request: CsvExportRequest }).request;
            const box = screen.getByRole('checkbox', { name: ASSET_TEXTS.selectRow('ULI000000') }) as HTMLInputElement;
            if (box.checked !== loanIds.length > 0) await user.click(box);
            const name = loanIds.length ? ASSET_TEXTS.exportSelectedCsv(1) : ASSET_TEXTS.exportCsv;
            await user.click(screen.getByRole('button', { name }));
            await waitFor(() => expect(calls.pendingCount('loansCsv')).toBe(1));
            expect(lastCsvQuery().loanIds).toEqual(loanIds.length ? loanIds : undefined);
            expect(lastCsvQuery().participantRoles).toBe(DEFAULT_ASSET_LIST_VIEW.roles.join(','));
          },
          'done: downloadCsv': async () => {
            const saved = app.download.mock.calls.length;
            await calls.settle('loansCsv', { value: csv });
            await waitFor(() => expect(app.download).toHaveBeenCalledTimes(saved + 1));
            expect(app.download).toHaveBeenLastCalledWith(csv, 'assets.csv');
          },
          'error: downloadCsv': async ({ event }) => {
            await calls.settle('loansCsv', { error: (event as unknown as { error: unknown }).error });
            expect(await screen.findByRole('alert')).toHaveTextContent(ASSET_TEXTS.csvFailed);
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
