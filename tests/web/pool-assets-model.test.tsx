// @vitest-environment jsdom
// Model-based test of the pool-assets machine through /assets/pool-assets/:poolId: the pool's
// name once its list loads, and 'not found' for an unknown pool; the list's own paging and
// selection are walked in paged-list-model.test.tsx.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { poolAssetsMachine } from '../../machines/pool-assets';
import type { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { PAGINATION_TEXTS, TEXTS } from '../../src/domain/texts';
import { ASSET_TEXTS } from '../../src/domain/asset-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { loans, pool, totalCount, walk } from '../machines/walks/pool-assets';
import { samplePoolId } from '../support/loan-list-fixtures';
import { assetTable, dataRows, openAssetScreen } from './support/assets-screen';

const walker = createModelWalker(poolAssetsMachine, walk);

const user = userEvent.setup();
const poolPath = APP_PATHS.poolAssets(samplePoolId);

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/assets/pool-assets-screen')]);
});

describe('pool-assets machine, driven through /assets/pool-assets/:poolId', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openAssetScreen(poolPath);
      let failed = false;
      await path.test({
        states: {
          shown: async ({ context }) => {
            if (failed) {
              expect(await screen.findByRole('alert')).toHaveTextContent(ASSET_TEXTS.failed);
              expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
            } else if (context.poolName) {
              await waitFor(() => expect(dataRows()).toHaveLength(loans.length));
            } else {
              await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'true'));
            }
            expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(context.poolName || ASSET_TEXTS.poolLoading);
            expect(screen.getByRole('link', { name: ASSET_TEXTS.backToPools })).toHaveAttribute('href', APP_PATHS.pools);
          },
          notFound: async () => {
            expect(await screen.findByRole('heading', { level: 1, name: ASSET_TEXTS.poolNotFoundTitle })).toBeInTheDocument();
            expect(screen.getByText(ASSET_TEXTS.poolNotFoundBody)).toBeInTheDocument();
            expect(screen.getByRole('link', { name: ASSET_TEXTS.backToPools })).toHaveAttribute('href', APP_PATHS.pools);
            expect(screen.queryByRole('table')).not.toBeInTheDocument();
          },
        },
        events: {
          // A later load: the next page.
          'list.loaded': async () => {
            if (calls.calls('pool').length > 0 && !failed) await user.click(screen.getByRole('button', { name: PAGINATION_TEXTS.next }));
            await calls.settle('pool', { value: { pool, loans, totalCount } });
          },
          'list.failed': ({ event }) => {
            const { error } = event as unknown as { error: HttpError };
            failed = error.status === 500;
            return calls.settle('pool', { error });
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
