import { describe, expect, test } from "vitest";
import { result, state, turn } from "./__fixtures__/hand-built.js";
import { resolveResultField, resolveStatePath, resolveTurnField } from "./state-paths.js";

describe("state paths (spec 08 §4.6)", () => {
  const s = state({
    turn: 3,
    current_node: "confirm",
    verify_result: false,
    parsed: { drug: "venetoclax", "a.b": 1 },
    accumulated: { pushes: 2 },
    node_visits: { ask: 2 },
    node_results: {
      ask: { verify_result: false, parsed: { drug_name: "v" }, rubric: { clarity: 4 } },
    },
  });

  test("T-E7: an unvisited node has 0 visits; a missing parsed key and an unknown root are null", () => {
    expect(resolveStatePath("node_visits.retry", s)).toBe(0);
    expect(resolveStatePath("node_visits.ask", s)).toBe(2);
    expect(resolveStatePath("parsed.missing", s)).toBeNull();
    expect(resolveStatePath("foo.bar", s)).toBeNull();
    expect(resolveStatePath("current_node", s)).toBe("confirm");
  });

  test("T-E8: node_results paths reach the parsed field, the rubric score and the verify result", () => {
    expect(resolveStatePath("node_results.ask.parsed.drug_name", s)).toBe("v");
    expect(resolveStatePath("node_results.ask.rubric.clarity", s)).toBe(4);
    expect(resolveStatePath("node_results.ask.verify_result", s)).toBe(false);
    expect(resolveStatePath("node_results.ask", s)).toEqual(s.node_results.ask);
    expect(resolveStatePath("node_results.ghost", s)).toEqual({});
    expect(resolveStatePath("node_results.ghost.parsed", s)).toBeNull();
  });

  test("a non-object entry value is returned as it is, whatever follows it in the path", () => {
    expect(resolveStatePath("node_results.ask.verify_result.whatever", s)).toBe(false);
  });

  test("the state fields ignore anything after their name; parsed and accumulated read one key, dots included", () => {
    expect(resolveStatePath("turn.anything", s)).toBe(3);
    expect(resolveStatePath("verify_result", s)).toBe(false);
    expect(resolveStatePath("parsed.a.b", s)).toBe(1);
    expect(resolveStatePath("parsed", s)).toBeNull();
    expect(resolveStatePath("accumulated.pushes", s)).toBe(2);
  });

  test("keys inherited from Object.prototype read as missing", () => {
    expect(resolveStatePath("parsed.constructor", s)).toBeNull();
    expect(resolveStatePath("node_visits.__proto__", s)).toBe(0);
    expect(resolveStatePath("node_results.toString", s)).toEqual({});
  });
});

describe("turn and result fields (spec 08 §4.6)", () => {
  const t = turn({
    node_id: "ask",
    raw_response: "The drug is venetoclax.",
    parsed_fields: { drug: "venetoclax", id: "urn:q" },
    verify_result: true,
  });

  test("parsed.<key> reads parsed_fields; other fields are record attributes named before the first dot", () => {
    expect(resolveTurnField("parsed.drug", t)).toBe("venetoclax");
    expect(resolveTurnField("parsed.missing", t)).toBeNull();
    expect(resolveTurnField("node_id", t)).toBe("ask");
    expect(resolveTurnField("node_id.extra", t)).toBe("ask");
    expect(resolveTurnField("raw_response", t)).toBe("The drug is venetoclax.");
    expect(resolveTurnField("verify_result", t)).toBe(true);
    expect(resolveTurnField("parsed", t)).toBeNull();
    expect(resolveTurnField("nope", t)).toBeNull();
    expect(resolveTurnField("constructor", t)).toBeNull();
  });

  test("result fields are attributes of that exact name; outcome_results is what the result holds", () => {
    const r = result([t, t], { replicate: 2 });
    expect(resolveResultField("turn_count", r)).toBe(2);
    expect(resolveResultField("status", r)).toBe("completed");
    expect(resolveResultField("path", r)).toEqual(["ask", "ask"]);
    expect(resolveResultField("scenario_id", r)).toBe("demo");
    expect(resolveResultField("replicate", r)).toBe(2);
    expect(resolveResultField("terminal_failure", r)).toBeNull();
    expect(resolveResultField("outcome_results", r)).toEqual({});
    expect(resolveResultField("final_state.turn", r)).toBeNull();
    expect(resolveResultField("hasOwnProperty", r)).toBeNull();
  });
});
