import { describe, expect, test } from "vitest";
import type { ScenarioGraphDrawing } from "../library-types/index.js";
import { BOX, END_NODE, layersOf, layoutGraph, pathEdges } from "./graph-layout.js";

const edge = (source: string, target: string, condition = "always") => ({
  source,
  target,
  condition,
  handover: null,
});
const node = (id: string) => ({ id, question: `${id}?`, agent_identity: null });

const pushback: ScenarioGraphDrawing = {
  scenario_id: "pushback",
  description: "",
  entry_node: "ask",
  nodes: [node("ask"), node("push"), node("explain")],
  edges: [
    edge("ask", "push", "verify_result == True"),
    edge("ask", "explain", "otherwise"),
    edge("push", END_NODE),
    edge("explain", END_NODE),
  ],
  outcomes: [],
};

describe("the layered layout of a scenario graph", () => {
  test("layers by distance from the entry, END after the deepest node", () => {
    expect(Object.fromEntries(layersOf(pushback))).toEqual({ ask: 0, push: 1, explain: 1, [END_NODE]: 2 });
  });

  test("siblings stack in one column; forward edges run from a box's right side to the next's left", () => {
    const layout = layoutGraph(pushback);
    const at = (id: string) => layout.nodes.find((n) => n.id === id);
    expect(at("push")?.x).toBe(at("explain")?.x);
    expect(at("explain")?.y).toBe((at("push")?.y ?? 0) + BOX.height + BOX.rowGap);
    const first = layout.edges[0];
    expect(first?.d).toBe(
      `M ${BOX.margin + BOX.width} ${BOX.margin + BOX.height / 2} L ${at("push")?.x ?? 0} ${BOX.margin + BOX.height / 2}`,
    );
    expect(layout.width).toBe(BOX.margin * 2 + 3 * BOX.width + 2 * BOX.columnGap);
  });

  test("a loop back to an earlier node arcs below the boxes; an unreachable node goes last", () => {
    const graph: ScenarioGraphDrawing = {
      ...pushback,
      nodes: [...pushback.nodes, node("orphan")],
      edges: [...pushback.edges, edge("push", "ask", "verify_result == False")],
    };
    const layout = layoutGraph(graph);
    expect(layersOf(graph).get("orphan")).toBe(2);
    expect(layersOf(graph).get(END_NODE)).toBe(3);
    expect(layout.edges.find((e) => e.source === "push" && e.target === "ask")?.d).toMatch(/^M .* C /);
  });

  test("an execution's path gives the edges it took, END when it completed", () => {
    expect([...pathEdges(["ask", "push"], true)]).toEqual(["ask→push", `push→${END_NODE}`]);
    expect([...pathEdges(["ask", "push"], false)]).toEqual(["ask→push"]);
    expect([...pathEdges([], true)]).toEqual([]);
  });
});
