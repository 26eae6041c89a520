import type { ScenarioGraphDrawing } from "../library-types/index.js";

/** The id the server gives the end of a conversation (`GRAPH_END` of the library's graph view). */
export const END_NODE = "END";

export const BOX = { width: 150, height: 44, columnGap: 170, rowGap: 36, margin: 24 } as const;

export interface PlacedNode {
  readonly id: string;
  readonly label: string;
  /** Top-left corner. */
  readonly x: number;
  readonly y: number;
  readonly layer: number;
}

export interface PlacedEdge {
  readonly source: string;
  readonly target: string;
  readonly condition: string;
  /** The path's `d`: a straight line or, for an edge going back or to itself, a curve. */
  readonly d: string;
  /** Where its label sits. */
  readonly labelX: number;
  readonly labelY: number;
}

export interface GraphLayout {
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  readonly width: number;
  readonly height: number;
}

/**
 * Each node's layer: its shortest distance from the entry (breadth first), END one past the deepest node;
 * nodes the entry does not reach go after every other.
 */
export function layersOf(graph: ScenarioGraphDrawing): Map<string, number> {
  const layer = new Map<string, number>([[graph.entry_node, 0]]);
  const queue = [graph.entry_node];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const edge of graph.edges) {
      if (edge.source !== next || edge.target === END_NODE || layer.has(edge.target)) continue;
      layer.set(edge.target, (layer.get(next) ?? 0) + 1);
      queue.push(edge.target);
    }
  }
  let deepest = Math.max(0, ...layer.values());
  for (const node of graph.nodes) if (!layer.has(node.id)) layer.set(node.id, ++deepest);
  if (graph.edges.some((edge) => edge.target === END_NODE)) layer.set(END_NODE, deepest + 1);
  return layer;
}

/**
 * A left-to-right layered layout: one column per layer, nodes stacked in the graph's order within a column.
 * Forward edges are straight lines between box sides; an edge to an earlier or the same column (a loop) arcs
 * below the boxes. Enough for the few nodes a scenario has.
 */
export function layoutGraph(graph: ScenarioGraphDrawing): GraphLayout {
  const layers = layersOf(graph);
  const ids = [...graph.nodes.map((node) => node.id), ...(layers.has(END_NODE) ? [END_NODE] : [])];
  const rowInLayer = new Map<number, number>();
  const placed = new Map<string, PlacedNode>();
  for (const id of ids) {
    const layer = layers.get(id) ?? 0;
    const row = rowInLayer.get(layer) ?? 0;
    rowInLayer.set(layer, row + 1);
    placed.set(id, {
      id,
      label: id === END_NODE ? "END" : id,
      layer,
      x: BOX.margin + layer * (BOX.width + BOX.columnGap),
      y: BOX.margin + row * (BOX.height + BOX.rowGap),
    });
  }
  const rows = Math.max(1, ...rowInLayer.values());
  const columns = Math.max(1, ...[...layers.values()].map((layer) => layer + 1));
  const height = BOX.margin * 2 + rows * BOX.height + (rows - 1) * BOX.rowGap + BOX.rowGap;
  const edges = graph.edges.flatMap((edge) => {
    const from = placed.get(edge.source);
    const to = placed.get(edge.target);
    if (from === undefined || to === undefined) return [];
    return [{ source: edge.source, target: edge.target, condition: edge.condition, ...edgePath(from, to) }];
  });
  return {
    nodes: [...placed.values()],
    edges,
    width: BOX.margin * 2 + columns * BOX.width + (columns - 1) * BOX.columnGap,
    height,
  };
}

function edgePath(from: PlacedNode, to: PlacedNode) {
  const midY = (node: PlacedNode) => node.y + BOX.height / 2;
  if (to.layer > from.layer) {
    const x1 = from.x + BOX.width;
    const y1 = midY(from);
    const x2 = to.x;
    const y2 = midY(to);
    return { d: `M ${x1} ${y1} L ${x2} ${y2}`, labelX: (x1 + x2) / 2, labelY: (y1 + y2) / 2 - 6 };
  }
  // Back to an earlier column, or to itself: an arc under both boxes.
  const x1 = from.x + BOX.width / 2;
  const x2 = to.x + BOX.width / 2 + (from.id === to.id ? 24 : 0);
  const y1 = from.y + BOX.height;
  const y2 = to.y + BOX.height;
  const low = Math.max(y1, y2) + BOX.rowGap * 0.8;
  return {
    d: `M ${x1} ${y1} C ${x1} ${low}, ${x2} ${low}, ${x2} ${y2}`,
    labelX: (x1 + x2) / 2,
    labelY: low - 2,
  };
}

/** The edges an execution took along its path (`a→b` keys), END after its last node when it completed. */
export function pathEdges(path: readonly string[], reachedEnd: boolean): Set<string> {
  const taken = new Set<string>();
  for (let at = 1; at < path.length; at++) taken.add(`${path[at - 1]}→${path[at]}`);
  const last = path[path.length - 1];
  if (reachedEnd && last !== undefined) taken.add(`${last}→${END_NODE}`);
  return taken;
}
