import { esc } from '../../ui/html.js';

/**
 * A flow definition's step graph as inline SVG: boxes for steps, arrows for transitions, pills for
 * the purposes that start it and for the definitions a switch or pivot leaves to. Pure string
 * building (no script, no style attribute: the console's CSP allows neither), every text escaped.
 * It draws whatever it is given, also a refused, half-typed definition, so it reads the document
 * defensively.
 */

interface GraphEdge {
  from: string;
  to: string;
  /** the triggers of the transitions between the two, in document order */
  triggers: string[];
  /** a switch or pivot to another definition */
  crossFlow: boolean;
}

interface GraphModel {
  /** `name` is the step's name, or `#<position>` when it has none; `raw` is the step as given */
  steps: Array<{ name: string; terminal: boolean; raw: Record<string, unknown> }>;
  purposes: Array<{ purpose: string; entry: string }>;
  edges: GraphEdge[];
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Node keys keep steps, purposes and other definitions apart even when their names are equal. */
const stepKey = (name: string) => `s:${name}`;
const purposeKey = (name: string) => `p:${name}`;
const outsideKey = (name: string) => `o:${name}`;

/** More arrows than this draw nothing readable (the steps table below the picture lists every one). */
const MAX_ARROWS = 400;

export function graphModelOf(definition: unknown): GraphModel {
  const doc = isRecord(definition) ? definition : {};
  // The API stores at most 100 steps; a typed text may hold more, and the picture stays a picture.
  const rawSteps = (Array.isArray(doc.steps) ? doc.steps.filter(isRecord) : []).slice(0, 100);
  const steps = rawSteps.map((step, index) => ({ name: typeof step.name === 'string' ? step.name : `#${index + 1}`, terminal: step.complete !== undefined, raw: step }));
  const purposes = Object.entries(isRecord(doc.purposes) ? doc.purposes : {}).map(([purpose, entry]) => ({ purpose, entry: String(entry) }));
  const edges = new Map<string, GraphEdge>();
  rawSteps.forEach((step, index) => {
    for (const [trigger, transition] of Object.entries(isRecord(step.transitions) ? step.transitions : {})) {
      if (!isRecord(transition) || typeof transition.target !== 'string' || edges.size >= MAX_ARROWS) continue;
      const crossFlow = transition.action !== undefined;
      const from = stepKey(steps[index].name);
      const to = crossFlow ? outsideKey(`${transition.target} (${String(transition.action)})`) : stepKey(transition.target);
      const key = JSON.stringify([from, to]);
      const edge = edges.get(key) ?? { from, to, triggers: [], crossFlow };
      edge.triggers.push(trigger);
      edges.set(key, edge);
    }
  });
  return { steps, purposes, edges: [...edges.values()] };
}

const BOX_HEIGHT = 36;
const COLUMN_GAP = 36;
/** Gap beside a waypoint (where an arrow crosses a row): arrows pass between the boxes. */
const WAYPOINT_GAP = 14;
const ROW_GAP = 60;
const PAD = 24;
/** Room on the right for a step's loop to itself, and (half) below for arrows within the last row. */
const MARGIN = 64;
const LABEL_CHARS = 24;
const CHAR_WIDTH = 7.3;
const INK = '#1f2328';
const FLAGGED = '#b3261e';

const clip = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);

interface PlacedNode {
  key: string;
  label: string;
  /** a waypoint is no box: an arrow across more than one row passes there */
  kind: 'step' | 'terminal' | 'purpose' | 'outside' | 'missing' | 'waypoint';
  row: number;
  width: number;
  /** left edge and top, once the rows are laid out */
  x: number;
  y: number;
}

/** An arrow as drawn: its boxes and the waypoints between them, in the direction of the arrow. */
interface Route {
  edge: GraphEdge;
  chain: PlacedNode[];
}

/** Rows, top to bottom, as the page is narrow: purposes; steps by distance from an entry (unreachable after); complete steps and what lies outside. */
function rowsOf(model: GraphModel): (name: string, terminal: boolean) => number {
  const names = new Set(model.steps.map((step) => step.name));
  const next = new Map<string, string[]>();
  for (const edge of model.edges) if (!edge.crossFlow) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const depth = new Map<string, number>();
  let frontier = [...new Set(model.purposes.map((p) => p.entry).filter((entry) => names.has(entry)).map(stepKey))];
  for (let level = 0; frontier.length > 0; level += 1) {
    for (const key of frontier) depth.set(key, level);
    frontier = [...new Set(frontier.flatMap((key) => next.get(key) ?? []))].filter((key) => !depth.has(key) && names.has(key.slice(2)));
  }
  const deepest = Math.max(-1, ...depth.values());
  const stepRow = (name: string) => 1 + (depth.get(stepKey(name)) ?? deepest + 1);
  const lastRow = 1 + Math.max(0, ...model.steps.filter((step) => !step.terminal).map((step) => stepRow(step.name)));
  return (name, terminal) => (terminal ? lastRow : stepRow(name));
}

