// Which columns of a table the user shows (the asset tables: a table wider than the screen hides
// what does not fit). The choice is the user's: remembered in the browser by the provided
// `rememberHidden` action, read back as `stored` when the table opens. Columns that identify a row
// or hold its actions are not hideable, and the last shown hideable column stays.
import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';

export interface ColumnVisibilityInput {
  /** The columns the user may hide, in table order. */
  readonly hideable: readonly string[];
  /** Hidden until the user chooses otherwise. */
  readonly defaultHidden: readonly string[];
  /** What was remembered from an earlier visit (null: nothing, or unreadable). */
  readonly stored: readonly string[] | null;
}

export interface ColumnVisibilityContext {
  readonly hideable: readonly string[];
  readonly defaultHidden: readonly string[];
  /** Hidden columns, in table order. */
  readonly hidden: readonly string[];
}

export type ColumnVisibilityEvent = { type: 'columns.toggle'; columnId: string } | { type: 'columns.reset' };

/** Known hideable ids only, in table order (a stored list may name columns that no longer exist). */
const inTableOrder = (hideable: readonly string[], ids: readonly string[]): string[] => hideable.filter((id) => ids.includes(id));

/** The hidden list after showing or hiding one column. */
export function toggledHidden(context: ColumnVisibilityContext, columnId: string): string[] {
  const next = context.hidden.includes(columnId) ? context.hidden.filter((id) => id !== columnId) : [...context.hidden, columnId];
  return inTableOrder(context.hideable, next);
}

export const columnVisibilityMachine = setup({
  types: {
    input: {} as ColumnVisibilityInput,
    context: {} as ColumnVisibilityContext,
    events: {} as ColumnVisibilityEvent,
  },
  guards: {
    /** A hideable column, and never the last one shown. */
    canToggle: ({ context, event }) => {
      assertEvent(event, 'columns.toggle');
      if (!context.hideable.includes(event.columnId)) return false;
      return toggledHidden(context, event.columnId).length < context.hideable.length;
    },
    isNotDefault: ({ context }) => context.hidden.join() !== inTableOrder(context.hideable, context.defaultHidden).join(),
  },
  actions: {
    toggle: assign({
      hidden: ({ context, event }) => {
        assertEvent(event, 'columns.toggle');
        return toggledHidden(context, event.columnId);
      },
    }),
    reset: assign({ hidden: ({ context }) => inTableOrder(context.hideable, context.defaultHidden) }),
    /** Provided by the screen: stores the hidden columns in the browser. */
    rememberHidden: (_, _params: { hidden: readonly string[] }) => undefined,
  },
}).createMachine({
  id: 'columnVisibility',
  context: ({ input }) => {
    const defaults = inTableOrder(input.hideable, input.defaultHidden);
    const stored = input.stored === null ? defaults : inTableOrder(input.hideable, input.stored);
    return {
      hideable: input.hideable,
      defaultHidden: defaults,
      // A stored choice that would hide every column is not one a user could make: the defaults.
      hidden: stored.length < input.hideable.length ? stored : defaults,
    };
  },
  initial: 'ready',
  states: {
    ready: {
      on: {
        'columns.toggle': {
          guard: 'canToggle',
          actions: ['toggle', { type: 'rememberHidden', params: ({ context }) => ({ hidden: context.hidden }) }],
        },
        'columns.reset': {
          guard: 'isNotDefault',
          actions: ['reset', { type: 'rememberHidden', params: ({ context }) => ({ hidden: context.hidden }) }],
        },
      },
    },
  },
});

type ColumnVisibilitySnapshot = SnapshotFrom<typeof columnVisibilityMachine>;

export const selectHiddenColumns = (snapshot: ColumnVisibilitySnapshot): readonly string[] => snapshot.context.hidden;
/** Whether the column can be hidden or shown now (the last shown one cannot be hidden). */
export const selectCanToggle = (snapshot: ColumnVisibilitySnapshot, columnId: string): boolean =>
  snapshot.can({ type: 'columns.toggle', columnId });
export const selectIsDefault = (snapshot: ColumnVisibilitySnapshot): boolean => !snapshot.can({ type: 'columns.reset' });
