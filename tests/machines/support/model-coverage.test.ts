import { describe, expect, it } from 'vitest';
import { SimulatedClock, assign, createActor, fromPromise, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  createModelWalker,
  eventAliases,
  expectEveryStateAsserted,
  expectFullTransitionCoverage,
  getAllTransitions,
} from './model-coverage';

/** No invoke, no `after`: createTestModel accepts it. Two transitions lead back to `off`. */
const toggleMachine = setup({
  types: {} as { events: { type: 'toggle' } | { type: 'reset' } },
}).createMachine({
  id: 'toggle',
  initial: 'off',
  states: {
    off: { on: { toggle: 'on' } },
    on: { on: { toggle: 'off', reset: 'off' } },
  },
});

type User = { name: string };

/** Invoke (done and error), named and numeric `after`, guards with payloads, parallel, final. */
const profileMachine = setup({
  types: {} as {
    context: { attempts: number; user?: User; note: string };
    events: { type: 'retry' } | { type: 'note.save'; note: string } | { type: 'panel.toggle' } | { type: 'session.logout' };
  },
  actors: { loadUser: fromPromise<User>(async () => ({ name: 'real' })) },
  guards: { hasNote: ({ event }) => event.type === 'note.save' && event.note.trim().length > 0 },
  delays: { debounce: 500 },
}).createMachine({
  id: 'profile',
  initial: 'loading',
  context: { attempts: 0, note: '' },
  on: { 'session.logout': '.signedOut' },
  states: {
    loading: {
      invoke: {
        src: 'loadUser',
        onDone: { target: 'ready', actions: assign({ user: ({ event }) => event.output }) },
        onError: 'failed',
      },
    },
    failed: {
      on: { retry: { target: 'loading', actions: assign({ attempts: ({ context }) => context.attempts + 1 }) } },
      after: { 3000: 'signedOut' },
    },
    ready: {
      type: 'parallel',
      states: {
        note: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'note.save': [
                  { target: 'saving', guard: 'hasNote', actions: assign({ note: ({ event }) => event.note }) },
                  { target: 'invalid' },
                ],
              },
            },
            invalid: { after: { debounce: 'editing' } },
            saving: { after: { debounce: 'saved' } },
            saved: { type: 'final' },
          },
        },
        panel: {
          initial: 'open',
          states: {
            open: { on: { 'panel.toggle': 'closed' } },
            closed: { on: { 'panel.toggle': 'open' } },
          },
        },
      },
    },
    signedOut: { type: 'final' },
  },
});

const profileEvents = {
  'note.save': [
    { type: 'note.save', note: 'hello' },
    { type: 'note.save', note: '  ' },
  ],
  'done: loadUser': { output: { name: 'Ada' } },
  'error: loadUser': { error: new Error('offline') },
};

/** The system under test: a live actor with a simulated clock and a controllable loadUser. */
function startProfile() {
  const clock = new SimulatedClock();
  let pending: { resolve: (user: User) => void; reject: (error: unknown) => void } | undefined;
  const actor = createActor(
    profileMachine.provide({
      actors: {
        loadUser: fromPromise<User>(() => new Promise<User>((resolve, reject) => (pending = { resolve, reject }))),
      },
    }),
    { clock },
  );
  actor.start();
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    actor,
    clock,
    async finishLoading(outcome: 'done' | 'error') {
      if (!pending) throw new Error('loadUser is not running');
      if (outcome === 'done') pending.resolve({ name: 'Ada' });
      else pending.reject(new Error('offline'));
      pending = undefined;
      await flush();
    },
  };
}

describe('getAllTransitions', () => {
  it('lists every (state, event, next state) of the adjacency map', () => {
    const keys = [...getAllTransitions(toggleMachine).keys()].sort();
    expect(keys).toEqual([
      '{"value":"off"} --toggle--> {"value":"on"}',
      '{"value":"on"} --reset--> {"value":"off"}',
      '{"value":"on"} --toggle--> {"value":"off"}',
    ]);
  });

  it('uses the concrete events given (with payloads) and names invoke and timer events', () => {
    const all = getAllTransitions(profileMachine, { events: profileEvents, serializeState: (s) => JSON.stringify(s.value) });
    const eventTypes = new Set([...all.values()].map((t) => t.eventType));
    expect(eventTypes).toContain('xstate.done.actor.0.profile.loading');
    expect(eventTypes).toContain('xstate.after.debounce.profile.ready.note.invalid');
    expect(eventTypes).toContain('xstate.after.3000.profile.failed');
    // Both payloads of note.save were tried: one passes the guard, one does not.
    const fromEditing = [...all.values()].filter((t) => t.eventType === 'note.save').map((t) => t.to);
    expect(fromEditing.some((to) => to.includes('"saving"'))).toBe(true);
    expect(fromEditing.some((to) => to.includes('"invalid"'))).toBe(true);
    expect(eventAliases(profileMachine, 'xstate.done.actor.0.profile.loading')).toEqual(['done: 0.profile.loading', 'done: loadUser']);
    expect(eventAliases(profileMachine, 'xstate.after.debounce.profile.ready.note.invalid')).toEqual(['after: debounce']);
  });
});