function layout(model: GraphModel, arrows: GraphEdge[]): { nodes: PlacedNode[]; routes: Route[]; width: number; height: number } {
  const rowOf = rowsOf(model);
  const lastRow = rowOf('', true);
  const names = new Set(model.steps.map((step) => step.name));
  const nodes = new Map<string, PlacedNode>();
  const add = (node: Omit<PlacedNode, 'x' | 'y' | 'width'>) => {
    if (!nodes.has(node.key)) nodes.set(node.key, { ...node, x: 0, y: 0, width: 0 });
  };
  for (const { purpose } of model.purposes) add({ key: purposeKey(purpose), label: purpose, kind: 'purpose', row: 0 });
  for (const step of model.steps) add({ key: stepKey(step.name), label: step.name, kind: step.terminal ? 'terminal' : 'step', row: rowOf(step.name, step.terminal) });
  for (const key of arrows.map((edge) => edge.to)) {
    if (key.startsWith('o:')) add({ key, label: key.slice(2), kind: 'outside', row: lastRow });
    else if (!names.has(key.slice(2))) add({ key, label: key.slice(2), kind: 'missing', row: lastRow });
  }
  const boxWidth = Math.min(200, Math.max(110, Math.ceil(Math.max(...[...nodes.values()].map((node) => clip(node.label).length + 2)) * CHAR_WIDTH) + 20));
  for (const node of nodes.values()) node.width = boxWidth;
  // An arrow across rows gets a waypoint in each row between, laid out like a narrow box.
  const routes = arrows.flatMap((edge, index) => {
    const [from, to] = [nodes.get(edge.from), nodes.get(edge.to)];
    if (!from || !to) return [];
    const step = Math.sign(to.row - from.row);
    const waypoints: PlacedNode[] = [];
    for (let row = from.row + step; step !== 0 && row !== to.row; row += step) {
      const waypoint: PlacedNode = { key: `w:${index}:${row}`, label: '', kind: 'waypoint', row, width: 0, x: 0, y: 0 };
      nodes.set(waypoint.key, waypoint);
      waypoints.push(waypoint);
    }
    return [{ edge, chain: [from, ...waypoints, to] }];
  });
  // Each row is ordered by where its neighbours in the row above are (fewer crossings), then centred.
  const above = new Map<string, PlacedNode[]>();
  for (const { chain } of routes) {
    for (let i = 1; i < chain.length; i += 1) {
      const [a, b] = [chain[i - 1], chain[i]];
      if (Math.abs(a.row - b.row) !== 1) continue;
      const [upper, lower] = a.row < b.row ? [a, b] : [b, a];
      above.set(lower.key, [...(above.get(lower.key) ?? []), upper]);
    }
  }
  const rows = [...new Set([...nodes.values()].map((node) => node.row))].sort((a, b) => a - b).map((row) => [...nodes.values()].filter((node) => node.row === row));
  const gap = (a: PlacedNode, b: PlacedNode) => (a.kind === 'waypoint' || b.kind === 'waypoint' ? WAYPOINT_GAP : COLUMN_GAP);
  const rowWidth = (row: PlacedNode[]) => row.reduce((sum, node, i) => sum + node.width + (i > 0 ? gap(row[i - 1], node) : 0), 0);
  const widest = Math.max(boxWidth, ...rows.map(rowWidth));
  rows.forEach((row, index) => {
    const centre = (node: PlacedNode) => {
      const neighbours = above.get(node.key) ?? [];
      return neighbours.length ? neighbours.reduce((sum, n) => sum + n.x + n.width / 2, 0) / neighbours.length : Number.MAX_SAFE_INTEGER;
    };
    const ordered = row.map((node, position) => ({ node, position, centre: centre(node) })).sort((a, b) => a.centre - b.centre || a.position - b.position).map(({ node }) => node);
    let x = PAD + (widest - rowWidth(ordered)) / 2;
    ordered.forEach((node, i) => {
      if (i > 0) x += gap(ordered[i - 1], node);
      Object.assign(node, { x, y: PAD + index * (BOX_HEIGHT + ROW_GAP) });
      x += node.width;
    });
  });
  return { nodes: [...nodes.values()], routes, width: PAD * 2 + widest + MARGIN, height: PAD * 2 + rows.length * BOX_HEIGHT + (rows.length - 1) * ROW_GAP + MARGIN / 2 };
}

