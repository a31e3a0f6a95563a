// The statechart explorer's pages, written by `npm run visualize` into visualizations/ and served
// at /registry/statecharts/: one page per machine of machines/index.ts (the drawing laid out by
// scripts/statechart-layout.ts, the state list, the event buttons, the services, the timers, the
// history and the tours), an index, and the page script (src/explorer/explorer.ts) bundled by
// Vite into one classic script, so the pages also open from the file system. Tours are the paths
// the model-based tests walk (scripts/statechart-paths.ts) with the walk a test shares in
// tests/machines/walks/<machine>.ts.
import { readdir } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { Chart, ChartState } from './statechart-diagram';
import { countChart, toChart } from './statechart-diagram';
import { activeStateNodes, eventMeaning } from './statechart-introspection';
import { renderLayout } from './statechart-layout';
import { lookup, machinePaths, type PathOptions } from './statechart-paths';
import { describeEvent } from '../src/explorer/describe';
import { PAGE_DATA_ID, type PageData, type Tour } from '../src/explorer/page-data';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const WALKS_DIR = resolve(ROOT, 'tests/machines/walks');
export const EXPLORER_ENTRY = resolve(ROOT, 'src/explorer/explorer.ts');

export type Walk = PathOptions<AnyStateMachine>;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The walks the model-based tests share, by machine name (the file's name). */
export async function loadWalks(dir = WALKS_DIR): Promise<Record<string, Walk>> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.ts')).sort();
  const walks: Record<string, Walk> = {};
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(dir, file)).href)) as { walk?: Walk };
    if (module.walk) walks[basename(file, '.ts')] = module.walk;
  }
  return walks;
}

/** Event types that come from outside the machine (no timers, no services' answers), in definition order. */
export function externalEvents(machine: AnyStateMachine, chart: Chart): string[] {
  const types = chart.transitions.map((t) => t.eventType).filter((type) => eventMeaning(machine, type).kind === 'event');
  return [...new Set(types)];
}

/** Which of the walk's events of a type a step sends (its index, matched as JSON), and how many there are. */
function variantOf(machine: AnyStateMachine, walk: Walk, event: EventObject): { index: number; count: number } {
  const supplied = typeof walk.events === 'object' ? lookup(machine, walk.events as Record<string, unknown>, event.type) : undefined;
  if (supplied === undefined) return { index: 0, count: 1 };
  const list = (Array.isArray(supplied) ? supplied : [supplied]) as object[];
  const wanted = JSON.stringify(event);
  const index = list.findIndex((candidate) => JSON.stringify({ ...candidate, type: event.type }) === wanted);
  return { index: Math.max(0, index), count: list.length };
}

/** The model-based test's paths as tours, and for each state the shortest tour prefix that reaches it. */
export function toursOf(machine: AnyStateMachine, walk: Walk | undefined): Pick<PageData, 'tours' | 'reach' | 'toursNote'> {
  if (!walk) {
    return {
      tours: [],
      reach: {},
      toursNote: 'No tours yet: the model-based test of this machine does not share its walk (tests/machines/walks/).',
    };
  }
  const { paths } = machinePaths(machine, walk);
  const reach: Record<string, { tour: number; steps: number }> = {};
  const tours: Tour[] = paths.map((path, index) => {
    path.steps.forEach((step, count) => {
      for (const node of activeStateNodes(machine, step.state as AnyMachineSnapshot)) {
        const known = reach[node.id];
        if (node !== machine.root && (!known || known.steps > count)) reach[node.id] = { tour: index, steps: count };
      }
    });
    const steps = path.steps.slice(1).map((step) => {
      const variant = variantOf(machine, walk, step.event);
      return { type: step.event.type, variant: variant.index, label: describeEvent(machine, step.event, variant.index, variant.count) };
    });
    const leaves = activeStateNodes(machine, path.state as AnyMachineSnapshot)
      .filter((node) => node.type === 'atomic' || node.type === 'final')
      .map((node) => node.path.join('.'));
    return { description: `${steps.map((s) => s.label).join(' → ') || '(initial state)'} ⇒ ${leaves.join(' + ')}`, steps };
  });
  return { tours, reach };
}

