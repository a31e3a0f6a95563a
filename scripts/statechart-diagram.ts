// Pure conversion of an XState v5 machine definition into diagrams: Graphviz DOT and Mermaid
// `stateDiagram-v2`. No I/O here: scripts/visualize.ts renders and writes the files.
//
// Output is deterministic: states and transitions follow the machine's definition order, which
// is the order of its source code, so `npm run visualize -- --check` only fails on real changes.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { childStateNodes, eventLabel, invokedActors, stateEdges } from './statechart-introspection';

/** A state of the chart, flattened from `machine.root`. */
export interface ChartState {
  id: string;
  key: string;
  path: string[];
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** Deep or shallow, for history states. */
  history?: 'shallow' | 'deep';
  /** Id of the initial child of a compound state. */
  initial?: string;
  children: ChartState[];
  parent?: string;
  /** Named actors invoked while in this state. */
  invokes: string[];
  /** Named entry and exit actions (built-in and inline actions are left out). */
  entry: string[];
  exit: string[];
  description?: string;
}

/** One arrow of the chart: a transition definition toward one of its targets. */
export interface ChartTransition {
  source: string;
  /** Target state id; equal to `source` for targetless (internal) transitions. */
  target: string;
  /** Readable label: `event [guard]`. */
  label: string;
  /** Raw event descriptor as XState keys it (`xstate.after.debounce.x`, ...); '' for always. */
  eventType: string;
  /** True when the transition has no target (actions only, state unchanged). */
  internal: boolean;
}

export interface Chart {
  id: string;
  root: ChartState;
  states: Map<string, ChartState>;
  transitions: ChartTransition[];
}

type Named = { type?: unknown; name?: unknown; guards?: unknown; params?: unknown };

/**
 * A readable name for a guard: `isValid`, `isValid && !isAdmin`, `inline`. XState's and/or/not
 * are functions named so that carry their operands in `guards` (no typed accessor exists).
 */
export function formatGuard(guard: unknown): string {
  if (guard === undefined || guard === null) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function' || typeof guard === 'object') {
    const g = guard as Named;
    const inner = Array.isArray(g.guards) ? g.guards.map(formatGuard) : undefined;
    if (typeof guard === 'function' && inner && typeof g.name === 'string') {
      if (g.name === 'not') return `!${inner[0] ?? ''}`;
      if (g.name === 'and') return inner.join(' && ');
      if (g.name === 'or') return inner.join(' || ');
    }
    if (typeof g.type === 'string') return g.type;
    if (typeof guard === 'function' && typeof g.name === 'string' && g.name && g.name !== 'guard') return g.name;
  }
  return 'inline';
}

function actionName(action: unknown): string | undefined {
  if (typeof action === 'string') return action.startsWith('xstate.') ? undefined : action;
  if (action && typeof action === 'object' && typeof (action as Named).type === 'string') {
    const type = (action as Named).type as string;
    return type.startsWith('xstate.') ? undefined : type;
  }
  return undefined;
}

function toChartState(node: AnyStateNode, parent?: string): ChartState {
  const children = childStateNodes(node).map((child) => toChartState(child, node.id));
  const state: ChartState = {
    id: node.id,
    key: node.key,
    path: [...node.path],
    type: node.type,
    children,
    invokes: invokedActors(node).map((actor) => actor.name),
    // Built-in actions (including the raise/cancel pair XState adds for `after`) and inline
    // functions have no name worth showing.
    entry: node.entry.map(actionName).filter((a): a is string => !!a),
    exit: node.exit.map(actionName).filter((a): a is string => !!a),
  };
  if (parent !== undefined) state.parent = parent;
  if (node.type === 'history') state.history = node.history === 'deep' ? 'deep' : 'shallow';
  if (node.type === 'compound' && node.initial) {
    const first = node.initial.target[0] as AnyStateNode | undefined;
    if (first) state.initial = first.id;
  }
  if (typeof node.description === 'string') state.description = node.description;
  return state;
}

