import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { and, assign, fromPromise, not, setup } from 'xstate';
import { countChart, formatGuard, mermaidText, toChart, toDot, toMermaid } from '../../scripts/statechart-diagram';
import { compareWithDisk, displayName, fileName, renderAll, writeAll } from '../../scripts/visualize';

/** Nested, parallel, final, history, guards, named and numeric `after`, invoke, always, root events. */
const sampleMachine = setup({
  types: {} as {
    context: { attempts: number };
    events:
      | { type: 'form.submit'; value: string }
      | { type: 'form.edit' }
      | { type: 'session.logout' }
      | { type: 'panel.toggle' }
      | { type: 'retry' }
      | { type: 'panel.ping' };
  },
  actors: { loadUser: fromPromise(async () => ({ name: 'Ada' })) },
  guards: { isValid: () => true, isAdmin: () => false },
  actions: { trackView: () => {}, clearForm: () => {}, notify: () => {} },
  delays: { debounce: 500 },
}).createMachine({
  id: 'sample',
  initial: 'loading',
  context: { attempts: 0 },
  on: { 'session.logout': '.signedOut' },
  states: {
    loading: { invoke: { src: 'loadUser', onDone: 'ready', onError: 'failed' } },
    failed: {
      on: { retry: { target: 'loading', actions: assign({ attempts: ({ context }) => context.attempts + 1 }) } },
      after: { 3000: 'signed-out' },
    },
    ready: {
      type: 'parallel',
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: {
              entry: 'trackView',
              on: { 'form.submit': [{ target: 'review', guard: and(['isValid', not('isAdmin')]) }, { target: 'invalid' }] },
            },
            invalid: { after: { debounce: 'editing' } },
            review: { on: { 'form.edit': 'editing', 'form.submit': 'sent' } },
            sent: { type: 'final' },
            hist: { type: 'history', history: 'deep' },
          },
        },
        panel: {
          initial: 'open',
          states: {
            open: { on: { 'panel.toggle': 'closed', 'panel.ping': { actions: 'notify' } } },
            closed: { on: { 'panel.toggle': 'open' } },
          },
        },
      },
      onDone: 'done',
    },
    'signed-out': { always: { target: 'done', guard: 'isAdmin' }, exit: 'clearForm' },
    signedOut: { on: { retry: 'loading' } },
    done: { type: 'final' },
  },
});

const toggleMachine = setup({}).createMachine({
  id: 'toggle',
  initial: 'off',
  states: { off: { on: { toggle: 'on' } }, on: { on: { toggle: 'off' } } },
});

describe('toChart', () => {
  const chart = toChart(sampleMachine);
  const labels = chart.transitions.map((t) => `${t.source} -> ${t.target}: ${t.label}`);

  it('reads every state with its type, initial child and named actions', () => {
    expect(chart.states.get('sample.ready')?.type).toBe('parallel');
    expect(chart.states.get('sample.ready.form')?.initial).toBe('sample.ready.form.editing');
    expect(chart.states.get('sample.ready.form.sent')?.type).toBe('final');
    expect(chart.states.get('sample.ready.form.hist')?.history).toBe('deep');
    expect(chart.states.get('sample.loading')?.invokes).toEqual(['loadUser']);
    expect(chart.states.get('sample.ready.form.editing')?.entry).toEqual(['trackView']);
    // The raise/cancel actions XState adds for `after` are not listed.
    expect(chart.states.get('sample.ready.form.invalid')?.entry).toEqual([]);
    expect(countChart(chart)).toEqual({ states: 15, transitions: 16 });
  });

  it('labels events readably: guards, delays, invoke results, always, root events', () => {
    expect(labels).toEqual([
      'sample -> sample.signedOut: session.logout',
      'sample.loading -> sample.ready: done: loadUser',
      'sample.loading -> sample.failed: error: loadUser',
      'sample.failed -> sample.loading: retry',
      'sample.failed -> sample.signed-out: after 3000ms',
      'sample.ready -> sample.done: done',
      'sample.ready.form.editing -> sample.ready.form.review: form.submit [isValid && !isAdmin]',
      'sample.ready.form.editing -> sample.ready.form.invalid: form.submit',
      'sample.ready.form.invalid -> sample.ready.form.editing: after debounce (500ms)',
      'sample.ready.form.review -> sample.ready.form.editing: form.edit',
      'sample.ready.form.review -> sample.ready.form.sent: form.submit',
      'sample.ready.panel.open -> sample.ready.panel.closed: panel.toggle',
      'sample.ready.panel.open -> sample.ready.panel.open: panel.ping',
      'sample.ready.panel.closed -> sample.ready.panel.open: panel.toggle',
      'sample.signed-out -> sample.done: always [isAdmin]',
      'sample.signedOut -> sample.loading: retry',
    ]);
    expect(chart.transitions.find((t) => t.label === 'panel.ping')?.internal).toBe(true);
  });

  it('formats guard shapes', () => {
    expect(formatGuard('isValid')).toBe('isValid');
    expect(formatGuard({ type: 'hasRole', params: { role: 'admin' } })).toBe('hasRole');
    expect(formatGuard(() => true)).toBe('inline');
    expect(formatGuard(undefined)).toBe('');
  });
});

