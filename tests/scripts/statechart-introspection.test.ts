import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, setup } from 'xstate';
import {
  activeStateNodes,
  eventAliases,
  eventLabel,
  eventMeaning,
  handledEventTypes,
  stateEdges,
  stateNodeForKey,
  stateNodesOf,
} from '../../scripts/statechart-introspection';

const machine = setup({
  types: {} as { events: { type: 'save' } | { type: 'edit' } | { type: 'ping' } | { type: 'blocked' } | { type: 'toggle' } },
  actors: { loadUser: fromPromise(async () => 'Ada') },
  actions: { notify: () => {} },
  guards: { never: () => false },
  delays: { debounce: 500 },
}).createMachine({
  id: 'intro',
  initial: 'loading',
  on: { blocked: {} },
  states: {
    loading: {
      invoke: { src: 'loadUser', onDone: 'ready', onError: 'failed' },
    },
    failed: { after: { 3000: 'loading' } },
    ready: {
      type: 'parallel',
      onDone: 'done',
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: { on: { save: 'saved', ping: { actions: 'notify' } } },
            invalid: { after: { debounce: 'editing' } },
            saved: { type: 'final' },
          },
        },
        panel: { initial: 'open', states: { open: { on: { toggle: 'closed' } }, closed: { always: { guard: 'never', target: 'open' } } } },
      },
    },
    done: { type: 'final' },
  },
});

const inlineMachine = createMachine({
  id: 'inline',
  initial: 'running',
  states: { running: { invoke: { id: 'compute', src: fromPromise(async () => 1), onDone: 'done' } }, done: {} },
});

describe('statechart introspection', () => {
  it('lists the root and every state node in definition order', () => {
    expect(stateNodesOf(machine).map((n) => n.id)).toEqual([
      'intro',
      'intro.loading',
      'intro.failed',
      'intro.ready',
      'intro.ready.form',
      'intro.ready.form.editing',
      'intro.ready.form.invalid',
      'intro.ready.form.saved',
      'intro.ready.panel',
      'intro.ready.panel.open',
      'intro.ready.panel.closed',
      'intro.done',
    ]);
  });

  it('decodes built-in event types and names them once for diagrams and tests', () => {
    expect(eventMeaning(machine, 'xstate.after.debounce.intro.ready.form.invalid')).toEqual({
      kind: 'after',
      delay: 'debounce',
      ms: 500,
      stateId: 'intro.ready.form.invalid',
    });
    expect(eventLabel(machine, 'xstate.after.debounce.intro.ready.form.invalid')).toBe('after debounce (500ms)');
    expect(eventLabel(machine, 'xstate.after.3000.intro.failed')).toBe('after 3000ms');
    expect(eventAliases(machine, 'xstate.after.3000.intro.failed')).toEqual(['after: 3000']);

    const loadUser = 'xstate.done.actor.0.intro.loading';
    expect(eventLabel(machine, loadUser)).toBe('done: loadUser');
    expect(eventAliases(machine, loadUser)).toEqual(['done: 0.intro.loading', 'done: loadUser']);
    expect(eventLabel(machine, 'xstate.error.actor.0.intro.loading')).toBe('error: loadUser');
    // Inline logic has no name of its own: its id names it.
    expect(eventLabel(inlineMachine, 'xstate.done.actor.compute')).toBe('done: compute');
    expect(eventAliases(inlineMachine, 'xstate.done.actor.compute')).toEqual(['done: compute']);

    expect(eventLabel(machine, 'xstate.done.state.intro.ready')).toBe('done');
    expect(eventLabel(machine, '')).toBe('always');
    expect(eventLabel(machine, 'save')).toBe('save');
    expect(eventAliases(machine, 'save')).toEqual([]);
  });

  it('gives every transition as edges, always included, targetless ones pointing at their source', () => {
    const edges = stateEdges(machine).map(
      (e) => `${e.source.key} -${eventLabel(machine, e.eventType)}-> ${e.target.key}${e.targetless ? ' (targetless)' : ''}`,
    );
    expect(edges).toEqual([
      'intro -blocked-> intro (targetless)',
      'loading -done: loadUser-> ready',
      'loading -error: loadUser-> failed',
      'failed -after 3000ms-> loading',
      'ready -done-> done',
      'editing -save-> saved',
      'editing -ping-> editing (targetless)',
      'invalid -after debounce (500ms)-> editing',
      'open -toggle-> closed',
      'closed -always-> open',
    ]);
  });

  it('reads the active state nodes and handled events of a snapshot from public state', () => {
    const actor = createActor(machine.provide({ actors: { loadUser: fromPromise(async () => 'Ada') } }));
    const loading = actor.getSnapshot();
    expect(activeStateNodes(machine, loading).map((n) => n.id)).toEqual(['intro', 'intro.loading']);
    // `blocked` only blocks: not an event the state handles.
    expect(handledEventTypes(loading)).toEqual(['xstate.done.actor.0.intro.loading', 'xstate.error.actor.0.intro.loading']);

    const ready = machine.resolveState({ value: { ready: { form: 'editing', panel: 'open' } } });
    expect(activeStateNodes(machine, ready).map((n) => n.id)).toEqual([
      'intro',
      'intro.ready',
      'intro.ready.form',
      'intro.ready.form.editing',
      'intro.ready.panel',
      'intro.ready.panel.open',
    ]);
    expect(handledEventTypes(ready).sort()).toEqual(['ping', 'save', 'toggle', 'xstate.done.state.intro.ready']);
  });

  it('resolves test keys by path or id and refuses unknown ones', () => {
    expect(stateNodeForKey(machine, 'ready.form.editing').id).toBe('intro.ready.form.editing');
    expect(stateNodeForKey(machine, '#intro.failed').id).toBe('intro.failed');
    expect(() => stateNodeForKey(machine, 'ready.nowhere')).toThrow('Unknown state key "ready.nowhere" for machine "intro"');
    expect(() => stateNodeForKey(machine, '#intro.nowhere')).toThrow();
  });
});