/** Reads the machine into a plain chart: states, and one transition per (definition, target). */
export function toChart(machine: AnyStateMachine): Chart {
  const root = toChartState(machine.root);
  const states = new Map<string, ChartState>();
  const visit = (s: ChartState) => {
    states.set(s.id, s);
    s.children.forEach(visit);
  };
  visit(root);
  const transitions: ChartTransition[] = [];
  for (const edge of stateEdges(machine)) {
    const event = eventLabel(machine, edge.eventType);
    const guard = formatGuard(edge.transition.guard);
    const label = guard ? `${event} [${guard}]` : event;
    // Transitions with neither target nor actions only block the event: nothing to draw.
    if (edge.targetless && edge.transition.actions.length === 0) continue;
    transitions.push({ source: edge.source.id, target: edge.target.id, label, eventType: edge.eventType, internal: edge.targetless });
  }
  return { id: machine.id, root, states, transitions };
}

/** Number of states (the root excluded) and of drawn transitions. */
export function countChart(chart: Chart): { states: number; transitions: number } {
  return { states: chart.states.size - 1, transitions: chart.transitions.length };
}

export function isAncestorOrSelf(chart: Chart, ancestor: string, id: string): boolean {
  for (let cur: string | undefined = id; cur !== undefined; cur = chart.states.get(cur)?.parent) {
    if (cur === ancestor) return true;
  }
  return false;
}

export const isCluster = (s: ChartState) => s.type === 'compound' || s.type === 'parallel';

// ---------------------------------------------------------------------------------- DOT ----

const q = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
const clusterName = (id: string) => q(`cluster_${id}`);
const anchorOf = (id: string) => `${id}::anchor`;
const initialOf = (id: string) => `${id}::initial`;

export function stateLines(s: ChartState, internal: ChartTransition[] = []): string[] {
  return [
    ...s.invokes.map((name) => `invoke / ${name}`),
    ...s.entry.map((name) => `entry / ${name}`),
    ...s.exit.map((name) => `exit / ${name}`),
    // Targetless transitions run actions without leaving the state: listed, not drawn as loops.
    ...internal.map((t) => `\u21bb ${t.label}`),
  ];
}

