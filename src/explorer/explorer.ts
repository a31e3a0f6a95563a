// The statechart explorer's page script: runs the real machine of the page (machines/index.ts)
// with harmless actors (every invoked or spawned service waits until the owner answers it),
// a clock whose timers fire on a button, and a log of what was done so that back and reset
// replay it. The page itself (the drawing, the state list, the tours) is written by
// `npm run visualize`; this script only marks what is active and enables what is accepted.
import { createActor, fromPromise, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { machines } from '../../machines/index';
import { HttpError } from '../contract/http-error';
import { activeStateNodes } from '../../scripts/statechart-introspection';
import { lookup, type PathOptions } from '../../scripts/statechart-paths';
import { describeEvent as describeEventOf, describeValue, readable } from './describe';
import { ManualClock } from './manual-clock';
import { PAGE_DATA_ID, type PageData } from './page-data';
import { refusal } from './refusal';

type Walk = PathOptions<AnyStateMachine>;
type Supplied = Partial<EventObject> & { output?: unknown; error?: unknown };

// The walks the model-based tests share: the input, the events and the services' answers.
const walkModules = import.meta.glob<{ walk: Walk }>('../../tests/machines/walks/*.ts', { eager: true });
const walkOf = (name: string): Walk | undefined => Object.entries(walkModules).find(([file]) => file.endsWith(`/${name}.ts`))?.[1].walk;

interface Pending {
  id: string;
  src: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** What the owner did, replayed in order by back and reset. */
type Step =
  | { kind: 'event'; event: EventObject; label: string }
  | { kind: 'settle'; id: string; ok: boolean; value: unknown; label: string }
  | { kind: 'advance'; label: string };

const data = JSON.parse(document.getElementById(PAGE_DATA_ID)?.textContent ?? '{}') as PageData;
const machine = (machines as Record<string, AnyStateMachine>)[data.machine] as AnyStateMachine;
const walk = walkOf(data.machine);
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The walk's events of a type (or the bare event when the walk has none). */
function variantsOf(type: string): EventObject[] {
  const supplied =
    typeof walk?.events === 'object' ? lookup(machine, walk.events as Record<string, Supplied | Supplied[]>, type) : undefined;
  if (supplied === undefined) return [{ type }];
  return (Array.isArray(supplied) ? supplied : [supplied]).map((event) => ({ ...(event as object), type }) as EventObject);
}

const describeEvent = (event: EventObject, variant = 0, variants = 1): string => describeEventOf(machine, event, variant, variants);

let clock = new ManualClock();
let pending: Pending[] = [];
let actor: ReturnType<typeof start>;
let steps: Step[] = [];
let tour: { index: number; at: number } | null = null;

function harmlessActors() {
  const sources = Object.keys((machine.implementations.actors ?? {}) as Record<string, unknown>);
  return Object.fromEntries(
    sources.map((src) => [
      src,
      fromPromise(({ self }) => new Promise((resolve, reject) => pending.push({ id: self.id, src, resolve, reject }))),
    ]),
  );
}

function start() {
  clock = new ManualClock();
  pending = [];
  const running = createActor(machine.provide({ actors: harmlessActors() as never }), {
    clock,
    // Without a walk, an empty input: enough for machines whose input is optional.
    input: walk?.input ?? {},
  });
  // An error stops the machine; the page shows it from the snapshot after each step (a listener keeps XState from rethrowing it).
  running.subscribe({ error: () => undefined });
  running.start();
  return running;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function apply(step: Step): Promise<void> {
  if (step.kind === 'event') actor.send(step.event);
  else if (step.kind === 'advance') clock.fireNext();
  else {
    const service = pending.find((p) => p.id === step.id);
    if (service) {
      pending = pending.filter((p) => p !== service);
      if (step.ok) service.resolve(step.value);
      else service.reject(step.value);
    }
  }
  await tick();
}

async function perform(step: Step): Promise<void> {
  steps = [...steps, step];
  await apply(step);
  render();
}

async function replay(to: Step[]): Promise<void> {
  actor.stop();
  steps = [];
  actor = start();
  await tick();
  for (const step of to) {
    steps.push(step);
    await apply(step);
  }
  render();
}

/** The step that produces a tour's event: answer the service, fire the timer, or send it. */
function tourStep(event: EventObject, label: string): Step {
  for (const [prefix, ok] of [
    ['xstate.done.actor.', true],
    ['xstate.error.actor.', false],
  ] as const) {
    if (event.type.startsWith(prefix)) {
      const id = event.type.slice(prefix.length);
      const { output, error } = event as Supplied;
      if (pending.some((p) => p.id === id)) return { kind: 'settle', id, ok, value: ok ? output : error, label };
    }
  }
  if (event.type.startsWith('xstate.after.') && clock.timers.size > 0) return { kind: 'advance', label };
  return { kind: 'event', event, label };
}

async function takeTourSteps(index: number, count: number): Promise<void> {
  const chosen = data.tours[index];
  if (!chosen) return;
  tour = { index, at: 0 };
  await replay([]);
  for (let i = 0; i < count && i < chosen.steps.length; i++) await nextTourStep(false);
  render();
}

async function nextTourStep(draw = true): Promise<void> {
  const chosen = tour && data.tours[tour.index];
  const step = tour && chosen?.steps[tour.at];
  if (!tour || !step) return;
  const event = variantsOf(step.type)[step.variant] ?? { type: step.type };
  tour = { ...tour, at: tour.at + 1 };
  const next = tourStep(event, step.label);
  steps = [...steps, next];
  await apply(next);
  if (draw) {
    history.replaceState(null, '', `?tour=${tour.index + 1}&step=${tour.at}`);
    render();
  }
}

// -------------------------------------------------------------------------------- render ----

const stateText = (snapshot: AnyMachineSnapshot): string => {
  const leaves = activeStateNodes(machine, snapshot)
    .filter((node) => node.type === 'atomic' || node.type === 'final')
    .map((node) => node.path.join('.'));
  const where = leaves.join(' and ') || machine.id;
  return snapshot.status === 'done' ? `${where} (finished)` : snapshot.status === 'error' ? `${where} (stopped by an error)` : where;
};

interface EventButton {
  event: EventObject;
  button: HTMLButtonElement;
  reason: HTMLElement;
}
const eventButtons: EventButton[] = [];

function buildEventButtons(): void {
  const list = byId('events');
  data.events.forEach((type, i) => {
    const variants = variantsOf(type);
    variants.forEach((event, j) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      const label = describeEvent(event, j, variants.length);
      button.type = 'button';
      button.textContent = label;
      button.addEventListener('click', () => void perform({ kind: 'event', event, label }));
      const reason = document.createElement('span');
      reason.className = 'reason';
      reason.id = `reason-${i}-${j}`;
      button.setAttribute('aria-describedby', reason.id);
      item.append(button, ' ', reason);
      list.append(item);
      eventButtons.push({ event, button, reason });
    });
  });
}

function button(label: string, onClick: () => void, describedBy?: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  if (describedBy) element.setAttribute('aria-describedby', describedBy);
  element.addEventListener('click', onClick);
  return element;
}

/** The services running now and how each can answer: the walk's answers, any status, or waiting. */
function renderServices(snapshot: AnyMachineSnapshot): void {
  const list = byId('services');
  const running = pending.filter((p) => p.id in (snapshot.children as Record<string, unknown>));
  list.replaceChildren(
    ...running.map((service, i) => {
      const item = document.createElement('li');
      const name = document.createElement('span');
      name.id = `service-${i}`;
      name.className = 'service-name';
      name.textContent = `${service.src} is waiting for an answer`;
      const answers = document.createElement('div');
      answers.className = 'answers';
      const settle = (ok: boolean, value: unknown, label: string) => () =>
        void perform({ kind: 'settle', id: service.id, ok, value, label: `${service.src}: ${label}` });
      const outputs = variantsOf(`xstate.done.actor.${service.id}`);
      for (const [n, event] of outputs.entries()) {
        const output = (event as Supplied).output;
        const which = outputs.length > 1 ? ` (answer ${n + 1} of ${outputs.length})` : '';
        answers.append(button(`Succeed${which}`, settle(true, output, `succeeded${which}`), name.id));
      }
      for (const event of variantsOf(`xstate.error.actor.${service.id}`)) {
        const error = (event as Supplied).error;
        if (error === undefined) continue;
        const text = describeValue(error);
        answers.append(button(`Fail (${text})`, settle(false, error, `failed: ${text}`), name.id));
      }
      const status = document.createElement('input');
      status.type = 'number';
      status.min = '100';
      status.max = '599';
      status.value = '500';
      status.id = `status-${i}`;
      const label = document.createElement('label');
      label.htmlFor = status.id;
      label.textContent = 'Status';
      const failWithStatus = button(
        'Fail with this status',
        () => {
          const code = Number(status.value) || 500;
          const error = new HttpError(code, JSON.stringify({ statusCode: code, message: `Status ${code} chosen in the explorer` }));
          settle(false, error, `failed with status ${code}`)();
        },
        name.id,
      );
      const wait = document.createElement('span');
      wait.className = 'hint';
      wait.textContent = 'or leave it waiting.';
      answers.append(label, status, failWithStatus, wait);
      item.append(name, answers);
      return item;
    }),
  );
  byId('no-services').hidden = running.length > 0;
}

function render(): void {
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  const active = new Set(activeStateNodes(machine, snapshot).map((node) => node.id));
  for (const element of document.querySelectorAll<HTMLElement | SVGElement>('[data-state]')) {
    const on = active.has(element.dataset.state ?? '');
    element.classList.toggle('active', on);
    if (element instanceof HTMLLIElement) {
      if (on) element.setAttribute('aria-current', 'true');
      else element.removeAttribute('aria-current');
    }
  }
  // The drawing scrolls to the innermost active state.
  const leaf = [...document.querySelectorAll<SVGGraphicsElement>('svg g.state.active')].pop();
  const drawing = document.querySelector<HTMLElement>('.drawing');
  if (leaf && drawing) {
    const box = leaf.getBBox();
    drawing.scrollTo({ left: box.x + box.width / 2 - drawing.clientWidth / 2, top: box.y + box.height / 2 - drawing.clientHeight / 2 });
  }
  const where = stateText(snapshot);
  byId('current-state').textContent = where;
  byId('announcer').textContent = `Now in ${where}.`;
  byId('context').textContent = JSON.stringify(snapshot.context, readable, 2) ?? 'undefined';

  for (const { event, button: element, reason } of eventButtons) {
    let accepted = false;
    let why = '';
    try {
      accepted = snapshot.status === 'active' && snapshot.can(event);
      if (!accepted) why = refusal(machine, snapshot, event.type);
    } catch {
      // A guard that reads the event's payload: without a walk the page has only the bare event.
      why = 'needs the data its model-based test sends, which it does not share yet';
    }
    element.disabled = !accepted;
    reason.textContent = accepted ? '' : `(${why})`;
  }
  const stopped = byId('machine-error');
  stopped.hidden = snapshot.status !== 'error';
  if (snapshot.status === 'error') {
    const message = snapshot.error instanceof Error ? snapshot.error.message : String(snapshot.error);
    stopped.textContent = `The machine stopped with an error: ${message}.${
      walk ? '' : ' It starts with the input of its model-based test once that test shares its walk (tests/machines/walks/).'
    }`;
  }
  renderServices(snapshot);

  const next = clock.next();
  const fire = byId<HTMLButtonElement>('fire-timer');
  fire.disabled = !next;
  fire.textContent = next ? `Fire the next timer (due in ${next[1].due - clock.now} ms)` : 'Fire the next timer';
  byId('timer-note').textContent = next ? `${clock.timers.size} timer${clock.timers.size > 1 ? 's' : ''} waiting.` : 'No timer is waiting.';

  byId('history').replaceChildren(
    ...steps.map((step) => {
      const item = document.createElement('li');
      item.textContent = step.label;
      return item;
    }),
  );
  byId<HTMLButtonElement>('back').disabled = steps.length === 0;
  byId<HTMLButtonElement>('reset').disabled = steps.length === 0;

  const chosen = tour && data.tours[tour.index];
  const nextStep = byId<HTMLButtonElement>('tour-next');
  byId('tour-status').textContent =
    chosen && tour ? `Tour ${tour.index + 1}, step ${tour.at} of ${chosen.steps.length}.` : 'No tour taken.';
  const upcoming = tour && chosen?.steps[tour.at];
  nextStep.disabled = !upcoming;
  nextStep.textContent = upcoming ? `Next step: ${upcoming.label}` : 'Next step';

  // A button that just went away or off takes the focus with it: give it to the current state.
  const focused = document.activeElement as HTMLElement | null;
  if (!focused || focused === document.body || !focused.isConnected || (focused as HTMLButtonElement).disabled) {
    byId('current-state').focus();
  }
}

// ------------------------------------------------------------------------------- wire up ----

function stateLinks(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-go-state]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      history.pushState(null, '', link.href);
      void openFromUrl();
    });
  }
}

