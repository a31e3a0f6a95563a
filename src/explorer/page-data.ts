// What `npm run visualize` writes into each explorer page (a JSON script element) for the page's
// script (src/explorer/explorer.ts) to read: which machine, its events and its tours.

/** One step of a tour: an event type and which of the walk's events of that type (by index). */
export interface TourStep {
  readonly type: string;
  readonly variant: number;
  readonly label: string;
}

/** A path the model-based test walks. */
export interface Tour {
  readonly description: string;
  readonly steps: readonly TourStep[];
}

export interface PageData {
  /** The machine's key in machines/index.ts. */
  readonly machine: string;
  readonly title: string;
  /** Event types the machine handles that come from outside (buttons), in definition order. */
  readonly events: readonly string[];
  readonly tours: readonly Tour[];
  /** For a state id, the tour and the number of its steps that lead there first (links to a state). */
  readonly reach: Readonly<Record<string, { readonly tour: number; readonly steps: number }>>;
  /** Why tours are missing, when they are. */
  readonly toursNote?: string;
}

export const PAGE_DATA_ID = 'explorer-data';
