// The paths through a machine, written once for the model-based tests
// (tests/machines/support/model-coverage.ts) and the statechart explorer's tours
// (scripts/visualize.ts): `getAdjacencyMap` lists every (state, event, next state) reachable with
// the given events; `new TestModel(machine, ...)` (which, unlike `createTestModel`, accepts invoke
// and `after`) gives the shortest (or every simple) path to every state with
// `{ allowDuplicatePaths: true }`; a transition those paths miss gets one more path (the shortest
// path to its source plus that step); paths that are prefixes of others are dropped.
import type { AnyMachineSnapshot, AnyStateMachine, EventFromLogic, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import { getNextSnapshot } from 'xstate';
import { TestModel, getAdjacencyMap, serializeSnapshot } from 'xstate/graph';
import type { AdjacencyMap, StatePath, Step } from 'xstate/graph';
import { eventAliases, handledEventTypes } from './statechart-introspection';

type Snap<M extends AnyStateMachine> = SnapshotFrom<M>;
type Ev<M extends AnyStateMachine> = EventFromLogic<M>;

/** A concrete event for a type, or several; alias keys may leave out `type`. */
export type EventSupply = EventObject | Omit<EventObject, 'type'> | ReadonlyArray<EventObject | Omit<EventObject, 'type'>>;

export interface PathOptions<M extends AnyStateMachine> {
  /**
   * Concrete events to send, by event type or alias (`done: loadUser`, `error: loadUser`,
   * `after: debounce`), or a function of the snapshot. Event types without an entry are sent
   * as `{ type }`.
   */
  events?: Record<string, EventSupply> | ((snapshot: Snap<M>) => readonly Ev<M>[]);
  input?: InputFrom<M>;
  /** State identity for traversal and coverage keys; default value + context (serializeSnapshot). */
  serializeState?: (snapshot: Snap<M>) => string;
  /** Leaves events out of the traversal (e.g. ones the screen cannot produce in that state). */
  filterEvents?: (snapshot: Snap<M>, event: Ev<M>) => boolean;
  /** Traversal bound; exceeded means the state space is unbounded (see serializeState). */
  limit?: number;
  /** Path generator: shortest paths (default) or every simple path (can be many). */
  strategy?: 'shortest' | 'simple';
  /** How a test asks "is the snapshot in the state named by this key" (TestModel's stateMatcher). */
  stateMatcher?: (snapshot: Snap<M>, key: string) => boolean;
}

/** One transition of the adjacency map. */
export interface ModelTransition {
  key: string;
  from: string;
  eventType: string;
  to: string;
}

export const transitionKey = (from: string, eventType: string, to: string) => `${from} --${eventType}--> ${to}`;

/** The entry of an event table for an event type, by its type or one of its aliases. */
export function lookup<T>(machine: AnyStateMachine, table: Record<string, T> | undefined, eventType: string): T | undefined {
  if (!table) return undefined;
  if (eventType in table) return table[eventType];
  for (const alias of eventAliases(machine, eventType)) if (alias in table) return table[alias];
  return undefined;
}

/** The events to try in a snapshot: every handled event type, with the supplied payloads. */
export function eventsFunction<M extends AnyStateMachine>(machine: M, events: PathOptions<M>['events']) {
  return (snapshot: Snap<M>): Ev<M>[] => {
    // A machine that reached its final state (or failed) takes no more events.
    if ((snapshot as { status?: string }).status !== 'active') return [];
    if (typeof events === 'function') return [...events(snapshot)];
    // `xstate.done.state.*` is raised inside the machine when its final states are reached (the
    // traversal does that by itself); sent from outside it would fake a transition.
    const types = handledEventTypes(snapshot as AnyMachineSnapshot).filter((type) => !type.startsWith('xstate.done.state.'));
    return types.flatMap((type) => {
      const supplied = lookup(machine, events, type);
      if (supplied === undefined) return [{ type } as Ev<M>];
      const list = (Array.isArray(supplied) ? supplied : [supplied]) as Array<Partial<EventObject>>;
      return list.map((event) => ({ ...event, type }) as Ev<M>);
    });
  };
}

const serializerOf = <M extends AnyStateMachine>(options: PathOptions<M>) =>
  options.serializeState ?? ((s: Snap<M>) => serializeSnapshot(s) as string);

/** Every transition reachable with the given events, keyed `${state} --${event}--> ${next}`. */
export function getAllTransitions<M extends AnyStateMachine>(machine: M, options: PathOptions<M> = {}): Map<string, ModelTransition> {
  const serialize = serializerOf(options);
  const adjacency = getAdjacencyMap(
    machine as AnyStateMachine,
    {
      events: eventsFunction(machine, options.events),
      serializeState: (s: Snap<M>) => serialize(s),
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.filterEvents ? { filterEvents: options.filterEvents } : {}),
      limit: options.limit ?? 5000,
    } as never,
  ) as AdjacencyMap<Snap<M>, Ev<M>>;
  const all = new Map<string, ModelTransition>();
  for (const [from, { transitions }] of Object.entries(adjacency)) {
    for (const { event, state } of Object.values(transitions) as Array<{ event: Ev<M>; state: Snap<M> }>) {
      const to = serialize(state);
      const key = transitionKey(from, event.type, to);
      all.set(key, { key, from, eventType: event.type, to });
    }
  }
  return all;
}