async function openFromUrl(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const state = params.get('state');
  const tourParam = Number(params.get('tour'));
  const reach = state ? data.reach[state] : undefined;
  if (reach) await takeTourSteps(reach.tour, reach.steps);
  else if (tourParam > 0 && data.tours[tourParam - 1]) await takeTourSteps(tourParam - 1, Number(params.get('step')) || 0);
  else {
    tour = null;
    await replay([]);
  }
  byId('current-state').focus();
}

function main(): void {
  if (!machine) throw new Error(`No machine ${data.machine} in machines/index.ts`);
  actor = start();
  buildEventButtons();
  byId('fire-timer').addEventListener('click', () => void perform({ kind: 'advance', label: 'a timer fired' }));
  byId('back').addEventListener('click', () => {
    if (tour) tour = { ...tour, at: Math.max(0, Math.min(tour.at, steps.length - 1)) };
    void replay(steps.slice(0, -1));
  });
  byId('reset').addEventListener('click', () => {
    tour = tour ? { ...tour, at: 0 } : null;
    history.replaceState(null, '', location.pathname);
    void replay([]);
  });
  byId('tour-next').addEventListener('click', () => void nextTourStep());
  for (const start of document.querySelectorAll<HTMLButtonElement>('button[data-tour]')) {
    start.addEventListener('click', () => {
      const index = Number(start.dataset.tour);
      history.replaceState(null, '', `?tour=${index + 1}&step=0`);
      void takeTourSteps(index, 0).then(() => byId('tour-next').focus());
    });
  }
  stateLinks();
  window.addEventListener('popstate', () => void openFromUrl());
  void openFromUrl();
}

main();
