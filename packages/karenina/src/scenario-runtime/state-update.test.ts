import { describe, expect, test } from "vitest";
import { type ScenarioNodeInput, ScenarioNodeSchema } from "../scenario/index.js";
import { ScenarioRuntimeError } from "./errors.js";
import { applyStateUpdate } from "./state-update.js";

const node = (fields: Partial<ScenarioNodeInput> = {}) =>
  ScenarioNodeSchema.parse({ node_id: "ask", question: { question: "Q?", raw_answer: "A" }, ...fields });

async function update(n: ReturnType<typeof node>, accumulated: Record<string, unknown>, parsed = {}) {
  const warnings: string[] = [];
  const next = await applyStateUpdate(n, accumulated, parsed, {
    callables: null,
    warn: (m) => warnings.push(m),
  });
  return { next, warnings };
}

describe("state_update (spec 08 §4.7)", () => {
  test("a node without an update keeps the accumulated object itself", async () => {
    const accumulated = { a: 1 };
    const { next, warnings } = await update(node(), accumulated);
    expect(next).toBe(accumulated);
    expect(warnings).toEqual([]);
  });

  test("the returned object replaces the accumulated state; in-place changes are allowed", async () => {
    const inPlace = node({
      state_update: (acc, p) => {
        acc.seen = p;
        return acc;
      },
    });
    const accumulated: Record<string, unknown> = { a: 1 };
    const { next } = await update(inPlace, accumulated, { drug: "v" });
    expect(next).toBe(accumulated);
    expect(next).toEqual({ a: 1, seen: { drug: "v" } });
    const spread = node({ state_update: (acc) => ({ ...acc, pushes: ((acc.pushes as number) ?? 0) + 1 }) });
    expect((await update(spread, { pushes: 1 })).next).toEqual({ pushes: 2 });
  });

  test("T-M5: an update that mutates in place and then throws is rolled back to a deep copy", async () => {
    const broken = node({
      state_update: (acc) => {
        (acc.nested as { list: number[] }).list.push(99);
        acc.added = true;
        throw new Error("boom");
      },
    });
    const { next, warnings } = await update(broken, { nested: { list: [1] } });
    expect(next).toEqual({ nested: { list: [1] } });
    expect(warnings).toEqual([
      "The state_update of node 'ask' raised Error: boom; the accumulated state is restored",
    ]);
  });

  test("quirk Q15 (fixed): a non-object return is rolled back with a warning", async () => {
    for (const [value, described] of [
      [null, "None"],
      [[1], "a list"],
      [3, "a number"],
    ] as const) {
      const { next, warnings } = await update(node({ state_update: () => value }), { keep: 1 });
      expect(next).toEqual({ keep: 1 });
      expect(warnings).toEqual([
        `The state_update of node 'ask' returned ${described} instead of an object; the accumulated state is restored`,
      ]);
    }
  });

  test("a TypeScript update wins over the Python source; a source without a runner is a ScenarioRuntimeError", async () => {
    const both = node({ state_update: () => ({ from: "ts" }), state_update_source: "lambda acc, p: acc" });
    expect((await update(both, {})).next).toEqual({ from: "ts" });
    const python = node({ state_update_source: "lambda acc, p: acc" });
    await expect(update(python, {})).rejects.toBeInstanceOf(ScenarioRuntimeError);
  });
});
