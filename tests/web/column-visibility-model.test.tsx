// @vitest-environment jsdom
// Model-based test of the column-visibility machine through the asset table's Columns menu: a
// column shown and hidden, the defaults again, each choice in the table's headers, in the menu's
// checkboxes and remembered in the browser (a new screen opens with it).
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { columnVisibilityMachine, type ColumnVisibilityEvent } from '../../machines/column-visibility';
import {
  ASSET_COLUMN_IDS,
  ASSET_COLUMN_LABELS,
  DEFAULT_HIDDEN_ASSET_COLUMNS,
  HIDEABLE_ASSET_COLUMNS,
} from '../../src/domain/asset-columns';
import { STORAGE_KEYS } from '../../src/domain/constants';
import { COLUMN_VISIBILITY_TEXTS as T } from '../../src/domain/texts';
import { ASSET_TEXTS } from '../../src/domain/asset-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/column-visibility';
import { sampleLoanPage } from '../support/loan-list-fixtures';
import { assetTable, openAssetScreen } from './support/assets-screen';

const walker = createModelWalker(columnVisibilityMachine, walk);

const user = userEvent.setup();
const headers = () =>
  within(assetTable())
    .getAllByRole('columnheader')
    .map((header) => header.textContent?.trim())
    .filter(Boolean);
const shownLabels = (hidden: readonly string[]) =>
  ASSET_COLUMN_IDS.filter((id) => !hidden.includes(id)).map((id) => ASSET_COLUMN_LABELS[id]);
const openMenu = () => user.click(screen.getByRole('button', { name: T.button }));

async function openScreen() {
  const { calls } = await openAssetScreen();
  await calls.settle('listLoans', { value: sampleLoanPage(0, 10, 25) });
  await screen.findAllByRole('checkbox', { name: /^Select asset / });
}

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/assets/assets-screen')]);
});

describe('column-visibility machine, driven through the Columns menu of the asset table', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      await openScreen();
      await path.test({
        states: {
          ready: async ({ context }) => {
            expect(headers()).toEqual([...shownLabels(context.hidden), ASSET_TEXTS.actionsColumn]);
            await openMenu();
            for (const id of HIDEABLE_ASSET_COLUMNS) {
              const box = screen.getByRole('checkbox', { name: ASSET_COLUMN_LABELS[id] });
              if (context.hidden.includes(id)) expect(box).not.toBeChecked();
              else expect(box).toBeChecked();
            }
            const isDefault = context.hidden.join() === DEFAULT_HIDDEN_ASSET_COLUMNS.join();
            expect(screen.getByRole('button', { name: T.reset })).toHaveAttribute('aria-disabled', String(isDefault));
            await user.keyboard('{Escape}');
            const stored = window.localStorage.getItem(STORAGE_KEYS.assetColumns);
            // Nothing is written before the first choice; every choice is.
            if (stored !== null) expect(JSON.parse(stored)).toEqual(context.hidden);
            else expect(isDefault).toBe(true);
          },
        },
        events: {
          'columns.toggle': async ({ event }) => {
            const { columnId } = event as Extract<ColumnVisibilityEvent, { type: 'columns.toggle' }>;
            await openMenu();
            await user.click(screen.getByRole('checkbox', { name: ASSET_COLUMN_LABELS[columnId as keyof typeof ASSET_COLUMN_LABELS] }));
            await user.keyboard('{Escape}');
          },
          'columns.reset': async () => {
            await openMenu();
            await user.click(screen.getByRole('button', { name: T.reset }));
            await user.keyboard('{Escape}');
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });

  it('opens with the columns remembered from an earlier visit', async () => {
    window.localStorage.setItem(STORAGE_KEYS.assetColumns, JSON.stringify(['loanType', 'owner']));
    await openScreen();
    expect(headers()).toEqual([...shownLabels(['loanType', 'owner']), ASSET_TEXTS.actionsColumn]);
  });

  it('keeps the last shown column, saying why', async () => {
    window.localStorage.setItem(STORAGE_KEYS.assetColumns, JSON.stringify(HIDEABLE_ASSET_COLUMNS.filter((id) => id !== 'owner')));
    await openScreen();
    await openMenu();
    const owner = screen.getByRole('checkbox', { name: ASSET_COLUMN_LABELS.owner });
    expect(owner).toHaveAttribute('aria-disabled', 'true');
    expect(owner).toHaveAccessibleDescription(T.lastColumn);
    await user.click(owner);
    expect(owner).toBeChecked();
    expect(headers()).toEqual([ASSET_COLUMN_LABELS.uli, ASSET_COLUMN_LABELS.owner, ASSET_TEXTS.actionsColumn]);
  });
});