describe('createModelWalker on a machine createTestModel accepts', () => {
  it('walks every transition, including the second way back to a visited state', async () => {
    const walker = createModelWalker(toggleMachine);
    // Shortest paths reach the state `off` once, through `toggle`; the walker adds a `reset` path.
    const shortest = walker.model.getShortestPaths({ allowDuplicatePaths: true });
    expect(shortest.flatMap((p) => p.steps.map((s) => s.event.type))).not.toContain('reset');
    expect(walker.paths.flatMap((p) => p.events)).toContain('reset');

    for (const path of walker.paths) {
      const actor = createActor(toggleMachine).start();
      await path.test({
        states: {
          off: (s) => expect(actor.getSnapshot().value).toBe(s.value),
          '#toggle.on': (s) => expect(actor.getSnapshot().value).toBe(s.value),
        },
        events: {
          toggle: () => actor.send({ type: 'toggle' }),
          reset: () => actor.send({ type: 'reset' }),
        },
      });
    }
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
    expect(walker.covered.size).toBe(3);
  });

  it('fails the coverage assertion, naming the transition, when a path is not walked', async () => {
    const walker = createModelWalker(toggleMachine);
    for (const path of walker.paths.filter((p) => !p.events.includes('reset'))) {
      await path.test({ states: {}, events: { toggle: () => {} } });
    }
    expect(() => walker.expectFullCoverage()).toThrowError(/2\/3; not walked:\n {2}\{"value":"on"\} --reset--> \{"value":"off"\}$/);
  });

  it('fails a path whose event has no executor instead of silently skipping the step', async () => {
    const walker = createModelWalker(toggleMachine);
    const path = walker.paths.find((p) => p.events.includes('toggle'));
    await expect(path?.test({ events: {} })).rejects.toThrowError(/No event executor for "toggle"/);
    expect(walker.covered.size).toBe(0);
  });

  it('fails a path whose state assertion fails, and does not count it as covered', async () => {
    const walker = createModelWalker(toggleMachine);
    const path = walker.paths.find((p) => p.events.length > 0);
    await expect(
      path?.test({
        states: { on: () => expect('shown').toBe('hidden') },
        events: { toggle: () => {}, reset: () => {} },
      }),
    ).rejects.toThrowError();
    expect(walker.covered.size).toBe(0);
  });
});

describe('createModelWalker on a machine with invoke and after (TestModel, not createTestModel)', () => {
  it('createTestModel refuses the machine', () => {
    expect(() => createTestModel(profileMachine)).toThrowError(/not supported/);
  });

  it('drives a live actor through every transition and proves full coverage', async () => {
    const walker = createModelWalker(profileMachine, {
      events: profileEvents,
      // `attempts` grows on every retry: identify states by value only.
      serializeState: (s) => JSON.stringify(s.value),
    });
    expect(walker.transitions.size).toBeGreaterThan(10);

    for (const path of walker.paths) {
      const sut = startProfile();
      const expectValue = (s: { value: unknown }) => expect(sut.actor.getSnapshot().value).toEqual(s.value);
      await path.test({
        states: {
          loading: expectValue,
          failed: expectValue,
          ready: () => expect(sut.actor.getSnapshot().context.user).toEqual({ name: 'Ada' }),
          'ready.note': expectValue,
          'ready.note.editing': expectValue,
          'ready.note.invalid': expectValue,
          'ready.note.saving': () => expect(sut.actor.getSnapshot().context.note).toBe('hello'),
          'ready.note.saved': expectValue,
          'ready.panel': expectValue,
          'ready.panel.open': expectValue,
          'ready.panel.closed': expectValue,
          '#profile.signedOut': () => expect(sut.actor.getSnapshot().status).toBe('done'),
        },
        events: {
          'done: loadUser': () => sut.finishLoading('done'),
          'error: loadUser': () => sut.finishLoading('error'),
          'after: debounce': () => sut.clock.increment(500),
          'after: 3000': () => sut.clock.increment(3000),
          retry: () => sut.actor.send({ type: 'retry' }),
          'note.save': ({ event }) => sut.actor.send(event),
          'panel.toggle': () => sut.actor.send({ type: 'panel.toggle' }),
          'session.logout': () => sut.actor.send({ type: 'session.logout' }),
        },
      });
      sut.actor.stop();
    }

    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });

  it('reports the states no test asserted', async () => {
    const walker = createModelWalker(profileMachine, { events: profileEvents, serializeState: (s) => JSON.stringify(s.value) });
    const path = walker.paths.find((p) => p.events[0] === 'xstate.error.actor.0.profile.loading');
    expect(path).toBeDefined();
    const sut = startProfile();
    await path?.test({
      states: { failed: () => {} },
      events: {
        'done: loadUser': () => sut.finishLoading('done'),
        'error: loadUser': () => sut.finishLoading('error'),
        'after: 3000': () => sut.clock.increment(3000),
        retry: () => sut.actor.send({ type: 'retry' }),
        'session.logout': () => sut.actor.send({ type: 'session.logout' }),
      },
    });
    expect(() => walker.expectEveryStateAsserted({ ignore: ['ready', 'ready.note', 'ready.panel'] })).toThrowError(
      /without an assertion:\n {2}#profile\.loading\n {2}#profile\.ready\.note\.editing/,
    );
  });
});

describe('standalone assertions', () => {
  it('expectFullTransitionCoverage passes when everything is covered and lists what is not', () => {
    expect(() => expectFullTransitionCoverage(['a', 'b'], ['a', 'b'])).not.toThrow();
    expect(() => expectFullTransitionCoverage(['a'], ['a', 'b', 'c'])).toThrowError('Transition coverage 1/3; not walked:\n  b\n  c');
  });

  it('expectEveryStateAsserted accepts ids, #ids and paths, and rejects unknown keys', () => {
    expect(() => expectEveryStateAsserted(toggleMachine, ['toggle.off', '#toggle.on'])).not.toThrow();
    expect(() => expectEveryStateAsserted(toggleMachine, ['off', 'on'])).not.toThrow();
    expect(() => expectEveryStateAsserted(toggleMachine, ['off'])).toThrowError('#toggle.on');
    expect(() => expectEveryStateAsserted(toggleMachine, ['of'])).toThrowError('Unknown state key "of"');
  });
});
