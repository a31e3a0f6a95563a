import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  allShownSelected,
  multiSelectMachine,
  selectAppliedQuery,
  shownOptions,
  toggleAllShown,
  toggleValue,
} from '../../machines/multi-select';
import { SEARCH_DEBOUNCE_MS } from '../../src/domain/constants';

const options = [
  { value: 'OWNER', label: 'Owner' },
  { value: 'SERVICER', label: 'Servicer' },
  { value: 'SUB_SERVICER', label: 'Sub-servicer' },
  { value: 'ORIGINATOR', label: 'Originator' },
];

describe('multi-select machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('applies the search 500 ms after the last keystroke', () => {
    const actor = createActor(multiSelectMachine).start();
    actor.send({ type: 'multiSelect.search', query: 'ser' });
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'multiSelect.search', query: 'serv ' });
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    expect(selectAppliedQuery(actor.getSnapshot())).toBe('');
    vi.advanceTimersByTime(1);
    expect(selectAppliedQuery(actor.getSnapshot())).toBe('serv');
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('forgets the search when reset (the list closed)', () => {
    const actor = createActor(multiSelectMachine).start();
    actor.send({ type: 'multiSelect.search', query: 'own' });
    actor.send({ type: 'multiSelect.reset' });
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    expect(actor.getSnapshot().context).toEqual({ query: '', appliedQuery: '' });
  });
});

describe('multi-select helpers', () => {
  it('shows options whose label holds the search, case-insensitively', () => {
    expect(shownOptions(options, 'SERV').map((option) => option.value)).toEqual(['SERVICER', 'SUB_SERVICER']);
    expect(shownOptions(options, '')).toBe(options);
    expect(shownOptions(options, 'zzz')).toEqual([]);
  });

  it('toggles one value, keeping the options order', () => {
    expect(toggleValue(options, ['ORIGINATOR'], 'OWNER')).toEqual(['OWNER', 'ORIGINATOR']);
    expect(toggleValue(options, ['OWNER', 'ORIGINATOR'], 'OWNER')).toEqual(['ORIGINATOR']);
  });

  it("'Select All' selects every shown option, or deselects them when all are selected", () => {
    const shown = shownOptions(options, 'serv');
    expect(allShownSelected(['OWNER'], shown)).toBe(false);
    const all = toggleAllShown(options, ['OWNER'], shown);
    expect(all).toEqual(['OWNER', 'SERVICER', 'SUB_SERVICER']);
    expect(allShownSelected(all, shown)).toBe(true);
    expect(toggleAllShown(options, all, shown)).toEqual(['OWNER']);
    expect(allShownSelected([], [])).toBe(false);
  });
});
