// The statechart explorer's pages as `npm run visualize` writes them: a page for every machine of
// the registry it is given (a machine added to machines/index.ts needs nothing more), the drawing
// laid out from the machine (nested and parallel states, labelled transitions), the tours taken
// from the model-based test's own paths, and the reasons a disabled event button gives.
import { describe, expect, it } from 'vitest';
import { createActor, setup, type AnyMachineSnapshot } from 'xstate';
import { deactivationMachine } from '../../machines/deactivation';
import { machines } from '../../machines/index';
import { toChart } from '../../scripts/statechart-diagram';
import { externalEvents, toursOf } from '../../scripts/statechart-explorer';
import { renderLayout } from '../../scripts/statechart-layout';
import { renderAll } from '../../scripts/visualize';
import { ManualClock } from '../../src/explorer/manual-clock';
import { PAGE_DATA_ID, type PageData } from '../../src/explorer/page-data';
import { refusal } from '../../src/explorer/refusal';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk as deactivationWalk } from '../machines/walks/deactivation';

/** A machine no test knows: nested, parallel, a guard that refuses. */
const extraMachine = setup({
  types: {} as { context: { count: number }; events: { type: 'light.toggle' } | { type: 'count.add' } | { type: 'lock.open' } },
  guards: { isUnlocked: () => false },
}).createMachine({
  id: 'extra',
  initial: 'running',
  context: { count: 0 },
  states: {
    running: {
      type: 'parallel',
      states: {
        light: { initial: 'off', states: { off: { on: { 'light.toggle': 'on' } }, on: { on: { 'light.toggle': 'off' } } } },
        lock: { initial: 'closed', states: { closed: { on: { 'lock.open': { target: 'open', guard: 'isUnlocked' } } }, open: {} } },
      },
    },
  },
});

const pageData = (html: string): PageData => {
  const json = new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(html)?.[1];
  return JSON.parse(json ?? 'null') as PageData;
};

describe('statechart explorer pages', () => {
  it('gives a machine added to the registry its page, its drawing and its place in the index', async () => {
    const registry = { deactivation: machines.deactivation, 'extra-machine': extraMachine };
    const files = await renderAll(registry, { walks: { deactivation: deactivationWalk }, bundle: false });
    const page = files.get('extra-machine.html') ?? '';
    expect(page).toContain('<h1>Extra machine statechart explorer</h1>');
    // The page script finds the machine by its registry key and sends the machine's own events.
    const data = pageData(page);
    expect(data.machine).toBe('extra-machine');
    expect(data.events).toEqual(['light.toggle', 'lock.open']);
    expect(data.tours).toEqual([]);
    expect(data.toursNote).toMatch(/does not share its walk/);
    for (const id of ['extra.running', 'extra.running.light', 'extra.running.light.on', 'extra.running.lock.open']) {
      expect(page, id).toContain(`<li data-state="${id}">`);
      expect(page, id).toMatch(new RegExp(`<g class="[^"]*" data-state="${id.replace(/\./g, '\\.')}">`));
    }
    expect(page).toContain('<script src="explorer.js" defer></script>');
    expect(files.get('index.html')).toContain('<a href="extra-machine.html">Extra machine</a>');
    // The known machine keeps its tours.
    expect(pageData(files.get('deactivation.html') ?? '').tours.length).toBeGreaterThan(0);
  });

  it('draws nested and parallel states as such, and labels transitions with event and guard', async () => {
    const svg = await renderLayout(toChart(extraMachine), 'Drawing of the extra machine');
    expect(svg).toContain('role="img" aria-label="Drawing of the extra machine"');
    expect(svg).toMatch(/<g class="state state-parallel" data-state="extra\.running">/);
    // The regions of the parallel state are dashed boxes inside it, their states inside them.
    expect(svg).toMatch(/<g class="state state-compound region" data-state="extra\.running\.light">/);
    expect(svg).toMatch(/<g class="state state-atomic" data-state="extra\.running\.light\.on">/);
    expect(svg).toContain('>lock.open [isUnlocked]</text>');
    expect(svg).toContain('>light.toggle</text>');
    const box = (id: string) => {
      const match = new RegExp(
        `data-state="${id.replace(/\./g, '\\.')}">\\n<rect x="([\\d.]+)" y="([\\d.]+)" width="([\\d.]+)" height="([\\d.]+)"`,
      ).exec(svg);
      const [x, y, w, h] = (match?.slice(1) ?? []).map(Number) as [number, number, number, number];
      return { x, y, w, h };
    };
    const outer = box('extra.running');
    const inner = box('extra.running.light.on');
    expect(inner.x).toBeGreaterThan(outer.x);
    expect(inner.y).toBeGreaterThan(outer.y);
    expect(inner.x + inner.w).toBeLessThan(outer.x + outer.w);
    expect(inner.y + inner.h).toBeLessThan(outer.y + outer.h);
    expect(await renderLayout(toChart(extraMachine), 'Drawing of the extra machine')).toBe(svg);
  });

  it('lists as tours the very paths the model-based test walks, with the walk events they send', () => {
    const walker = createModelWalker(deactivationMachine, deactivationWalk);
    const { tours, reach } = toursOf(deactivationMachine, deactivationWalk);
    expect(tours.map((tour) => tour.steps.map((step) => step.type))).toEqual(walker.paths.map((path) => path.events));
    expect(tours[0]?.steps[0]?.label).toMatch(/^(done|error): loadLoan/);
    // Every state of the machine can be linked to: some tour reaches it.
    expect(Object.keys(reach).sort()).toEqual(
      ['checking', 'editing', 'failed', 'submitted', 'submitting', 'unavailable'].map((key) => `deactivation.${key}`),
    );
    const failing = tours.flatMap((tour) => tour.steps).find((step) => step.type.startsWith('xstate.error.actor.') && step.variant === 1);
    expect(failing?.label).toMatch(/\(HTTP \d{3}: /);
  });

  it('says why an event is refused: a guard, or a state that does not take it', () => {
    const actor = createActor(extraMachine).start();
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    expect(snapshot.can({ type: 'lock.open' })).toBe(false);
    expect(refusal(extraMachine, snapshot, 'lock.open')).toBe('refused by guard isUnlocked');
    expect(refusal(extraMachine, snapshot, 'count.add')).toBe('not accepted in this state');
    expect(externalEvents(extraMachine, toChart(extraMachine))).toEqual(['light.toggle', 'lock.open']);
    actor.stop();
    expect(refusal(extraMachine, actor.getSnapshot() as AnyMachineSnapshot, 'light.toggle')).toBe('the machine has stopped');
  });
});

describe('the explorer clock', () => {
  it('fires a timer only when asked, the next due first, and forgets cancelled ones', () => {
    const machine = setup({ delays: { debounce: 500 } }).createMachine({
      id: 'timed',
      initial: 'waiting',
      states: {
        waiting: { after: { debounce: 'typed', 3000: 'idle' } },
        typed: { on: { again: 'waiting' } },
        idle: {},
      },
    });
    const clock = new ManualClock();
    const actor = createActor(machine, { clock }).start();
    expect(clock.timers.size).toBe(2);
    expect(clock.next()?.[1].due).toBe(500);
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.fireNext();
    expect(actor.getSnapshot().value).toBe('typed');
    // Leaving the state cancelled the other timer.
    expect(clock.timers.size).toBe(0);
    actor.send({ type: 'again' });
    expect(clock.next()?.[1].due).toBe(1000);
    actor.stop();
  });
});
