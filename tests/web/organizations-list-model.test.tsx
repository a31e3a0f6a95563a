// @vitest-environment jsdom
// Model-based test of the organizations-list machine through /administration/organizations: the
// search (debounced 500 ms), the status filter and the URL's view coming back, over a fake API the
// test settles; the list's own paging, sort and selection are walked in paged-list-model.test.tsx.
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { organizationsListMachine, parseOrganizationsView, serializeOrganizationsView } from '../../machines/organizations-list';
import type { OrganizationsQuery } from '../../src/contract/organizations';
import { APP_PATHS } from '../../src/domain/app-paths';
import { SEARCH_DEBOUNCE_MS } from '../../src/domain/constants';
import { ORGANIZATION_TEXTS as T } from '../../src/domain/administration-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { linkedView, page, walk } from '../machines/walks/organizations-list';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(organizationsListMachine, walk);

const user = userEvent.setup();
const eventually = async (assertion: () => void) => (vi.isFakeTimers() ? assertion() : waitFor(assertion));
const searchBox = () => screen.getByRole('searchbox', { name: T.search });
const statusSelect = () => screen.getByRole('combobox', { name: T.statusFilter });

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/organizations/organizations-screen')]);
});

describe('organizations-list machine, driven through /administration/organizations', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = await renderSignedIn([sampleOrganization(1, true)]);
      const calls = deferProductCalls(app.fake.api, ['listOrganizations']);
      await act(() => app.router.navigate(APP_PATHS.organizations));
      await calls.settle('listOrganizations', { value: page });
      await screen.findByRole('link', { name: 'Organization 2' });
      const urlView = () => parseOrganizationsView(app.location().search);
      const lastQuery = () => calls.calls('listOrganizations').at(-1)?.[0] as OrganizationsQuery;
      let queryBefore = '';
      await path.test({
        states: {
          idle: ({ context }) =>
            eventually(() => {
              expect(searchBox()).toHaveValue(context.searchText);
              expect(statusSelect()).toHaveValue(context.status);
              // Settled: the list (and the URL) search for what the box holds.
              expect(urlView().query).toBe(context.searchText.trim());
              expect(urlView().status).toBe(context.status);
              expect(lastQuery()).toMatchObject({ status: context.status, offset: 0, sort: 'name', direction: 'asc' });
              expect(lastQuery().query ?? '').toBe(context.searchText.trim());
            }),
          debouncing: ({ context }) => {
            // Typed, not yet applied: the URL (and the list) still hold the search before it.
            expect(searchBox()).toHaveValue(context.searchText);
            expect(urlView().query).toBe(queryBefore);
          },
        },
        events: {
          'filters.status': async () => {
            await user.selectOptions(statusSelect(), T.statusInactive);
            await waitFor(() => expect(urlView().status).toBe('inactive'));
          },
          'filters.search': ({ event }) => {
            if (!vi.isFakeTimers()) queryBefore = urlView().query;
            vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
            fireEvent.change(searchBox(), { target: { value: (event as unknown as { text: string }).text } });
          },
          'after: debounce': () => {
            act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
            vi.useRealTimers();
          },
          'list.synced': () => {
            vi.useRealTimers();
            return act(() => app.router.navigate(`${APP_PATHS.organizations}${serializeOrganizationsView(linkedView)}`));
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

describe('organizations screen', () => {
  afterEach(cleanup);

  it("links each row to its edit page, users and activity, and offers 'Add organization'", async () => {
    const app = await renderSignedIn([sampleOrganization(1, true)]);
    const calls = deferProductCalls(app.fake.api, ['listOrganizations']);
    await act(() => app.router.navigate(APP_PATHS.organizations));
    await calls.settle('listOrganizations', { value: page });
    const organization = page.participants[0]!;
    expect(await screen.findByRole('link', { name: organization.name })).toHaveAttribute('href', APP_PATHS.organization(organization.id));
    expect(screen.getByRole('link', { name: T.addOrganization })).toHaveAttribute('href', APP_PATHS.newOrganization);
    await user.click(screen.getByRole('button', { name: T.actions(organization.name) }));
    expect(await screen.findByRole('menuitem', { name: T.users })).toHaveAttribute('href', APP_PATHS.organizationUsers(organization.id));
    expect(screen.getByRole('menuitem', { name: T.activity })).toHaveAttribute('href', APP_PATHS.organizationActivity(organization.id));
    expect(screen.getByRole('menuitem', { name: T.edit })).toHaveAttribute('href', APP_PATHS.organization(organization.id));
  });

  it('sorts by code on the server when its header is clicked', async () => {
    const app = await renderSignedIn([sampleOrganization(1, true)]);
    const calls = deferProductCalls(app.fake.api, ['listOrganizations']);
    await act(() => app.router.navigate(APP_PATHS.organizations));
    await calls.settle('listOrganizations', { value: page });
    await user.click(await screen.findByRole('button', { name: new RegExp(`^${T.code}`) }));
    await waitFor(() => expect(calls.calls('listOrganizations').at(-1)?.[0]).toMatchObject({ sort: 'code', direction: 'asc' }));
    expect(parseOrganizationsView(app.location().search).sort).toEqual({ column: 'code', direction: 'asc' });
  });
});