/** Graphviz DOT of the machine: clusters for compound/parallel states, dashed parallel regions. */
export function toDot(machine: AnyStateMachine, options: { title?: string } = {}): string {
  const chart = toChart(machine);
  // Clusters whose own transitions lead inside them get a small hollow handle as the edge's tail.
  const handles = new Set(
    chart.transitions.filter((t) => t.source !== t.target && isAncestorOrSelf(chart, t.source, t.target)).map((t) => t.source),
  );
  const internalOf = (id: string) => chart.transitions.filter((t) => t.internal && t.source === id);
  const out: string[] = [];
  out.push(`digraph ${q(chart.id)} {`);
  out.push('  compound=true;');
  out.push('  rankdir=TB;');
  out.push('  newrank=true;');
  out.push('  nodesep=0.35;');
  out.push('  ranksep=0.45;');
  out.push('  fontname="Helvetica,Arial,sans-serif";');
  if (options.title) {
    out.push(`  label=${q(options.title)};`);
    out.push('  labelloc=t;');
    out.push('  fontsize=18;');
  }
  out.push(
    '  node [fontname="Helvetica,Arial,sans-serif", fontsize=12, shape=box, style="rounded,filled", fillcolor="#eef4ff", color="#3b5b92", penwidth=1.2, margin="0.16,0.06"];',
  );
  out.push('  edge [fontname="Helvetica,Arial,sans-serif", fontsize=10, color="#4a4a4a", fontcolor="#1f2937", arrowsize=0.7];');

  const emitState = (s: ChartState, indent: string, regionOfParallel: boolean) => {
    if (isCluster(s)) {
      const extra = stateLines(s, internalOf(s.id));
      const label = [s.key, ...extra].join('\n');
      out.push(`${indent}subgraph ${clusterName(s.id)} {`);
      out.push(`${indent}  label=${q(s.type === 'parallel' ? `${label}\n(parallel)` : label)};`);
      out.push(`${indent}  labeljust=l;`);
      out.push(`${indent}  fontsize=13;`);
      out.push(
        `${indent}  style=${q(regionOfParallel ? 'dashed,rounded' : 'rounded,filled')}; fillcolor="#fbfcfe"; color=${q(regionOfParallel ? '#7a869a' : '#3b5b92')};`,
      );
      out.push(
        handles.has(s.id)
          ? `${indent}  ${q(anchorOf(s.id))} [shape=circle, style=filled, fillcolor=white, color="#3b5b92", width=0.12, height=0.12, fixedsize=true, label="", tooltip=${q(`any state of ${s.key}`)}];`
          : `${indent}  ${q(anchorOf(s.id))} [shape=point, style=invis, width=0.01, height=0.01, label=""];`,
      );
      if (s.type === 'compound' && s.initial) {
        out.push(
          `${indent}  ${q(initialOf(s.id))} [shape=point, style=filled, fillcolor=black, color=black, width=0.13, height=0.13, label=""];`,
        );
      }
      for (const child of s.children) emitState(child, `${indent}  `, s.type === 'parallel');
      out.push(`${indent}}`);
      return;
    }
    const lines = stateLines(s, internalOf(s.id));
    if (s.type === 'history') {
      out.push(
        `${indent}${q(s.id)} [label=${q(s.history === 'deep' ? 'H*' : 'H')}, shape=circle, style=filled, fillcolor=white, width=0.3, margin=0];`,
      );
    } else if (s.type === 'final') {
      out.push(`${indent}${q(s.id)} [label=${q([s.key, ...lines].join('\n'))}, peripheries=2, fillcolor="#e8f5e9", color="#2e7d32"];`);
    } else {
      out.push(`${indent}${q(s.id)} [label=${q([s.key, ...lines].join('\n'))}];`);
    }
  };
  emitState(chart.root, '  ', false);

  const endpoint = (id: string) => {
    const s = chart.states.get(id);
    return s && isCluster(s) ? anchorOf(id) : id;
  };
  const initialEdges: string[] = [];
  for (const s of chart.states.values()) {
    if (s.type !== 'compound' || !s.initial) continue;
    const target = chart.states.get(s.initial);
    const attrs = target && isCluster(target) ? ` [lhead=${clusterName(target.id)}]` : '';
    initialEdges.push(`  ${q(initialOf(s.id))} -> ${q(endpoint(s.initial))}${attrs};`);
  }
  out.push(...initialEdges);
  // Transitions between the same two states share one arrow with one label line each
  // (graphviz places the labels of parallel edges on top of each other).
  const arrows = new Map<string, ChartTransition[]>();
  for (const t of chart.transitions) {
    if (t.internal) continue;
    const key = `${t.source}\u0000${t.target}`;
    arrows.set(key, [...(arrows.get(key) ?? []), t]);
  }
  for (const group of arrows.values()) {
    const first = group[0] as ChartTransition;
    const source = chart.states.get(first.source);
    const target = chart.states.get(first.target);
    if (!source || !target) continue;
    const attrs = [`label=${q(group.map((t) => ` ${t.label} `).join('\n'))}`];
    if (isCluster(source) && !isAncestorOrSelf(chart, source.id, target.id)) attrs.push(`ltail=${clusterName(source.id)}`);
    if (isCluster(target) && !isAncestorOrSelf(chart, target.id, source.id)) attrs.push(`lhead=${clusterName(target.id)}`);
    if (group.every((t) => t.eventType === '')) attrs.push('color="#8a5a00"', 'fontcolor="#8a5a00"');
    out.push(`  ${q(endpoint(first.source))} -> ${q(endpoint(first.target))} [${attrs.join(', ')}];`);
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}

// ------------------------------------------------------------------------------ Mermaid ----

const MERMAID_RESERVED = new Set([
  'state',
  'note',
  'end',
  'direction',
  'class',
  'classdef',
  'style',
  'scale',
  'hide',
  'as',
  'left',
  'right',
  'of',
  'accTitle',
  'accDescr',
]);

/** Mermaid-safe identifiers for every state, unique within the chart, derived from the state path. */
function mermaidIds(chart: Chart): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const s of chart.states.values()) {
    let base = (s.path.length ? s.path.join('_') : chart.id).replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z_]/.test(base)) base = `s_${base}`;
    if (MERMAID_RESERVED.has(base.toLowerCase()) || MERMAID_RESERVED.has(base)) base = `${base}_state`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
    used.add(id);
    ids.set(s.id, id);
  }
  return ids;
}

