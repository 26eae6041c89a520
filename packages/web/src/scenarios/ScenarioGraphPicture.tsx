import { useId, useMemo } from "react";
import type { ScenarioGraphDrawing } from "../library-types/index.js";
import { BOX, END_NODE, layoutGraph, pathEdges } from "./graph-layout.js";

export interface ScenarioGraphPictureProps {
  readonly graph: ScenarioGraphDrawing;
  /** The path of the selected execution (highlighted), or null. */
  readonly path: readonly string[] | null;
  /** Whether the selected execution ended by reaching END (its last edge is then highlighted too). */
  readonly reachedEnd: boolean;
}

/** At most this many characters of a condition under its edge (the whole one is the edge's tooltip). */
const LABEL_CHARS = 28;
const shortLabel = (text: string) =>
  text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;

/**
 * A scenario's graph as a picture: nodes as boxes (the entry's border thicker), edges as arrows labelled with
 * their conditions, END as a round box; the selected execution's nodes and edges highlighted.
 */
export function ScenarioGraphPicture({ graph, path, reachedEnd }: ScenarioGraphPictureProps) {
  const layout = useMemo(() => layoutGraph(graph), [graph]);
  const marker = `arrow-${useId().replaceAll(":", "")}`;
  const takenMarker = `${marker}-taken`;
  const visited = new Set(path ?? []);
  const taken = path === null ? new Set<string>() : pathEdges(path, reachedEnd);
  const questions = new Map(graph.nodes.map((node) => [node.id, node.question]));
  const label =
    path === null
      ? `Graph of scenario ${graph.scenario_id}`
      : `Graph of scenario ${graph.scenario_id}, path ${path.join(" → ")} highlighted`;
  return (
    <figure className="scenario-graph">
      <svg
        role="img"
        aria-label={label}
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
      >
        <defs>
          {[marker, takenMarker].map((id) => (
            <marker
              key={id}
              id={id}
              viewBox="0 0 10 10"
              refX="10"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path
                d="M 0 0 L 10 5 L 0 10 z"
                className={id === takenMarker ? "scenario-arrow-taken" : "scenario-arrow"}
              />
            </marker>
          ))}
        </defs>
        {layout.edges.map((edge) => {
          const key = `${edge.source}→${edge.target}`;
          const isTaken = taken.has(key);
          return (
            <g key={key} className={isTaken ? "scenario-edge taken" : "scenario-edge"} data-edge={key}>
              <title>{`${edge.source} → ${edge.target}: ${edge.condition}`}</title>
              <path d={edge.d} fill="none" markerEnd={`url(#${isTaken ? takenMarker : marker})`} />
              <text x={edge.labelX} y={edge.labelY} textAnchor="middle">
                {shortLabel(edge.condition)}
              </text>
            </g>
          );
        })}
        {layout.nodes.map((node) => {
          const classes = ["scenario-node"];
          if (visited.has(node.id) || (node.id === END_NODE && taken.size > 0 && reachedEnd))
            classes.push("taken");
          if (node.id === graph.entry_node) classes.push("entry");
          if (node.id === END_NODE) classes.push("end");
          return (
            <g key={node.id} className={classes.join(" ")} data-node={node.id}>
              <title>
                {node.id === END_NODE
                  ? "End of the conversation"
                  : `${node.id}: ${questions.get(node.id) ?? ""}`}
              </title>
              <rect
                x={node.x}
                y={node.y}
                width={BOX.width}
                height={BOX.height}
                rx={node.id === END_NODE ? BOX.height / 2 : 6}
              />
              <text x={node.x + BOX.width / 2} y={node.y + BOX.height / 2 + 5} textAnchor="middle">
                {node.label}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        {graph.scenario_id}
        {graph.description === "" ? null : `: ${graph.description}`}
      </figcaption>
    </figure>
  );
}
