// @vitest-environment jsdom
// Model-based test of the multi-select machine through the asset table's role filter: its search
// (applied 500 ms after the last keystroke), 'No results', 'Items shown', and the reset on close
// (however the list is closed and opened again: keyboard in the walk, mouse in the test after it).
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { multiSelectMachine, shownOptions, type MultiSelectEvent } from '../../machines/multi-select';
import { SEARCH_DEBOUNCE_MS } from '../../src/domain/constants';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES, partyRoleLabel } from '../../src/domain/loan';
import { MULTI_SELECT_TEXTS } from '../../src/domain/texts';
import { ASSET_TEXTS } from '../../src/domain/asset-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/multi-select';
import { sampleLoanPage } from '../support/loan-list-fixtures';
import { openAssetScreen, searchBox } from './support/assets-screen';

const roleOptions = FILTERABLE_ROLES.map((role) => ({ value: role, label: partyRoleLabel(role) }));

const walker = createModelWalker(multiSelectMachine, walk);

const user = userEvent.setup();
const rolesButton = () =>
  screen.getByRole('button', { name: `${ASSET_TEXTS.roles} ${MULTI_SELECT_TEXTS.selected(DEFAULT_ROLE_FILTER.length)}` });
const searchField = () => screen.getByRole('searchbox', { name: MULTI_SELECT_TEXTS.search(ASSET_TEXTS.roles) });
const optionNames = () =>
  within(screen.getByRole('group', { name: ASSET_TEXTS.roles }))
    .queryAllByRole('checkbox')
    .map((box) => box.closest('label')?.textContent)
    .filter((name) => name !== MULTI_SELECT_TEXTS.selectAll);

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/assets/assets-screen')]);
});

describe('multi-select machine, driven through the role filter', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openAssetScreen();
      await calls.settle('listLoans', { value: sampleLoanPage(0, 10, 25) });
      await user.click(rolesButton());
      // The search's debounce runs on a fake clock from here on.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await path.test({
        states: {
          idle: ({ context }) => {
            expect(searchField()).toHaveValue(context.query);
            const shown = shownOptions(roleOptions, context.appliedQuery);
            expect(optionNames()).toEqual(shown.map((option) => option.label));
            if (shown.length === 0) expect(screen.getByText(MULTI_SELECT_TEXTS.noResults)).toBeInTheDocument();
            else expect(screen.getByRole('checkbox', { name: MULTI_SELECT_TEXTS.selectAll })).toBeInTheDocument();
            expect(screen.getByText(`${MULTI_SELECT_TEXTS.itemsShown}: ${shown.length}`)).toBeInTheDocument();
          },
          debouncing: ({ context }) => {
            // Typed, not applied yet: the options still follow the search before.
            expect(searchField()).toHaveValue(context.query);
            expect(optionNames()).toEqual(shownOptions(roleOptions, context.appliedQuery).map((option) => option.label));
          },
        },
        events: {
          'multiSelect.search': ({ event }) => {
            fireEvent.change(searchField(), {
              target: { value: (event as Extract<MultiSelectEvent, { type: 'multiSelect.search' }>).query },
            });
          },
          'after: debounce': () => act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS)),
          // Closing the list with Escape and opening it again from the keyboard: the search starts over.
          'multiSelect.reset': () => {
            fireEvent.keyDown(searchField(), { key: 'Escape' });
            expect(screen.queryByRole('searchbox', { name: MULTI_SELECT_TEXTS.search(ASSET_TEXTS.roles) })).not.toBeInTheDocument();
            fireEvent.keyDown(rolesButton(), { key: 'Enter' });
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });

  it('opens with an empty search whether it was closed and reopened by mouse or by keyboard', async () => {
    const { calls } = await openAssetScreen();
    await calls.settle('listLoans', { value: sampleLoanPage(0, 10, 25) });
    const expectEverySearchCleared = async () => {
      expect(searchField()).toHaveValue('');
      expect(await screen.findByText(`${MULTI_SELECT_TEXTS.itemsShown}: ${roleOptions.length}`)).toBeInTheDocument();
    };
    const searchNothing = async () => {
      await user.type(searchField(), 'zzz');
      expect(await screen.findByText(MULTI_SELECT_TEXTS.noResults, undefined, { timeout: 2000 })).toBeInTheDocument();
    };
    // Keyboard: Enter opens, Escape closes, Enter opens again.
    rolesButton().focus();
    await user.keyboard('{Enter}');
    await searchNothing();
    await user.keyboard('{Escape}');
    expect(rolesButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    await expectEverySearchCleared();
    // Mouse: a click outside (on the asset search) closes, a click on the button opens again.
    await searchNothing();
    await user.click(searchBox());
    expect(screen.queryByRole('searchbox', { name: MULTI_SELECT_TEXTS.search(ASSET_TEXTS.roles) })).not.toBeInTheDocument();
    await user.click(rolesButton());
    await expectEverySearchCleared();
  });
});
