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
 * How it works: the paths come from scripts/statechart-paths.ts (shared with the statechart
 * explorer's tours): every (state, event, next state) reachable with the given events, and paths
 * that walk all of them. Every path run through `path.test` records the steps it walked and the
 * state keys it asserted, and a step without an event executor fails instead of silently doing
 * nothing.
 *
 * State nodes, event names and aliases come from scripts/statechart-introspection.ts, which the
 * diagram generator shares, through XState's public API only.
 *
 * State keys of `states` are state paths (`ready.form.editing`, matched with
 * `snapshot.matches`) or ids (`#sample.ready`). If context grows without bound (counters,
 * lists), pass a `serializeState` that ignores it, or the traversal stops at `limit`.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventFromLogic, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import type { TestModel, Step } from 'xstate/graph';
import { activeStateNodes, eventAliases, eventLabel, stateNodeForKey, stateNodesOf } from '../../../scripts/statechart-introspection';
import { getAllTransitions, lookup, machinePaths, type ModelTransition, type PathOptions } from '../../../scripts/statechart-paths';

export { eventAliases, getAllTransitions };
export type { ModelTransition };

type Snap<M extends AnyStateMachine> = SnapshotFrom<M>;
type Ev<M extends AnyStateMachine> = EventFromLogic<M>;

/** What to walk: the events (with payloads), input, state identity and strategy (scripts/statechart-paths.ts). */
export type WalkerOptions<M extends AnyStateMachine> = Omit<PathOptions<M>, 'stateMatcher'>;

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

/** Resolves a `states` key (`a.b`, `#id`) to its state node id; throws on unknown keys. */
export function resolveStateKey(machine: AnyStateMachine, key: string): string {
  return stateNodeForKey(machine, key).id;
}

function matchesKey(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, key: string): boolean {
  const id = resolveStateKey(machine, key);
  return activeStateNodes(machine, snapshot).some((node) => node.id === id);
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
  const {
    model,
    transitions,
    paths: kept,
    walkedBy,
  } = machinePaths(machine, {
    ...options,
    stateMatcher: (snapshot, key) => matchesKey(machine, snapshot as AnyMachineSnapshot, key),
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
