// The organization switcher's search box (shown above 8 organizations): the typed filter.
import { assign, setup, type SnapshotFrom } from 'xstate';

export type OrganizationSwitcherEvent = { type: 'filter.change'; query: string } | { type: 'filter.clear' };

export const organizationSwitcherMachine = setup({
  types: { context: {} as { query: string }, events: {} as OrganizationSwitcherEvent },
  guards: { hasQuery: ({ event }) => event.type === 'filter.change' && event.query.trim() !== '' },
}).createMachine({
  id: 'organizationSwitcher',
  context: { query: '' },
  initial: 'unfiltered',
  states: {
    unfiltered: {
      on: {
        'filter.change': { guard: 'hasQuery', target: 'filtered', actions: assign({ query: ({ event }) => event.query }) },
      },
    },
    filtered: {
      on: {
        'filter.change': [
          { guard: 'hasQuery', actions: assign({ query: ({ event }) => event.query }) },
          { target: 'unfiltered', actions: assign({ query: '' }) },
        ],
        'filter.clear': { target: 'unfiltered', actions: assign({ query: '' }) },
      },
    },
  },
});

export type OrganizationSwitcherSnapshot = SnapshotFrom<typeof organizationSwitcherMachine>;
/** The typed search text ('' when unfiltered). */
export const selectOrganizationQuery = (snapshot: OrganizationSwitcherSnapshot): string => snapshot.context.query;
