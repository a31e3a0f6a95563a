// @vitest-environment jsdom
// Model-based test of the organization switcher's search (shown above 8 organizations),
// driven through the signed-in shell's combobox.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MULTI_SELECT_TEXTS, NAVIGATION_LABELS } from '../../src/domain/texts';
import { organizationSwitcherMachine } from '../../machines/organization-switcher';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/organization-switcher';
import { sampleOrganization } from '../support/session-fixtures';
import { renderSignedIn } from './support/render-app';

const organizations = Array.from({ length: 12 }, (_, index) => sampleOrganization(index + 1, index === 0));

const walker = createModelWalker(organizationSwitcherMachine, walk);

const user = userEvent.setup();
const searchBox = () => screen.getByRole('combobox', { name: NAVIGATION_LABELS.switchOrganization });
const optionNames = () => screen.queryAllByRole('option').map((option) => option.textContent);

describe('organization switcher machine, driven through the search box', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      await renderSignedIn(organizations);
      await user.click(searchBox());
      await path.test({
        states: {
          unfiltered: async () => {
            await waitFor(() => expect(optionNames().length === 0 || optionNames().length === organizations.length).toBe(true));
          },
          filtered: async () => {
            // 'Organization 1' matches 1, 10, 11 and 12.
            await waitFor(() => expect(optionNames()).toEqual(['Organization 1', 'Organization 10', 'Organization 11', 'Organization 12']));
          },
        },
        events: {
          'filter.change': async ({ event }) => {
            const query = (event as { query: string }).query;
            await user.clear(searchBox());
            if (query) await user.type(searchBox(), query);
          },
          'filter.clear': async () => {
            await user.keyboard('{Escape}');
            await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
            expect(searchBox()).toHaveValue('Organization 1');
          },
        },
      });
    });
  }

  it('says so when no organization matches, outside the listbox', async () => {
    await renderSignedIn(organizations);
    await user.click(searchBox());
    await user.clear(searchBox());
    await user.type(searchBox(), 'no such organization');
    expect(await screen.findByText(MULTI_SELECT_TEXTS.noResults)).toHaveAttribute('role', 'status');
    expect(optionNames()).toEqual([]);
    await user.clear(searchBox());
    await user.type(searchBox(), 'Organization 2');
    await waitFor(() => expect(optionNames()).toEqual(['Organization 2']));
    expect(screen.queryByText(MULTI_SELECT_TEXTS.noResults)).not.toBeInTheDocument();
  });

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