function nodeMarkup(node: PlacedNode, flagged: boolean): string {
  const corner = node.kind === 'purpose' || node.kind === 'outside' ? BOX_HEIGHT / 2 : 6;
  const fill = node.kind === 'purpose' ? '#e8f0fe' : node.kind === 'terminal' ? '#e6f4ea' : node.kind === 'outside' ? '#f1f3f4' : '#ffffff';
  const stroke = flagged || node.kind === 'missing' ? FLAGGED : INK;
  const dashed = node.kind === 'outside' || node.kind === 'missing' ? ' stroke-dasharray="5 4"' : '';
  const mark = flagged || node.kind === 'missing' ? '⚠ ' : '';
  return (
    `<g><title>${esc(node.label)}</title>` +
    `<rect x="${Math.round(node.x)}" y="${node.y}" width="${node.width}" height="${BOX_HEIGHT}" rx="${corner}" fill="${fill}" stroke="${stroke}" stroke-width="${flagged ? 3 : 1.5}"${dashed}/>` +
    `<text x="${Math.round(node.x + node.width / 2)}" y="${node.y + BOX_HEIGHT / 2}" text-anchor="middle" dominant-baseline="central" font-family="ui-monospace, monospace" font-size="12" fill="${stroke}">${esc(mark)}${esc(clip(node.label))}</text></g>`
  );
}

interface Port {
  startX: number;
  endX: number;
  /** where on the arrow's first stretch its label goes (0 to 1) */
  labelAt: number;
}

/**
 * Where each arrow leaves and enters its boxes: arrows down leave the bottom and enter the top,
 * arrows up the other way round, arrows within a row join the bottoms. The arrows on one side of
 * a box share it out evenly, ordered by where they head, so they and their labels do not all
 * start at one point.
 */
function ports(routes: Route[]): Port[] {
  const sides = new Map<string, Array<{ index: number; end: 'startX' | 'endX'; towards: number; node: PlacedNode }>>();
  const use = (node: PlacedNode, side: string, entry: { index: number; end: 'startX' | 'endX'; towards: PlacedNode }) =>
    sides.set(`${side} ${node.key}`, [...(sides.get(`${side} ${node.key}`) ?? []), { index: entry.index, end: entry.end, towards: entry.towards.x, node }]);
  routes.forEach(({ chain }, index) => {
    const [from, to] = [chain[0], chain[chain.length - 1]];
    if (from === to) return;
    use(from, to.row < from.row ? 'top' : 'bottom', { index, end: 'startX', towards: chain[1] });
    use(to, to.row > from.row ? 'top' : 'bottom', { index, end: 'endX', towards: chain[chain.length - 2] });
  });
  const result: Port[] = routes.map(({ chain }) => ({ startX: chain[0].x + chain[0].width / 2, endX: chain[chain.length - 1].x + chain[chain.length - 1].width / 2, labelAt: 0.5 }));
  for (const entries of sides.values()) {
    entries.sort((a, b) => a.towards - b.towards || a.index - b.index);
    entries.forEach((entry, position) => {
      result[entry.index][entry.end] = entry.node.x + (entry.node.width * (position + 1)) / (entries.length + 1);
      // Labels of arrows leaving one side are staggered along their first stretch, so they do not overlap.
      if (entry.end === 'startX') result[entry.index].labelAt = 0.2 + (0.6 * (position + 1)) / (entries.length + 1);
    });
  }
  return result;
}

