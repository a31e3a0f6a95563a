// A searchable multi-select (SPEC section 9): its search is debounced 500 ms; what it selects is
// its owner's (a filter, a form field), changed through the pure helpers below.
import { assign, setup, type SnapshotFrom } from 'xstate';
import { SEARCH_DEBOUNCE_MS } from '../src/domain/constants';

export interface MultiSelectOption {
  readonly value: string;
  readonly label: string;
}

export interface MultiSelectContext {
  /** What the search box holds. */
  readonly query: string;
  /** The search the options are filtered by (the query after the debounce). */
  readonly appliedQuery: string;
}

export type MultiSelectEvent = { type: 'multiSelect.search'; query: string } | { type: 'multiSelect.reset' };

export const multiSelectMachine = setup({
  types: { context: {} as MultiSelectContext, events: {} as MultiSelectEvent },
  delays: { debounce: SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'multiSelect',
  context: { query: '', appliedQuery: '' },
  initial: 'idle',
  on: {
    'multiSelect.search': {
      target: '.debouncing',
      reenter: true,
      actions: assign({ query: ({ event }) => event.query }),
    },
    // The list closed: the next opening shows every option.
    'multiSelect.reset': { target: '.idle', actions: assign({ query: '', appliedQuery: '' }) },
  },
  states: {
    idle: {},
    debouncing: {
      after: {
        debounce: { target: 'idle', actions: assign({ appliedQuery: ({ context }) => context.query.trim() }) },
      },
    },
  },
});

type MultiSelectSnapshot = SnapshotFrom<typeof multiSelectMachine>;

export const selectQuery = (snapshot: MultiSelectSnapshot): string => snapshot.context.query;
export const selectAppliedQuery = (snapshot: MultiSelectSnapshot): string => snapshot.context.appliedQuery;

/** Options whose label contains the applied search, case-insensitively. */
export function shownOptions<T extends MultiSelectOption>(options: readonly T[], appliedQuery: string): readonly T[] {
  const needle = appliedQuery.trim().toLowerCase();
  return needle ? options.filter((option) => option.label.toLowerCase().includes(needle)) : options;
}

/** Selects or deselects one value, keeping the options' order. */
export function toggleValue(options: readonly MultiSelectOption[], selected: readonly string[], value: string): string[] {
  const next = selected.includes(value) ? selected.filter((entry) => entry !== value) : [...selected, value];
  return options.map((option) => option.value).filter((entry) => next.includes(entry));
}

/** 'Select All' over the shown options: selects them all, or deselects them when all are selected. */
export function toggleAllShown(
  options: readonly MultiSelectOption[],
  selected: readonly string[],
  shown: readonly MultiSelectOption[],
): string[] {
  const shownValues = shown.map((option) => option.value);
  const allShownSelected = shownValues.length > 0 && shownValues.every((value) => selected.includes(value));
  const next = allShownSelected ? selected.filter((value) => !shownValues.includes(value)) : [...selected, ...shownValues];
  return options.map((option) => option.value).filter((value) => next.includes(value));
}

/** Whether every shown option is selected ('Select All' shows as checked). */
export const allShownSelected = (selected: readonly string[], shown: readonly MultiSelectOption[]): boolean =>
  shown.length > 0 && shown.every((option) => selected.includes(option.value));
