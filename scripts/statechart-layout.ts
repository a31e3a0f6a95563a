// The explorer's drawing of a machine: the chart read through `xstate/graph`'s toDirectedGraph
// (scripts/statechart-diagram.ts toChart) laid out by elkjs (layered, hierarchy included) when
// `npm run visualize` builds the pages, and written as SVG. Compound states are boxes holding their
// children, the regions of a parallel state dashed boxes side by side, a final state a double
// border; every arrow carries `event [guard]`. Each state is a `<g data-state="<id>">` the page
// highlights while the state is active. The layout runs in Node, so no page downloads elkjs.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { Chart, ChartState, ChartTransition } from './statechart-diagram';
import { isAncestorOrSelf, isCluster, stateLines } from './statechart-diagram';

const FONT = 12;
const LABEL_FONT = 11;
const LINE = 16;
/** Average glyph width of the sans-serif font at 12px: enough room for the text without measuring it. */
const charWidth = (size: number) => size * 0.62;
const textWidth = (text: string, size = FONT) => Math.ceil([...text].length * charWidth(size));

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const anchorId = (id: string) => `${id}::any`;
const initialId = (id: string) => `${id}::initial`;
const round = (n: number) => Math.round(n * 10) / 10;

interface Built {
  node: ElkNode;
  lines: string[];
}

/** The ELK graph of a chart: one node per state (the root is the graph itself), edges with label sizes. */
export function toElkGraph(chart: Chart): ElkNode {
  const internalOf = (id: string) => chart.transitions.filter((t) => t.internal && t.source === id);
  // A transition between a compound state and one of its own descendants starts (or ends) at a
  // small handle inside the box: ELK draws no edge from a box to its own content.
  const anchored = new Set<string>();
  const endpoints = (t: ChartTransition): [string, string] => {
    let source = t.source;
    let target = t.target;
    if (source === chart.root.id || (source !== target && isAncestorOrSelf(chart, source, target))) {
      anchored.add(source);
      source = anchorId(source);
    }
    if (target === chart.root.id || (target !== t.source && isAncestorOrSelf(chart, target, t.source))) {
      anchored.add(target);
      target = anchorId(target);
    }
    return [source, target];
  };
  const drawn = chart.transitions.filter((t) => !t.internal);
  const edges: ElkExtendedEdge[] = drawn.map((t, i) => {
    const [source, target] = endpoints(t);
    return {
      id: `t${i}`,
      sources: [source],
      targets: [target],
      labels: [{ id: `t${i}:label`, text: t.label, width: textWidth(t.label, LABEL_FONT) + 6, height: LINE }],
    };
  });

  const build = (s: ChartState): Built => {
    const lines = stateLines(s, internalOf(s.id));
    const title = s.type === 'parallel' ? `${s.key} (parallel)` : s.type === 'history' ? (s.history === 'deep' ? 'H*' : 'H') : s.key;
    const allLines = [title, ...lines];
    if (!isCluster(s)) {
      const width = Math.max(60, ...allLines.map((line, i) => textWidth(line, i === 0 ? FONT : LABEL_FONT))) + 20;
      return { node: { id: s.id, width, height: allLines.length * LINE + 12 }, lines: allLines };
    }
    const children: ElkNode[] = s.children.map((child) => build(child).node);
    if (s.type === 'compound' && s.initial) children.unshift({ id: initialId(s.id), width: 10, height: 10 });
    if (anchored.has(s.id)) children.unshift({ id: anchorId(s.id), width: 10, height: 10 });
    const top = allLines.length * LINE + 14;
    const minWidth = Math.max(...allLines.map((line) => textWidth(line, FONT))) + 24;
    return {
      node: {
        id: s.id,
        children,
        layoutOptions: {
          'elk.padding': `[top=${top},left=12,bottom=12,right=12]`,
          'elk.nodeSize.constraints': 'MINIMUM_SIZE',
          'elk.nodeSize.minimum': `(${minWidth},${top + 20})`,
          // The regions of a parallel state sit side by side, as they run side by side.
          ...(s.type === 'parallel' ? { 'elk.direction': 'RIGHT' } : {}),
        },
      },
      lines: allLines,
    };
  };

  const initialEdges = (s: ChartState): ElkExtendedEdge[] => [
    ...(s.type === 'compound' && s.initial ? [{ id: `init:${s.id}`, sources: [initialId(s.id)], targets: [s.initial] }] : []),
    ...s.children.flatMap(initialEdges),
  ];
  const rootChildren = chart.root.children.map((child) => build(child).node);
  if (chart.root.type === 'compound' && chart.root.initial) rootChildren.unshift({ id: initialId(chart.root.id), width: 10, height: 10 });
  if (anchored.has(chart.root.id)) rootChildren.unshift({ id: anchorId(chart.root.id), width: 10, height: 10 });
  return {
    id: '__graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': chart.root.type === 'parallel' ? 'RIGHT' : 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '4',
      'elk.edgeLabels.inline': 'false',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
      // Every coordinate relative to the drawing, so nothing needs offsetting.
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
      'elk.randomSeed': '1',
    },
    children: rootChildren,
    edges: [...edges, ...initialEdges(chart.root)],
  };
}

