/**
 * Model-based test support: walk every transition of a machine and prove it (xstate/graph).
 *
 *   const walker = createModelWalker(assetTableMachine, {
 *     // concrete events (with payloads) for the traversal; `done: actor`, `error: actor` and
 *     // `after: delay` name invoke and timer events without their generated ids
 *     events: { 'filters.change': [{ type: 'filters.change', query: 'ab' }], 'done: loadPage': { output: page } },
 *     // optional: state identity (default: value + context, as getAdjacencyMap does)
 *     serializeState: (snapshot) => JSON.stringify(snapshot.value),
 *   });
 *   for (const path of walker.paths) {
 *     it(path.description, async () => {
 *       const screen = renderScreen();
 *       await path.test({
 *         states: { loading: () => screen.expectSpinner(), '#assetTable.ready': () => ... },
 *         events: { 'filters.change': ({ event }) => screen.type(event.query), 'after: debounce': () => vi.advanceTimersByTime(500) },
 *       });
 *     });
 *   }
 *   it('covers every transition and asserts every state', () => {
 *     walker.expectFullCoverage();
 *     walker.expectEveryStateAsserted();
 *   });
 *
 * How it works: `getAdjacencyMap` lists every (state, event, next state) reachable with the
 * given events (the transitions to cover, keyed `${state} --${eventType}--> ${nextState}`).
 * `new TestModel(machine, ...)` (which, unlike `createTestModel`, accepts invoke and `after`)
 * gives the shortest path to every state with `{ allowDuplicatePaths: true }`; any transition
 * those paths miss (self-loops, second ways into a state) gets one more path: the shortest path
 * to its source plus that step. Paths that are prefixes of others are dropped. Every path run
 * through `path.test` records the steps it walked and the state keys it asserted, and a step
 * without an event executor fails instead of silently doing nothing.
 *
 * State nodes, event names and aliases come from scripts/statechart-introspection.ts, which the
 * diagram generator shares, through XState's public API only.
 *
 * State keys of `states` are state paths (`ready.form.editing`, matched with
 * `snapshot.matches`) or ids (`#sample.ready`). If context grows without bound (counters,
 * lists), pass a `serializeState` that ignores it, or the traversal stops at `limit`.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventFromLogic, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import { getNextSnapshot } from 'xstate';
import { TestModel, getAdjacencyMap, serializeSnapshot } from 'xstate/graph';
import type { AdjacencyMap, StatePath, Step } from 'xstate/graph';
import {
  activeStateNodes,
  eventAliases,
  eventLabel,
  handledEventTypes,
  stateNodeForKey,
  stateNodesOf,
} from '../../../scripts/statechart-introspection';

export { eventAliases };

type Snap<M extends AnyStateMachine> = SnapshotFrom<M>;
type Ev<M extends AnyStateMachine> = EventFromLogic<M>;

/** A concrete event for a type, or several; alias keys may leave out `type`. */
type EventSupply = EventObject | Omit<EventObject, 'type'> | ReadonlyArray<EventObject | Omit<EventObject, 'type'>>;

export interface WalkerOptions<M extends AnyStateMachine> {
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
}

/** One transition of the adjacency map. */
export interface ModelTransition {
  key: string;
  from: string;
  eventType: string;
  to: string;
}

export interface WalkerParams<M extends AnyStateMachine> {
  /** Assertions by state path or `#id`; every matching one runs (and is awaited) after each step. */
  states?: Record<string, (snapshot: Snap<M>) => unknown>;
  /** How to produce each event in the system under test, by event type or alias. */
  events?: Record<string, (step: Step<Snap<M>, Ev<M>>) => unknown>;
}

export interface WalkerPath<M extends AnyStateMachine> {
  description: string;
  /** Event types walked, in order (without the initial `xstate.init`). */
  events: string[];
  /** Transitions this path walks. */
  transitions: ModelTransition[];
  state: Snap<M>;
  test(params: WalkerParams<M>): Promise<void>;
}