function stateList(chart: Chart, reach: PageData['reach'], file: string): string {
  const item = (s: ChartState, indent: string): string => {
    const kind = s.type === 'parallel' ? ' (parallel: its regions are active together)' : s.type === 'final' ? ' (final)' : '';
    const name = `${escapeHtml(s.path.join('.'))}${kind}`;
    const label = reach[s.id]
      ? `<a href="${file}.html?state=${encodeURIComponent(s.id)}" data-go-state>${name}</a>`
      : `<span>${name}</span>`;
    const children = s.children.length
      ? `\n${indent}  <ul>\n${s.children.map((child) => item(child, `${indent}    `)).join('\n')}\n${indent}  </ul>\n${indent}`
      : '';
    return `${indent}<li data-state="${escapeHtml(s.id)}">${label}<span class="active-mark"> (active)</span>${children}</li>`;
  };
  return chart.root.children.map((child) => item(child, '          ')).join('\n');
}

const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export interface ExplorerPageInput {
  name: string;
  file: string;
  title: string;
  machine: AnyStateMachine;
  walk: Walk | undefined;
}

/** One machine's explorer page. */
export async function explorerPage({ name, file, title, machine, walk }: ExplorerPageInput): Promise<string> {
  const chart = toChart(machine);
  const { states, transitions } = countChart(chart);
  const drawing = await renderLayout(chart, `Drawing of the ${title} statechart: the list of states beside it says the same.`);
  const tours = toursOf(machine, walk);
  const data: PageData = { machine: name, title, events: externalEvents(machine, chart), ...tours };
  const tourItems = data.tours
    .map(
      (tour, i) =>
        `          <li><button type="button" data-tour="${i}">Take tour ${i + 1}</button> <span>${escapeHtml(tour.description)}</span></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)} statechart explorer</title>
    <link rel="stylesheet" href="explorer.css">
    <script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript(data)}</script>
    <script src="explorer.js" defer></script>
  </head>
  <body>
    <header>
      <p><a href="index.html">All statecharts</a></p>
      <h1>${escapeHtml(title)} statechart explorer</h1>
      <p class="counts">The real <code>${escapeHtml(name)}</code> machine of <code>machines/index.ts</code> runs in this page: ${states} states, ${transitions} transitions. Services answer only when you say so; timers fire only when you say so.</p>
    </header>
    <main>
      <div class="layout">
        <div class="panel controls">
          <section aria-labelledby="now-heading">
            <h2 id="now-heading">Current state</h2>
            <p id="current-state" class="current" tabindex="-1">starting</p>
            <div id="announcer" role="status" aria-live="polite" class="visually-hidden"></div>
            <p id="machine-error" class="error" hidden></p>
          </section>
          <section aria-labelledby="states-heading">
            <h2 id="states-heading">States</h2>
            <p class="hint">Active states are marked; a linked state opens the explorer there, by the shortest tour that reaches it.</p>
            <ul class="states">
${stateList(chart, data.reach, file)}
            </ul>
          </section>
          <section aria-labelledby="events-heading">
            <h2 id="events-heading">Events</h2>
            <ul id="events" class="events"></ul>
          </section>
          <section aria-labelledby="services-heading">
            <h2 id="services-heading">Services</h2>
            <p id="no-services" class="hint">No service is waiting.</p>
            <ul id="services" class="services"></ul>
          </section>
          <section aria-labelledby="timers-heading">
            <h2 id="timers-heading">Timers</h2>
            <p id="timer-note" class="hint">No timer is waiting.</p>
            <button type="button" id="fire-timer" disabled>Fire the next timer</button>
          </section>
        </div>
        <div class="panel picture">
          <figure>
            <div class="drawing" tabindex="0" role="group" aria-label="Drawing (scroll with the arrow keys)">
${drawing}
            </div>
          </figure>
          <section aria-labelledby="context-heading">
            <h2 id="context-heading">Context</h2>
            <pre id="context" tabindex="0" aria-labelledby="context-heading"></pre>
          </section>
          <section aria-labelledby="history-heading">
            <h2 id="history-heading">History</h2>
            <p><button type="button" id="back" disabled>Back</button> <button type="button" id="reset" disabled>Reset</button></p>
            <ol id="history" class="history"></ol>
          </section>
          <section aria-labelledby="tours-heading">
            <h2 id="tours-heading">Tours</h2>
            <p class="hint">${escapeHtml(data.toursNote ?? 'The paths the model-based test walks, one step at a time.')}</p>
            <p id="tour-status">No tour taken.</p>
            <button type="button" id="tour-next" disabled>Next step</button>
            <ol class="tours">
${tourItems}
            </ol>
          </section>
        </div>
      </div>
    </main>
  </body>
</html>
`;
}

export interface IndexEntry {
  file: string;
  title: string;
  states: number;
  transitions: number;
}

/** The list of every machine's explorer page (and its static diagrams). */
export function explorerIndex(entries: IndexEntry[]): string {
  const items = entries
    .map(
      (e) =>
        `        <li><a href="${e.file}.html">${escapeHtml(e.title)}</a> <span class="counts">(${e.states} states, ${e.transitions} transitions; diagrams: <a href="${e.file}.svg">SVG</a>, <a href="${e.file}.mmd">Mermaid</a>)</span></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Statechart explorer</title>
    <link rel="stylesheet" href="explorer.css">
  </head>
  <body>
    <header>
      <h1>Statechart explorer</h1>
      <p>Every behaviour of the registry web app is an XState statechart. Each page below runs the real machine: send its events, answer its services, fire its timers and take the tours the model-based tests walk. Generated by <code>npm run visualize</code>; do not edit.</p>
    </header>
    <main>
      <nav aria-label="Machines">
        <ul class="machines">
${items}
        </ul>
      </nav>
    </main>
  </body>
</html>
`;
}

/** The pages' style sheet (the pages load no other). */
export const EXPLORER_CSS = `body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; margin: 0; color: #1f2937; background: #fff; line-height: 1.45; }
header, main { max-width: 1600px; margin: 0 auto; padding: 0.75rem 1.5rem; }
h1 { font-size: 1.6rem; margin: 0.25rem 0; }
h2 { font-size: 1.1rem; margin: 1rem 0 0.4rem; }
a { color: #1d4ed8; }
a:focus-visible, button:focus-visible, pre:focus-visible, .drawing:focus-visible, input:focus-visible, [tabindex="-1"]:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.counts, .hint { color: #4b5563; }
.layout { display: grid; grid-template-columns: minmax(320px, 420px) minmax(0, 1fr); gap: 1.5rem; }
.panel { min-width: 0; }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } }
.current { font-weight: 600; font-size: 1.1rem; background: #fff7e6; border: 2px solid #b45309; border-radius: 6px; padding: 0.4rem 0.6rem; }
ul.states, ul.states ul { list-style: none; padding-left: 1rem; margin: 0; }
ul.states { padding-left: 0; }
ul.states li > a, ul.states li > span:first-child { display: inline-block; padding: 0.1rem 0.3rem; border-radius: 4px; }
ul.states li.active > a, ul.states li.active > span:first-child { background: #fff7e6; outline: 2px solid #b45309; font-weight: 600; }
.active-mark { display: none; color: #92400e; }
li.active > .active-mark { display: inline; }
ul.events, ul.services, ol.tours { padding-left: 1rem; }
ul.events li, ul.services li, ol.tours li { margin: 0.3rem 0; }
button { font: inherit; max-width: 100%; text-align: left; overflow-wrap: anywhere; padding: 0.25rem 0.6rem; border-radius: 4px; border: 1px solid #1d4ed8; background: #eff6ff; color: #1e3a8a; cursor: pointer; }
button:disabled { border-color: #9ca3af; background: #f3f4f6; color: #4b5563; cursor: not-allowed; }
.error { color: #991b1b; font-weight: 600; }
.reason { color: #4b5563; font-size: 0.9rem; }
.answers { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin-top: 0.25rem; }
.answers input { width: 5rem; font: inherit; }
pre { background: #f9fafb; border: 1px solid #d1d5db; border-radius: 6px; padding: 0.6rem; overflow: auto; max-height: 24rem; font-size: 0.85rem; }
.drawing { overflow: auto; border: 1px solid #d1d5db; border-radius: 6px; max-height: 75vh; }
figure { margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
svg.chart text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; font-size: 12px; fill: #1f2937; }
svg.chart .name { font-weight: 600; }
svg.chart .detail { font-size: 11px; fill: #374151; }
svg.chart .edge-label { font-size: 11px; fill: #1f2937; }
svg.chart .state > rect { fill: #eef4ff; stroke: #3b5b92; stroke-width: 1.2; }
svg.chart .state-compound > rect, svg.chart .state-parallel > rect { fill: #fbfcfe; }
svg.chart .region > rect { stroke-dasharray: 6 3; stroke: #7a869a; }
svg.chart .state-final > rect { fill: #e8f5e9; stroke: #2e7d32; }
svg.chart .state-final > rect.inner { fill: none; }
svg.chart .state.active > rect { fill: #fff7e6; stroke: #b45309; stroke-width: 3; }
svg.chart .edge { fill: none; stroke: #4a4a4a; stroke-width: 1; }
svg.chart .initial-edge { stroke: #111; }
svg.chart .initial { fill: #111; }
svg.chart .any { fill: #fff; stroke: #3b5b92; }
svg.chart marker path { fill: #4a4a4a; }
`;