/** One coordinate of a point of a cubic Bézier curve, at `t` from 0 to 1. */
const cubicAt = (p0: number, p1: number, p2: number, p3: number, t: number) => (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3;

/** The arrow's path through its waypoints, and where its label goes (on its first stretch). */
function pathOf({ chain }: Route, port: Port): { d: string; labelX: number; labelY: number } {
  const [from, to] = [chain[0], chain[chain.length - 1]];
  if (from === to) {
    // A step that leads back to itself: a loop on its right side.
    const [x, y] = [from.x + from.width, from.y];
    return { d: `M${x} ${y + 8}C${x + 40} ${y - 8},${x + 40} ${y + BOX_HEIGHT + 8},${x} ${y + BOX_HEIGHT - 8}`, labelX: x + 30, labelY: y - 8 };
  }
  const reach = ROW_GAP / 2;
  if (from.row === to.row) {
    // Within a row: under the boxes, from bottom to bottom.
    const [y, x0, x1] = [from.y + BOX_HEIGHT, port.startX, port.endX];
    return { d: `M${x0} ${y}C${x0} ${y + reach},${x1} ${y + reach},${x1} ${y}`, labelX: (x0 + x1) / 2, labelY: y + reach * 0.75 };
  }
  const down = to.row > from.row;
  const sign = down ? 1 : -1;
  const leave = (node: PlacedNode) => (down ? node.y + BOX_HEIGHT : node.y);
  const enter = (node: PlacedNode) => (down ? node.y : node.y + BOX_HEIGHT);
  const middleOf = (node: PlacedNode) => node.x + node.width / 2;
  let [x, y] = [port.startX, leave(from)];
  let d = `M${x} ${y}`;
  let label = { labelX: 0, labelY: 0 };
  chain.slice(1).forEach((node, i) => {
    const [nx, ny] = [i === chain.length - 2 ? port.endX : middleOf(node), enter(node)];
    d += `C${x} ${y + sign * reach},${nx} ${ny - sign * reach},${nx} ${ny}`;
    if (i === 0) label = { labelX: cubicAt(x, x, nx, nx, port.labelAt), labelY: cubicAt(y, y + sign * reach, ny - sign * reach, ny, port.labelAt) };
    [x, y] = [nx, leave(node)];
    if (node.kind === 'waypoint') d += `L${x} ${y}`;
  });
  return { d, ...label };
}

/** Coordinates to a tenth of a pixel: the picture is the same, the markup much shorter. */
const rounded = (path: string) => path.replace(/\d+\.\d+/g, (n) => String(Math.round(Number(n) * 10) / 10));

export interface FlowGraphOptions {
  /** the picture's accessible name */
  title: string;
  /** unique on the page: the marker and title ids are made from it */
  idPrefix: string;
  /** names of steps the API found a problem in: drawn in red with a warning sign */
  flagged?: Set<string>;
}

/** The step graph of a flow definition document as one `<svg role="img">` element. */
export function flowGraphSvg(definition: unknown, options: FlowGraphOptions): string {
  const model = graphModelOf(definition);
  const arrows: GraphEdge[] = [...model.purposes.map((p) => ({ from: purposeKey(p.purpose), to: stepKey(p.entry), triggers: [], crossFlow: false })), ...model.edges];
  const { nodes, routes, width, height } = layout(model, arrows);
  const id = options.idPrefix.replace(/[^A-Za-z0-9_-]/g, '-');
  const endpoints = ports(routes);
  const edgeMarkup = routes
    .map((route, index) => {
      const [from, to] = [route.chain[0], route.chain[route.chain.length - 1]];
      const path = pathOf(route, endpoints[index]);
      const label = route.edge.triggers.join(', ');
      const dashed = route.edge.crossFlow ? ' stroke-dasharray="5 4"' : '';
      return (
        `<g><title>${esc(`${from.label} → ${to.label}${label ? ` (${label})` : ''}`)}</title>` +
        `<path d="${rounded(path.d)}" fill="none" stroke="${INK}" stroke-width="1.25"${dashed} marker-end="url(#${id}-arrow)"/>` +
        (label ? `<text x="${Math.round(path.labelX)}" y="${Math.round(path.labelY)}" text-anchor="middle" dominant-baseline="central" font-family="system-ui, sans-serif" font-size="11" fill="${INK}" stroke="#ffffff" stroke-width="3" paint-order="stroke">${esc(clip(label))}</text>` : '') +
        `</g>`
      );
    })
    .join('');
  // The description says in words what the arrows show, for readers who cannot see the picture.
  const description = routes.map(({ edge, chain }) => `${chain[0].label} → ${chain[chain.length - 1].label}${edge.triggers.length ? ` (${edge.triggers.join(', ')})` : ''}`).join('; ');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<title id="${id}-title">${esc(options.title)}</title><desc id="${id}-desc">${esc(description)}</desc>` +
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="${INK}"/></marker></defs>` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    edgeMarkup +
    nodes
      .filter((node) => node.kind !== 'waypoint')
      .map((node) => nodeMarkup(node, (node.kind === 'step' || node.kind === 'terminal') && (options.flagged?.has(node.label) ?? false)))
      .join('') +
    `</svg>`
  );
}
