// Statechart introspection, written once for the diagram generator (scripts/statechart-diagram.ts)
// and the model walker (tests/machines/support/model-coverage.ts). Everything is read through
// XState's public API: `xstate/graph` (getStateNodes, toDirectedGraph), the public fields and
// getters of StateNode (states, invoke, after, always, order...) and getNextTransitions for a
// snapshot. No private snapshot fields (`_nodes`) and no raw config.
import { getNextTransitions } from 'xstate';
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, AnyTransitionDefinition, StateValue } from 'xstate';
import { getStateNodes, toDirectedGraph } from 'xstate/graph';
import type { DirectedGraphNode } from 'xstate/graph';

/** The root and every descendant state node, in definition order. */
export function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  return [machine.root, ...getStateNodes(machine.root)];
}

/** The child state nodes of a node, in definition order. */
export function childStateNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>);
}

/** An invoked actor: its id (what its done and error events carry) and a readable name. */
export interface InvokedActor {
  id: string;
  /** The `src` it was given by name; absent for inline logic (XState generates `xstate.invoke.*`). */
  src?: string;
  /** `src` when named, else the id. */
  name: string;
}

export function invokedActors(node: AnyStateNode): InvokedActor[] {
  return node.invoke.map((definition) => {
    const src = typeof definition.src === 'string' && !definition.src.startsWith('xstate.invoke.') ? definition.src : undefined;
    return src ? { id: definition.id, src, name: src } : { id: definition.id, name: definition.id };
  });
}

/** What a transition's event type stands for, with the built-in event types decoded. */
export type EventMeaning =
  | { kind: 'always' }
  | { kind: 'wildcard' }
  | { kind: 'after'; delay: string; ms?: number; stateId: string }
  | { kind: 'done' | 'error'; actor: InvokedActor }
  | { kind: 'state-done'; stateId: string }
  | { kind: 'event'; type: string };

interface MachineIndex {
  actors: Map<string, InvokedActor>;
  delayed: Map<string, { delay: string; ms?: number; stateId: string }>;
}

const indexes = new WeakMap<AnyStateMachine, MachineIndex>();

function indexOf(machine: AnyStateMachine): MachineIndex {
  const known = indexes.get(machine);
  if (known) return known;
  const index: MachineIndex = { actors: new Map(), delayed: new Map() };
  const delays = (machine.implementations.delays ?? {}) as Record<string, unknown>;
  for (const node of stateNodesOf(machine)) {
    for (const actor of invokedActors(node)) index.actors.set(actor.id, actor);
    // `after` lists the delayed transitions with the delay as written (a number or a named delay).
    for (const transition of node.after) {
      const delay = String(transition.delay);
      const configured = typeof transition.delay === 'number' ? transition.delay : delays[delay];
      index.delayed.set(transition.eventType, {
        delay,
        ...(typeof configured === 'number' ? { ms: configured } : {}),
        stateId: node.id,
      });
    }
  }
  indexes.set(machine, index);
  return index;
}

const DONE_ACTOR = 'xstate.done.actor.';
const ERROR_ACTOR = 'xstate.error.actor.';
const DONE_STATE = 'xstate.done.state.';

/** Decodes an event type: `xstate.after.*`, `xstate.done.actor.*`, `xstate.error.actor.*`, `xstate.done.state.*`, '' (always). */
export function eventMeaning(machine: AnyStateMachine, eventType: string): EventMeaning {
  if (eventType === '') return { kind: 'always' };
  if (eventType === '*') return { kind: 'wildcard' };
  const index = indexOf(machine);
  const delayed = index.delayed.get(eventType);
  if (delayed) return { kind: 'after', ...delayed };
  for (const [prefix, kind] of [
    [DONE_ACTOR, 'done'],
    [ERROR_ACTOR, 'error'],
  ] as const) {
    if (eventType.startsWith(prefix)) {
      const id = eventType.slice(prefix.length);
      return { kind, actor: index.actors.get(id) ?? { id, name: id } };
    }
  }
  if (eventType.startsWith(DONE_STATE)) return { kind: 'state-done', stateId: eventType.slice(DONE_STATE.length) };
  return { kind: 'event', type: eventType };
}

