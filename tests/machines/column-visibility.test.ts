import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  columnVisibilityMachine,
  selectCanToggle,
  selectHiddenColumns,
  selectIsDefault,
  type ColumnVisibilityInput,
} from '../../machines/column-visibility';
import { DEFAULT_HIDDEN_ASSET_COLUMNS, HIDEABLE_ASSET_COLUMNS } from '../../src/domain/asset-columns';

const hideable = ['type', 'date', 'status', 'owner'];

function start(input: Partial<ColumnVisibilityInput> = {}) {
  const remembered: (readonly string[])[] = [];
  const actor = createActor(
    columnVisibilityMachine.provide({ actions: { rememberHidden: (_, { hidden }) => void remembered.push(hidden) } }),
    { input: { hideable, defaultHidden: ['date'], stored: null, ...input } },
  ).start();
  return { actor, remembered };
}

describe('column-visibility machine', () => {
  it('starts from the defaults when nothing was remembered', () => {
    const { actor } = start();
    expect(selectHiddenColumns(actor.getSnapshot())).toEqual(['date']);
    expect(selectIsDefault(actor.getSnapshot())).toBe(true);
  });

  it('starts from what was remembered, in table order, without columns it does not know', () => {
    const { actor } = start({ stored: ['owner', 'gone', 'type'] });
    expect(selectHiddenColumns(actor.getSnapshot())).toEqual(['type', 'owner']);
    expect(selectIsDefault(actor.getSnapshot())).toBe(false);
    // Nothing hidden is a choice too.
    expect(selectHiddenColumns(start({ stored: [] }).actor.getSnapshot())).toEqual([]);
    // A remembered list that would hide every column is not one a user could make: the defaults.
    expect(selectHiddenColumns(start({ stored: hideable }).actor.getSnapshot())).toEqual(['date']);
  });

  it('shows and hides a column, remembering each choice', () => {
    const { actor, remembered } = start();
    actor.send({ type: 'columns.toggle', columnId: 'date' });
    actor.send({ type: 'columns.toggle', columnId: 'owner' });
    expect(selectHiddenColumns(actor.getSnapshot())).toEqual(['owner']);
    actor.send({ type: 'columns.toggle', columnId: 'type' });
    expect(selectHiddenColumns(actor.getSnapshot())).toEqual(['type', 'owner']);
    expect(remembered).toEqual([[], ['owner'], ['type', 'owner']]);
  });

  it('refuses a column that cannot be hidden and the last one shown', () => {
    const { actor, remembered } = start({ stored: ['type', 'date', 'status'] });
    expect(selectCanToggle(actor.getSnapshot(), 'owner')).toBe(false);
    actor.send({ type: 'columns.toggle', columnId: 'owner' });
    expect(selectCanToggle(actor.getSnapshot(), 'uli')).toBe(false);
    actor.send({ type: 'columns.toggle', columnId: 'uli' });
    expect(selectHiddenColumns(actor.getSnapshot())).toEqual(['type', 'date', 'status']);
    expect(remembered).toEqual([]);
    expect(selectCanToggle(actor.getSnapshot(), 'date')).toBe(true);
  });

  it('goes back to the defaults, remembering them; at the defaults there is nothing to reset', () => {
    const { actor, remembered } = start({ stored: ['owner'] });
    actor.send({ type: 'columns.reset' });
    expect(selectHiddenColumns(actor.getSnapshot())).toEqual(['date']);
    expect(selectIsDefault(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'columns.reset' });
    expect(remembered).toEqual([['date']]);
  });

  it('hides the dates, the mortgagee of record and the last two parties of the asset tables by default, never the ULI', () => {
    expect(DEFAULT_HIDDEN_ASSET_COLUMNS).toEqual(['tradeDate', 'mortgageeOfRecord', 'subServicer', 'securedParty']);
    expect(HIDEABLE_ASSET_COLUMNS).not.toContain('uli');
  });
});