/** Lays out and draws the chart; `title` labels the picture. */
export async function renderLayout(chart: Chart, title: string): Promise<string> {
  const elk = new ELK();
  const graph = await elk.layout(toElkGraph(chart));
  const out: string[] = [];
  const boxes = new Map<string, ElkNode>();
  const collect = (node: ElkNode) => {
    boxes.set(node.id, node);
    (node.children ?? []).forEach(collect);
  };
  (graph.children ?? []).forEach(collect);
  const internalOf = (id: string) => chart.transitions.filter((t) => t.internal && t.source === id);

  const drawState = (s: ChartState, parallelRegion: boolean) => {
    const box = boxes.get(s.id);
    if (!box) return;
    const x = round(box.x ?? 0);
    const y = round(box.y ?? 0);
    const w = round(box.width ?? 0);
    const h = round(box.height ?? 0);
    const lines = stateLines(s, internalOf(s.id));
    const title = s.type === 'parallel' ? `${s.key} (parallel)` : s.type === 'history' ? (s.history === 'deep' ? 'H*' : 'H') : s.key;
    const classes = ['state', `state-${s.type}`, ...(parallelRegion ? ['region'] : [])];
    out.push(`<g class="${classes.join(' ')}" data-state="${escapeXml(s.id)}">`);
    out.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8"/>`);
    if (s.type === 'final') out.push(`<rect class="inner" x="${x + 3}" y="${y + 3}" width="${w - 6}" height="${h - 6}" rx="6"/>`);
    const textX = isCluster(s) ? x + 10 : x + w / 2;
    const anchor = isCluster(s) ? 'start' : 'middle';
    [title, ...lines].forEach((line, i) => {
      out.push(
        `<text x="${round(textX)}" y="${round(y + 18 + i * LINE)}" text-anchor="${anchor}" class="${i === 0 ? 'name' : 'detail'}">${escapeXml(line)}</text>`,
      );
    });
    out.push('</g>');
    for (const child of s.children) drawState(child, s.type === 'parallel');
  };
  for (const child of chart.root.children) drawState(child, chart.root.type === 'parallel');

  const dot = (id: string, cls: string) => {
    const box = boxes.get(id);
    if (!box) return;
    out.push(`<circle class="${cls}" cx="${round((box.x ?? 0) + 5)}" cy="${round((box.y ?? 0) + 5)}" r="5"/>`);
  };
  for (const s of chart.states.values()) {
    dot(initialId(s.id), 'initial');
    dot(anchorId(s.id), 'any');
  }

  for (const edge of graph.edges ?? []) {
    const initial = edge.id.startsWith('init:');
    for (const section of edge.sections ?? []) {
      const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
      const d = points.map((p, i) => `${i ? 'L' : 'M'}${round(p.x)} ${round(p.y)}`).join(' ');
      out.push(`<path class="${initial ? 'edge initial-edge' : 'edge'}" d="${d}" marker-end="url(#arrow)"/>`);
    }
    for (const label of edge.labels ?? []) {
      out.push(
        `<text class="edge-label" x="${round((label.x ?? 0) + 3)}" y="${round((label.y ?? 0) + 12)}">${escapeXml(label.text ?? '')}</text>`,
      );
    }
  }
  const width = round(graph.width ?? 0);
  const height = round(graph.height ?? 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>',
    ...out,
    '</svg>',
  ].join('\n');
}
