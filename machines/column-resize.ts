// Column widths of a data table (SPEC section 9): resized by pointer (TanStack column sizing) or
// by keyboard, 10 px a step between 50 and 1000 px; each keyboard step is announced to screen
// readers in a live region that clears after 300 ms.
import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';
import { ANNOUNCEMENT_CLEAR_MS, COLUMN_MAX_WIDTH_PX, COLUMN_MIN_WIDTH_PX, COLUMN_RESIZE_STEP_PX } from '../src/domain/constants';
import { COLUMN_RESIZE_TEXTS } from '../src/domain/texts';

export type ColumnSizes = Readonly<Record<string, number>>;

export interface ColumnResizeInput {
  /** Starting width of each resizable column. */
  readonly sizes: ColumnSizes;
}

export interface ColumnResizeContext {
  readonly sizes: ColumnSizes;
  /** What the live region says; empty when there is nothing to announce. */
  readonly announcement: string;
}

export type ColumnResizeEvent =
  /** Arrow keys on a column's resize handle: `steps` of 10 px, negative to narrow. */
  | { type: 'column.resizeBy'; columnId: string; label: string; steps: number }
  /** The pointer finished dragging: the widths TanStack computed. */
  | { type: 'column.setSizes'; sizes: ColumnSizes };

export const clampWidth = (width: number): number => Math.min(COLUMN_MAX_WIDTH_PX, Math.max(COLUMN_MIN_WIDTH_PX, Math.round(width)));

export const columnResizeMachine = setup({
  types: { input: {} as ColumnResizeInput, context: {} as ColumnResizeContext, events: {} as ColumnResizeEvent },
  delays: { announcementClear: ANNOUNCEMENT_CLEAR_MS },
  guards: {
    isKnownColumn: ({ context, event }) => event.type === 'column.resizeBy' && event.columnId in context.sizes,
  },
  actions: {
    resizeBy: assign(({ context, event }) => {
      assertEvent(event, 'column.resizeBy');
      const width = clampWidth((context.sizes[event.columnId] ?? 0) + event.steps * COLUMN_RESIZE_STEP_PX);
      return { sizes: { ...context.sizes, [event.columnId]: width }, announcement: COLUMN_RESIZE_TEXTS.announcement(event.label, width) };
    }),
    setSizes: assign({
      sizes: ({ context, event }) => {
        assertEvent(event, 'column.setSizes');
        const known = Object.entries(event.sizes).filter(([id]) => id in context.sizes);
        return { ...context.sizes, ...Object.fromEntries(known.map(([id, width]) => [id, clampWidth(width)])) };
      },
    }),
  },
}).createMachine({
  id: 'columnResize',
  context: ({ input }) => ({ sizes: input.sizes, announcement: '' }),
  initial: 'quiet',
  on: {
    'column.setSizes': { actions: 'setSizes' },
    // Every step restarts the clearing timer: the latest width is the one read out.
    'column.resizeBy': { guard: 'isKnownColumn', target: '.announcing', reenter: true, actions: 'resizeBy' },
  },
  states: {
    quiet: {},
    announcing: {
      after: { announcementClear: { target: 'quiet', actions: assign({ announcement: '' }) } },
    },
  },
});

type ColumnResizeSnapshot = SnapshotFrom<typeof columnResizeMachine>;

export const selectColumnSizes = (snapshot: ColumnResizeSnapshot): ColumnSizes => snapshot.context.sizes;
export const selectAnnouncement = (snapshot: ColumnResizeSnapshot): string => snapshot.context.announcement;
