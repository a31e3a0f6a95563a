// Every machine in the registry shares its model-based test's walk (tests/machines/walks/), so its
// statechart explorer page lists tours and starts with the test's input. The start below is the
// explorer's (src/explorer/explorer.ts): every actor source replaced by one that waits for an
// answer, a manual clock, the walk's input.
import { createActor, fromPromise, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { machines } from '../../machines/index';
import { loadWalks, toursOf } from '../../scripts/statechart-explorer';
import { ManualClock } from '../../src/explorer/manual-clock';

const walks = await loadWalks();

function startAsTheExplorerDoes(machine: AnyStateMachine, input: unknown) {
  const sources = Object.keys((machine.implementations.actors ?? {}) as Record<string, unknown>);
  const waiting = Object.fromEntries(sources.map((src) => [src, fromPromise(() => new Promise<never>(() => undefined))]));
  const actor = createActor(machine.provide({ actors: waiting as never }), { clock: new ManualClock(), input });
  actor.subscribe({ error: () => undefined });
  actor.start();
  return actor;
}

describe('statechart explorer walks', () => {
  for (const [name, machine] of Object.entries(machines) as [string, AnyStateMachine][]) {
    it(`${name} has a walk with tours, and starts with its input`, () => {
      const walk = walks[name];
      expect(walk, `no walk in tests/machines/walks/${name}.ts`).toBeDefined();
      expect(toursOf(machine, walk).tours.length).toBeGreaterThan(0);
      const actor = startAsTheExplorerDoes(machine, walk?.input ?? {});
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      expect(snapshot.error).toBeUndefined();
      expect(snapshot.status).toBe('active');
      actor.stop();
    });
  }

  it('has no walk for a machine the registry does not hold', () => {
    expect(Object.keys(walks).filter((name) => !(name in machines))).toEqual([]);
  });
});