export interface ModelWalker<M extends AnyStateMachine> {
  model: TestModel<Snap<M>, Ev<M>, InputFrom<M>>;
  paths: WalkerPath<M>[];
  /** Every transition to cover, by key. */
  transitions: Map<string, ModelTransition>;
  /** Keys of transitions walked by successful `path.test` runs. */
  covered: Set<string>;
  /** State node ids asserted by successful `path.test` runs. */
  assertedStateIds: Set<string>;
  expectFullCoverage(): void;
  expectEveryStateAsserted(options?: { ignore?: string[] }): void;
}

const transitionKey = (from: string, eventType: string, to: string) => `${from} --${eventType}--> ${to}`;

function lookup<T>(machine: AnyStateMachine, table: Record<string, T> | undefined, eventType: string): T | undefined {
  if (!table) return undefined;
  if (eventType in table) return table[eventType];
  for (const alias of eventAliases(machine, eventType)) if (alias in table) return table[alias];
  return undefined;
}

function eventsFunction<M extends AnyStateMachine>(machine: M, events: WalkerOptions<M>['events']) {
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

/** Resolves a `states` key (`a.b`, `#id`) to its state node id; throws on unknown keys. */
export function resolveStateKey(machine: AnyStateMachine, key: string): string {
  return stateNodeForKey(machine, key).id;
}

function matchesKey(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, key: string): boolean {
  const id = resolveStateKey(machine, key);
  return activeStateNodes(machine, snapshot).some((node) => node.id === id);
}

/** Every transition reachable with the given events, keyed `${state} --${event}--> ${next}`. */
export function getAllTransitions<M extends AnyStateMachine>(machine: M, options: WalkerOptions<M> = {}): Map<string, ModelTransition> {
  const serialize = options.serializeState ?? ((s: Snap<M>) => serializeSnapshot(s) as string);
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

/** Fails listing every transition of `all` that `covered` lacks. */
export function expectFullTransitionCoverage(covered: Iterable<string>, all: Iterable<string> | Map<string, unknown>): void {
  const done = new Set(covered);
  const keys = all instanceof Map ? [...all.keys()] : [...all];
  const missing = keys.filter((key) => !done.has(key));
  if (missing.length) {
    throw new Error(
      `Transition coverage ${keys.length - missing.length}/${keys.length}; not walked:\n${missing.map((key) => `  ${key}`).join('\n')}`,
    );
  }
}

/**
 * Fails listing every state node (root and history states excepted) without an assertion.
 * `assertedStateIds` takes ids (`sample.ready`, `#sample.ready`) or state paths (`ready`).
 */
export function expectEveryStateAsserted(
  machine: AnyStateMachine,
  assertedStateIds: Iterable<string>,
  options: { ignore?: string[] } = {},
): void {
  const toId = (key: string) => {
    const id = key.startsWith('#') ? key.slice(1) : key;
    return stateNodesOf(machine).some((node) => node.id === id) ? id : resolveStateKey(machine, key);
  };
  const asserted = new Set([...assertedStateIds].map(toId));
  const ignored = new Set((options.ignore ?? []).map(toId));
  const missing = stateNodesOf(machine)
    .filter((node) => node !== machine.root && node.type !== 'history' && !ignored.has(node.id) && !asserted.has(node.id))
    .map((node) => node.id);
  if (missing.length) {
    throw new Error(`States of "${machine.id}" without an assertion:\n${missing.map((id) => `  #${id}`).join('\n')}`);
  }
}

/** A short test name for an event: its actor alias (`done: fetchAccount`) and a clipped payload. */
function formatEventForHumans(machine: AnyStateMachine, event: EventObject): string {
  const { type, ...payload } = event;
  const name = eventLabel(machine, type);
  // An actor's output is data for the next state, not what the step is: leave it out.
  if ('output' in payload) delete (payload as { output?: unknown }).output;
  if (!Object.keys(payload).length) return name;
  const describe = (_key: string, value: unknown) =>
    value instanceof Error ? [value.name, (value as { status?: unknown }).status].filter(Boolean).join(' ') : value;
  const text = JSON.stringify(payload, describe);
  return `${name} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

function activeLeaves(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string {
  const leaves = activeStateNodes(machine, snapshot)
    .filter((node) => node.type === 'atomic' || node.type === 'final')
    .map((node) => node.path.join('.'));
  return leaves.join(' + ') || '(root)';
}

/** Builds the model, the transitions to cover and runnable paths that walk all of them. */
export function createModelWalker<M extends AnyStateMachine>(machine: M, options: WalkerOptions<M> = {}): ModelWalker<M> {
  const serialize = options.serializeState ?? ((s: Snap<M>) => serializeSnapshot(s) as string);
  const events = eventsFunction(machine, options.events);
  const model = new TestModel<Snap<M>, Ev<M>, InputFrom<M>>(machine as never, {
    events,
    serializeState: (s) => serialize(s),
    stateMatcher: (snapshot, key) => matchesKey(machine, snapshot as AnyMachineSnapshot, key),
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
  const kept = statePaths.filter((_, i) => {
    const mine = sequences[i] as string[];
    return !sequences.some(
      (other, j) =>
        j !== i && (other.length > mine.length || (other.length === mine.length && j < i)) && mine.every((e, k) => other[k] === e),
    );
  });

  const covered = new Set<string>();
  const assertedStateIds = new Set<string>();
  const paths = kept.map((statePath): WalkerPath<M> => {
    const walked = walkedBy(statePath);
    const eventLabels = statePath.steps.slice(1).map((step) => formatEventForHumans(machine, step.event));
    const target = activeLeaves(machine, statePath.state as AnyMachineSnapshot);
    return {
      description: `${eventLabels.length ? eventLabels.join(' → ') : '(initial state)'} ⇒ ${target}`,
      events: statePath.steps.slice(1).map((step) => step.event.type),
      transitions: walked,
      state: statePath.state,
      async test(params) {
        const stateTests: Record<string, (snapshot: Snap<M>) => Promise<void>> = {};
        for (const [key, assertion] of Object.entries(params.states ?? {})) {
          const id = resolveStateKey(machine, key);
          stateTests[key] = async (snapshot) => {
            await assertion(snapshot);
            assertedStateIds.add(id);
          };
        }
        const executors: Record<string, (step: Step<Snap<M>, Ev<M>>) => unknown> = {};
        for (const step of statePath.steps.slice(1)) {
          const type = step.event.type;
          const executor = lookup(machine, params.events, type);
          if (!executor) {
            const aliases = eventAliases(machine, type);
            throw new Error(
              `No event executor for "${type}"${aliases.length ? ` (or ${aliases.map((a) => `"${a}"`).join(', ')})` : ''} in path: ${this.description}`,
            );
          }
          executors[type] = executor;
        }
        const initial = params.events?.['xstate.init'];
        if (initial) executors['xstate.init'] = initial;
        await model.testPath(statePath, { states: stateTests, events: executors } as never);
        for (const t of walked) covered.add(t.key);
      },
    };
  });

  return {
    model,
    paths,
    transitions,
    covered,
    assertedStateIds,
    expectFullCoverage: () => expectFullTransitionCoverage(covered, transitions),
    expectEveryStateAsserted: (opts) => expectEveryStateAsserted(machine, assertedStateIds, opts),
  };
}

function nextStep<M extends AnyStateMachine>(
  machine: M,
  from: Snap<M>,
  transition: ModelTransition,
  events: (snapshot: Snap<M>) => Ev<M>[],
  serialize: (snapshot: Snap<M>) => string,
  filterEvents: WalkerOptions<M>['filterEvents'],
): Step<Snap<M>, Ev<M>> | undefined {
  for (const event of events(from)) {
    if (event.type !== transition.eventType || (filterEvents && !filterEvents(from, event))) continue;
    // The same pure step getAdjacencyMap takes: no actor started, no action executed.
    const state = getNextSnapshot(machine, from, event) as Snap<M>;
    if (serialize(state) === transition.to) return { state, event };
  }
  return undefined;
}
