// Opens the asset table screens in the signed-in app over the fake API, their list, pool and CSV
// calls deferred until the test settles them.
import { act, screen, within } from '@testing-library/react';
import { APP_PATHS } from '../../../src/domain/app-paths';
import { PAGINATION_TEXTS } from '../../../src/domain/texts';
import { ASSET_TEXTS } from '../../../src/domain/asset-texts';
import { sampleIdentity, sampleOrganization, sampleUser } from '../../support/session-fixtures';
import { deferProductCalls } from './deferred-api';
import { renderApp } from './render-app';

export async function openAssetScreen(path: string = APP_PATHS.assets) {
  const app = renderApp({ path, organizations: [sampleOrganization(1, true)] });
  // Deferred before the session lets the screen mount, so no call slips past.
  const calls = deferProductCalls(app.fake.api, ['listLoans', 'loansCsv', 'pool', 'poolAssetsCsv']);
  await app.fake.settle('figureInfo', { value: sampleIdentity });
  await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
  await act(async () => undefined);
  return { app, calls };
}

export const assetTable = () => screen.getByRole('table');
/** Data rows (header row excluded; placeholders are hidden from the accessibility tree). */
export const dataRows = () => within(assetTable()).queryAllByRole('row').slice(1);
export const pageSummaryText = () =>
  within(screen.getByRole('navigation', { name: PAGINATION_TEXTS.label })).getByRole('status').textContent;
export const searchBox = () => screen.getByRole('searchbox', { name: ASSET_TEXTS.search });