describe('toDot', () => {
  const dot = toDot(sampleMachine);

  it('draws compound and parallel states as clusters, regions dashed, finals with a double border', () => {
    expect(dot).toContain('compound=true;');
    expect(dot).toContain('subgraph "cluster_sample.ready" {');
    expect(dot).toContain('label="ready\\n(parallel)";');
    expect(dot).toMatch(
      /subgraph "cluster_sample\.ready\.form" \{\n\s+label="form";\n\s+labeljust=l;\n\s+fontsize=13;\n\s+style="dashed,rounded"/,
    );
    expect(dot).toMatch(/"sample\.done" \[label="done", peripheries=2/);
    expect(dot).toContain('"sample.ready.form.hist" [label="H*", shape=circle');
    expect(dot).toContain('"sample.loading" [label="loading\\ninvoke / loadUser"];');
  });

  it('points an initial dot at each initial child and routes edges of clusters with lhead/ltail', () => {
    expect(dot).toMatch(/"sample\.ready\.form::initial" \[shape=point, style=filled/);
    expect(dot).toContain('"sample.ready.form::initial" -> "sample.ready.form.editing";');
    expect(dot).toContain('"sample.loading" -> "sample.ready::anchor" [label=" done: loadUser ", lhead="cluster_sample.ready"];');
    expect(dot).toContain('"sample.ready::anchor" -> "sample.done" [label=" done ", ltail="cluster_sample.ready"];');
    // A root event leads inside the root: no ltail, a visible handle as its tail.
    expect(dot).toContain('"sample::anchor" -> "sample.signedOut" [label=" session.logout "];');
    expect(dot).toMatch(/"sample::anchor" \[shape=circle/);
    // Targetless transitions are listed in their state; parallel arrows share one label.
    expect(dot).toContain('"sample.ready.panel.open" [label="open\\n\u21bb panel.ping"];');
    expect(dot).not.toContain('-> "sample.ready.panel.open" [label=" panel.ping "');
    expect(dot).toContain('"sample.ready.form.editing" -> "sample.ready.form.review" [label=" form.submit [isValid && !isAdmin] "];');
    const twice = toDot(setup({}).createMachine({ id: 'two', initial: 'a', states: { a: { on: { x: 'b', y: 'b' } }, b: {} } }));
    expect(twice).toContain('"two.a" -> "two.b" [label=" x \\n y "];');
    expect(dot).toContain('[label=" form.submit [isValid && !isAdmin] "]');
  });

  it('is deterministic and escapes quotes', () => {
    expect(toDot(sampleMachine)).toBe(dot);
    const quoted = setup({}).createMachine({ id: 'q"x', initial: 'a', states: { a: {} } });
    expect(toDot(quoted)).toContain('subgraph "cluster_q\\"x"');
  });
});

describe('toMermaid', () => {
  const mermaid = toMermaid(sampleMachine);

  it('nests states, marks initial and final states and separates parallel regions', () => {
    expect(mermaid.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(mermaid).toContain('    state "ready" as ready{\n      state "form" as ready_form{\n        [*] --> ready_form_editing\n');
    expect(mermaid).toMatch(/ {6}\}\n {6}--\n {6}state "panel" as ready_panel\{/);
    expect(mermaid).toContain('        ready_form_sent --> [*]\n');
    expect(mermaid).toContain('    done --> [*]\n');
  });

  it('sanitizes identifiers and labels Mermaid cannot take', () => {
    expect(mermaid).toContain('state "signed-out" as signed_out\n');
    expect(mermaid).toContain('state "signedOut" as signedOut\n');
    expect(mermaid).toContain('failed --> signed_out : after 3000ms');
    expect(mermaid).toContain('loading --> ready : done\uA789 loadUser');
    expect(mermaid).toContain('        ready_form_editing --> ready_form_review : form.submit [isValid && !isAdmin]\n');
    // Root events need the root as a state.
    expect(mermaid).toContain('  state "sample" as sample{\n');
    expect(mermaid).toContain('    sample --> signedOut : session.logout\n');
    expect(mermaidText('a: b; "c" #d {e}')).toBe("a\uA789 b, 'c' d e");
    for (const line of mermaid.split('\n')) {
      const label = / : (.*)$/.exec(line)?.[1];
      if (label) expect(label).not.toMatch(/[:;#]/);
    }
  });

  it('keeps colliding and reserved names apart', () => {
    const machine = setup({}).createMachine({
      id: 'names',
      initial: 'a_b',
      states: { a_b: {}, 'a-b': {}, note: {}, end: {} },
    });
    expect(toMermaid(machine)).toBe(
      'stateDiagram-v2\n  [*] --> a_b\n  state "a_b" as a_b\n  state "a-b" as a_b_2\n  state "note" as note_state\n  state "end" as end_state\n',
    );
  });
});

/** No walks and no page script: what these tests read is the pages (tests/scripts/statechart-explorer.test.ts bundles). */
const OPTIONS = { walks: {}, bundle: false };

describe('visualize', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('names files and titles from registry keys', () => {
    expect(fileName('batchDownload')).toBe('batch-download');
    expect(fileName('assetTable')).toBe('asset-table');
    expect(displayName('batchDownload')).toBe('Batch download');
  });

  it('renders SVG, Mermaid, README and the explorer (pages and index), identically on every run', async () => {
    const machines = { toggle: toggleMachine, sampleFlow: sampleMachine };
    const files = await renderAll(machines, OPTIONS);
    expect([...files.keys()]).toEqual([
      'sample-flow.svg',
      'sample-flow.mmd',
      'sample-flow.html',
      'toggle.svg',
      'toggle.mmd',
      'toggle.html',
      'README.md',
      'index.html',
      'explorer.css',
    ]);
    const svg = files.get('sample-flow.svg') ?? '';
    expect(svg).toContain('<svg');
    expect(svg).toContain('done: loadUser');
    expect(svg).not.toContain('Generated by graphviz');
    expect(files.get('toggle.mmd')).toBe(toMermaid(toggleMachine));

    const readme = files.get('README.md') ?? '';
    expect(readme).toContain('npm run visualize');
    expect(readme).toContain('![Sample flow statechart](./sample-flow.svg)');
    expect(readme).toContain('```mermaid\nstateDiagram-v2\n');

    const html = files.get('index.html') ?? '';
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Statechart explorer</title>');
    expect(html).toContain('<nav aria-label="Machines">');
    expect(html).toContain('<a href="toggle.html">Toggle</a> <span class="counts">(2 states, 2 transitions;');
    // Offline: nothing from another origin.
    for (const page of [html, files.get('sample-flow.html') ?? '']) expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);

    const again = await renderAll(machines, OPTIONS);
    expect([...again.entries()]).toEqual([...files.entries()]);
  });

  it('--check compares with the directory: stale, missing and extra files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'visualize-'));
    dirs.push(dir);
    const files = await renderAll({ toggle: toggleMachine }, OPTIONS);
    expect(await compareWithDisk(files, dir)).toEqual({
      stale: [],
      missing: ['toggle.svg', 'toggle.mmd', 'toggle.html', 'README.md', 'index.html', 'explorer.css'],
      extra: [],
    });
    await writeFile(join(dir, 'old.svg'), 'x');
    expect(await writeAll(files, dir)).toEqual(['old.svg']);
    expect((await readdir(dir)).sort()).toEqual(['README.md', 'explorer.css', 'index.html', 'toggle.html', 'toggle.mmd', 'toggle.svg']);
    expect(await compareWithDisk(files, dir)).toEqual({ stale: [], missing: [], extra: [] });
    await writeFile(join(dir, 'toggle.mmd'), 'stateDiagram-v2\n');
    await writeFile(join(dir, 'extra.md'), '');
    expect(await compareWithDisk(files, dir)).toEqual({ stale: ['toggle.mmd'], missing: [], extra: ['extra.md'] });
    expect(await readFile(join(dir, 'toggle.svg'), 'utf8')).toBe(files.get('toggle.svg'));
  });
});