/** The readable name of an event type: `after debounce (500ms)`, `done: loadUser`, `always`, `form.submit`. */
export function eventLabel(machine: AnyStateMachine, eventType: string): string {
  const meaning = eventMeaning(machine, eventType);
  switch (meaning.kind) {
    case 'always':
      return 'always';
    case 'wildcard':
      return '*';
    case 'after':
      if (/^\d+$/.test(meaning.delay)) return `after ${meaning.delay}ms`;
      return meaning.ms === undefined ? `after ${meaning.delay}` : `after ${meaning.delay} (${meaning.ms}ms)`;
    case 'done':
    case 'error':
      return `${meaning.kind}: ${meaning.actor.name}`;
    case 'state-done':
      return 'done';
    case 'event':
      return meaning.type;
  }
}

/**
 * Names a test may use for a built-in event type instead of the generated one:
 * `done: <invoke id>` and `done: <src>` (same for `error:`), `after: <delay>`. Empty for other events.
 */
export function eventAliases(machine: AnyStateMachine, eventType: string): string[] {
  const meaning = eventMeaning(machine, eventType);
  if (meaning.kind === 'done' || meaning.kind === 'error') {
    const names = [meaning.actor.id, ...(meaning.actor.src ? [meaning.actor.src] : [])];
    return [...new Set(names)].map((name) => `${meaning.kind}: ${name}`);
  }
  if (meaning.kind === 'after') return [`after: ${meaning.delay}`];
  return [];
}

/** One arrow of the chart: a transition toward one of its targets (itself when it has none). */
export interface StateEdge {
  source: AnyStateNode;
  target: AnyStateNode;
  /** As XState keys it; '' for `always`. */
  eventType: string;
  transition: AnyTransitionDefinition;
  /** No target: actions run, the state is not left. */
  targetless: boolean;
}

/**
 * Every transition of the machine as edges, node by node in definition order: the event
 * transitions (from toDirectedGraph) then the eventless `always` ones, which it leaves out.
 */
export function stateEdges(machine: AnyStateMachine): StateEdge[] {
  const edges: StateEdge[] = [];
  const visit = (graph: DirectedGraphNode) => {
    const node = graph.stateNode;
    for (const edge of graph.edges) {
      const targetless = !edge.transition.target?.length;
      edges.push({ source: node, target: edge.target, eventType: edge.transition.eventType, transition: edge.transition, targetless });
    }
    for (const transition of (node.always ?? []) as AnyTransitionDefinition[]) {
      const targets = transition.target?.length ? [...transition.target] : [node];
      for (const target of targets) edges.push({ source: node, target, eventType: '', transition, targetless: !transition.target?.length });
    }
    graph.children.forEach(visit);
  };
  visit(toDirectedGraph(machine));
  return edges;
}

/** The state nodes a snapshot is in (root, compound ancestors and leaves), in definition order. */
export function activeStateNodes(machine: AnyStateMachine, snapshot: { value: StateValue }): AnyStateNode[] {
  const active: AnyStateNode[] = [];
  const visit = (node: AnyStateNode, value: StateValue | undefined) => {
    active.push(node);
    const states = node.states as Record<string, AnyStateNode>;
    if (typeof value === 'string') {
      const leaf = states[value];
      if (leaf) active.push(leaf);
      return;
    }
    for (const [key, sub] of Object.entries(value ?? {})) {
      const child = states[key];
      if (child) visit(child, sub as StateValue | undefined);
    }
  };
  visit(machine.root, snapshot.value);
  return active.sort((a, b) => a.order - b.order);
}

/**
 * Event types a snapshot handles, in XState's order for its next transitions: those that change
 * something (a target or actions), not `always` and not transitions that only block an event.
 */
export function handledEventTypes(snapshot: AnyMachineSnapshot): string[] {
  const types = getNextTransitions(snapshot)
    .filter((t) => t.eventType !== '' && (t.target?.length || t.actions.length || t.reenter))
    .map((t) => t.eventType as string);
  return [...new Set(types)];
}

/** The state node a test key names: a path (`ready.form.editing`) or an id (`#sample.ready`); throws on unknown keys. */
export function stateNodeForKey(machine: AnyStateMachine, key: string): AnyStateNode {
  if (key.startsWith('#')) return machine.getStateNodeById(key.slice(1));
  let node: AnyStateNode | undefined = machine.root;
  for (const segment of key.split('.')) node = (node?.states as Record<string, AnyStateNode> | undefined)?.[segment];
  if (!node) throw new Error(`Unknown state key "${key}" for machine "${machine.id}"`);
  return node;
}