export interface MachinePaths<M extends AnyStateMachine> {
  model: TestModel<Snap<M>, Ev<M>, InputFrom<M>>;
  /** Every transition to cover, by key. */
  transitions: Map<string, ModelTransition>;
  /** Paths that together walk every transition of `transitions`, none a prefix of another. */
  paths: StatePath<Snap<M>, Ev<M>>[];
  /** The transitions a path walks. */
  walkedBy(path: StatePath<Snap<M>, Ev<M>>): ModelTransition[];
}

/** Builds the model, the transitions to cover and the paths that walk all of them. */
export function machinePaths<M extends AnyStateMachine>(machine: M, options: PathOptions<M> = {}): MachinePaths<M> {
  const serialize = serializerOf(options);
  const events = eventsFunction(machine, options.events);
  const model = new TestModel<Snap<M>, Ev<M>, InputFrom<M>>(machine as never, {
    events,
    serializeState: (s) => serialize(s),
    ...(options.stateMatcher ? { stateMatcher: options.stateMatcher } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.filterEvents ? { filterEvents: options.filterEvents } : {}),
    limit: options.limit ?? 5000,
  });
  const transitions = getAllTransitions(machine, options);

  const generated =
    options.strategy === 'simple'
      ? model.getSimplePaths({ allowDuplicatePaths: true })
      : model.getShortestPaths({ allowDuplicatePaths: true });
  const statePaths: StatePath<Snap<M>, Ev<M>>[] = generated.map(({ state, steps, weight }) => ({ state, steps, weight }));
  const walkedBy = (path: StatePath<Snap<M>, Ev<M>>): ModelTransition[] =>
    path.steps.slice(1).map((step, i) => {
      const from = serialize((path.steps[i] as Step<Snap<M>, Ev<M>>).state);
      const to = serialize(step.state);
      const key = transitionKey(from, step.event.type, to);
      return transitions.get(key) ?? { key, from, eventType: step.event.type, to };
    });

  // Transitions no path walks yet: shortest path to the source, plus that one step.
  const reached = new Set(statePaths.flatMap(walkedBy).map((t) => t.key));
  const shortestTo = new Map<string, StatePath<Snap<M>, Ev<M>>>();
  for (const path of model.getShortestPaths({ allowDuplicatePaths: true })) {
    const key = serialize(path.state);
    const known = shortestTo.get(key);
    if (!known || path.steps.length < known.steps.length) shortestTo.set(key, path);
  }
  for (const [key, transition] of transitions) {
    if (reached.has(key)) continue;
    const head = shortestTo.get(transition.from);
    if (!head) continue;
    const step = nextStep(machine, head.state, transition, events, serialize, options.filterEvents);
    if (!step) continue;
    statePaths.push({ state: step.state, steps: [...head.steps, step], weight: head.weight + 1 });
    reached.add(key);
  }

  // Drop paths whose event sequence is a prefix of another path's: they walk nothing new.
  const sequences = statePaths.map((path) => path.steps.slice(1).map((step) => JSON.stringify(step.event)));
  const paths = statePaths.filter((_, i) => {
    const mine = sequences[i] as string[];
    return !sequences.some(
      (other, j) =>
        j !== i && (other.length > mine.length || (other.length === mine.length && j < i)) && mine.every((e, k) => other[k] === e),
    );
  });
  return { model, transitions, paths, walkedBy };
}

function nextStep<M extends AnyStateMachine>(
  machine: M,
  from: Snap<M>,
  transition: ModelTransition,
  events: (snapshot: Snap<M>) => Ev<M>[],
  serialize: (snapshot: Snap<M>) => string,
  filterEvents: PathOptions<M>['filterEvents'],
): Step<Snap<M>, Ev<M>> | undefined {
  for (const event of events(from)) {
    if (event.type !== transition.eventType || (filterEvents && !filterEvents(from, event))) continue;
    // The same pure step getAdjacencyMap takes: no actor started, no action executed.
    const state = getNextSnapshot(machine, from, event) as Snap<M>;
    if (serialize(state) === transition.to) return { state, event };
  }
  return undefined;
}
