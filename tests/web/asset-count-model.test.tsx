// @vitest-environment jsdom
// Model-based test of the asset-count machine through the dashboard: every transition of its
// statechart is walked on the Assets tile over a fake API whose asset list call the test settles.
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpError } from '../../src/contract/http-error';
import type { LoanList, LoanListQuery } from '../../src/contract/loans';
import { ASSET_COUNT_TEXTS, NAVIGATION_LABELS } from '../../src/domain/texts';
import { assetCountMachine } from '../../machines/asset-count';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/asset-count';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderApp } from './support/render-app';

const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
const page = (totalCount: number): LoanList => ({ loans: [], totalCount });

const walker = createModelWalker(assetCountMachine, walk);

const user = userEvent.setup();
const errorOf = (event: unknown) => (event as { error: HttpError }).error;
const countLine = () => screen.getByTestId('asset-count');
const assetsTile = () =>
  within(screen.getByRole('list', { name: 'Dashboard' })).getByRole('link', { name: new RegExp(`^${NAVIGATION_LABELS.assets}`) });

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/dashboard/dashboard-screen')]);
});

/** Signs in to the dashboard with the asset list call held by the test. */
async function openDashboard() {
  const app = renderApp({ path: '/dashboard', organizations });
  const calls = deferProductCalls(app.fake.api, ['listLoans']);
  await app.fake.settle('figureInfo', { value: sampleIdentity });
  await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
  await screen.findByRole('heading', { name: `Welcome, ${sampleUser.firstName}` });
  return { app, calls };
}

describe('asset count machine, driven through the dashboard', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openDashboard();
      await path.test({
        states: {
          loading: () => {
            expect(countLine()).toHaveTextContent(ASSET_COUNT_TEXTS.loading);
            expect(within(assetsTile()).getByRole('heading', { level: 2, name: NAVIGATION_LABELS.assets })).toBeInTheDocument();
            expect(screen.queryByRole('button', { name: ASSET_COUNT_TEXTS.retry })).not.toBeInTheDocument();
          },
          loaded: async () => {
            expect(await screen.findByText('1,234 assets')).toBeInTheDocument();
            expect(assetsTile()).toContainElement(countLine());
          },
          failed: async () => {
            expect(await screen.findByText(ASSET_COUNT_TEXTS.failed)).toBeInTheDocument();
            expect(screen.getByRole('button', { name: ASSET_COUNT_TEXTS.retry })).toBeEnabled();
          },
        },
        events: {
          'done: countAssets': () => calls.settle('listLoans', { value: page(1234) }),
          'error: countAssets': ({ event }) => calls.settle('listLoans', { error: errorOf(event) }),
          'assetCount.retry': () => user.click(screen.getByRole('button', { name: ASSET_COUNT_TEXTS.retry })),
        },
      });
      const expected: LoanListQuery = { limit: 10, offset: 0, participantRoles: 'OWNER,CONTROLLER,SERVICER,SUB_SERVICER,SECURED_PARTY' };
      for (const [query] of calls.calls('listLoans')) expect(query).toEqual(expected);
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('Assets tile', () => {
  afterEach(cleanup);

  it('counts again for the new organization after a switch', async () => {
    const { calls } = await openDashboard();
    await calls.settle('listLoans', { value: page(1) });
    expect(await screen.findByText('1 asset')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Organization 2' }));
    expect(await screen.findByTestId('current-organization')).toHaveTextContent('Organization 2');
    expect(countLine()).toHaveTextContent(ASSET_COUNT_TEXTS.loading);
    await calls.settle('listLoans', { value: page(20_000) });
    expect(await screen.findByText('20,000 assets')).toBeInTheDocument();
    expect(calls.calls('listLoans')).toHaveLength(2);
  });
});
