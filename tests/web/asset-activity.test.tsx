// @vitest-environment jsdom
// The asset page's Activity tab (/assets/asset/:loanId/details/activity): the loan's audit rows
// in plain words, newest first, paged on the server (the shared list, whose own transitions are
// walked in paged-list-model.test.tsx), and a failure with its retry.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoanActivityPage } from '../../src/contract/audit';
import { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { ASSET_PAGE_TEXTS } from '../../src/domain/asset-texts';
import { AUDIT_TEXTS as T } from '../../src/domain/audit-texts';
import { PAGINATION_TEXTS, TEXTS } from '../../src/domain/texts';
import { sampleEvents, sampleLoanDetails, sampleLoanId } from '../support/loan-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { renderSignedIn } from './support/render-app';

const user = userEvent.setup();
const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');
const entry = (chainSeq: number, action: string, extra: Partial<LoanActivityPage['entries'][number]> = {}) => ({
  id: chainSeq,
  chainSeq,
  occurredAt: '2026-11-27T10:00:00.000Z',
  actorUserId: null,
  actorEmail: null,
  actingOrganizationId: null,
  actingOrganizationName: 'Harbor Servicing',
  clientAddress: null,
  action,
  targetType: 'role-request',
  targetId: 'r1',
  loanId: sampleLoanId,
  before: { party: { role: 'SERVICER', participantName: 'Home Bank', state: 'PENDING' } },
  after: {
    party: { role: 'SERVICER', participantName: 'Harbor Servicing', state: 'CONFIRMED' },
    request: { receiver: { name: 'Harbor Servicing' } },
  },
  ...extra,
});
const firstPage: LoanActivityPage = {
  entries: [
    entry(2, 'role-transfer.confirmed'),
    entry(1, 'role-transfer.requested', {
      actorEmail: 'ops@home.test',
      actingOrganizationName: 'Home Bank',
      after: { party: { role: 'SERVICER', state: 'PENDING' }, request: { receiver: { name: 'Harbor Servicing' } } },
      before: { party: { role: 'SERVICER', participantName: 'Home Bank', state: 'CONFIRMED' } },
    }),
  ],
  totalCount: 12,
};

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/asset/asset-screen')]);
});

async function openActivity(loanActivity: (...args: unknown[]) => Promise<LoanActivityPage>) {
  const app = await renderSignedIn([sampleOrganization(1, true)]);
  Object.assign(app.fake.api, {
    loanDetails: async () => sampleLoanDetails(),
    loanEvents: async () => sampleEvents,
    loanActivity,
  });
  await act(() => app.router.navigate(APP_PATHS.asset(sampleLoanId, 'activity')));
  return app;
}

describe('the Activity tab', () => {
  afterEach(cleanup);

  it('is a tab of the asset page, current on its route', async () => {
    await openActivity(async () => firstPage);
    const tabs = within(screen.getByRole('navigation', { name: ASSET_PAGE_TEXTS.tabsLabel }));
    expect(tabs.getAllByRole('link').map((link) => link.textContent)).toEqual(['Details', 'History', 'Documents', 'Activity']);
    expect(tabs.getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');
  });

  it("lists the loan's rows in plain words, newest first, and pages on the server", async () => {
    const loanActivity = vi.fn(async (..._args: unknown[]) => firstPage);
    const app = await openActivity(loanActivity);
    const table = await screen.findByRole('table', { name: T.activityTableLabel });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const [, newest, oldest] = within(table).getAllByRole('row');
    expect(newest).toHaveTextContent('Harbor Servicing');
    expect(newest).toHaveTextContent('Harbor Servicing accepted the servicer role; it moved from Home Bank to Harbor Servicing.');
    expect(oldest).toHaveTextContent('ops@home.test (Home Bank)');
    expect(oldest).toHaveTextContent('Asked Harbor Servicing to take over the servicer role (held by Home Bank).');
    expect(loanActivity.mock.calls[0]?.slice(0, 2)).toEqual([sampleLoanId, { limit: 10, offset: 0 }]);
    await user.click(screen.getByRole('button', { name: PAGINATION_TEXTS.next }));
    await waitFor(() => expect(loanActivity.mock.calls.at(-1)?.slice(0, 2)).toEqual([sampleLoanId, { limit: 10, offset: 10 }]));
    expect(app.router.state.location.search).toContain('page=2');
  });

  it('says when the activity could not be loaded, and tries again', async () => {
    const loanActivity = vi.fn(async (..._args: unknown[]) => firstPage).mockRejectedValueOnce(serverError);
    await openActivity(loanActivity);
    expect(await screen.findByText(T.activityFailed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: TEXTS.tryAgain }));
    expect(await screen.findByRole('table', { name: T.activityTableLabel })).toBeInTheDocument();
  });
});