/** Text Mermaid accepts in a state description or a transition label (no `:`, `;`, `"`, `#`). */
export function mermaidText(text: string): string {
  return text
    .replace(/:/g, '\uA789')
    .replace(/;/g, ',')
    .replace(/"/g, "'")
    .replace(/#/g, '')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Mermaid `stateDiagram-v2` of the machine: nested states, `--` between parallel regions. */
export function toMermaid(machine: AnyStateMachine): string {
  const chart = toChart(machine);
  const ids = mermaidIds(chart);
  const id = (stateId: string) => ids.get(stateId) ?? stateId;
  // Each transition is written in the block of the closest compound state holding both ends.
  const scopeOf = (t: ChartTransition): string => {
    for (let cur: string | undefined = chart.states.get(t.source)?.parent; cur !== undefined; cur = chart.states.get(cur)?.parent) {
      if (isAncestorOrSelf(chart, cur, t.target) && cur !== t.target) return cur;
    }
    return chart.root.id;
  };
  const byScope = new Map<string, ChartTransition[]>();
  for (const t of chart.transitions) {
    const scope = scopeOf(t);
    byScope.set(scope, [...(byScope.get(scope) ?? []), t]);
  }
  // Transitions of the root itself (global events) need the root drawn as a state.
  const rootHasEdges = chart.transitions.some((t) => t.source === chart.root.id || t.target === chart.root.id);

  const out: string[] = ['stateDiagram-v2'];
  const emitBody = (s: ChartState, indent: string) => {
    if (s.type === 'parallel') {
      s.children.forEach((child, i) => {
        if (i > 0) out.push(`${indent}--`);
        emitState(child, indent);
      });
    } else {
      if (s.initial) out.push(`${indent}[*] --> ${id(s.initial)}`);
      for (const child of s.children) emitState(child, indent);
      for (const child of s.children) if (child.type === 'final') out.push(`${indent}${id(child.id)} --> [*]`);
    }
    for (const t of byScope.get(s.id) ?? []) {
      out.push(`${indent}${id(t.source)} --> ${id(t.target)} : ${mermaidText(t.label)}`);
    }
  };
  const emitState = (s: ChartState, indent: string) => {
    const description = mermaidText(s.type === 'history' ? (s.history === 'deep' ? 'H*' : 'H') : s.key) || id(s.id);
    if (isCluster(s)) {
      // No space before `{`: Mermaid would keep it in the id.
      out.push(`${indent}state "${description}" as ${id(s.id)}{`);
      emitBody(s, `${indent}  `);
      out.push(`${indent}}`);
    } else {
      out.push(`${indent}state "${description}" as ${id(s.id)}`);
    }
    const notes = stateLines(s);
    for (const line of notes) out.push(`${indent}${id(s.id)} : ${mermaidText(line)}`);
  };
  if (rootHasEdges) {
    emitState(chart.root, '  ');
  } else {
    emitBody(chart.root, '  ');
  }
  return `${out.join('\n')}\n`;
}
