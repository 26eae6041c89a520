import { expect, test } from "vitest";
import { row } from "../../results/__fixtures__/rows.js";
import { taskUsage, UsageTotals } from "./task-usage.js";

test("a task with no recorded usage has null tokens and costs nothing; it counts as priced", () => {
  const fields = taskUsage(row({ usage: null }));
  expect(fields).toEqual({ usage: null, cost_usd: 0 });
  const totals = new UsageTotals();
  totals.add(fields);
  expect(totals.value).toMatchObject({ total_tokens: 0, cost_usd: 0, priced: 1, unpriced: 0 });
});

test("one unpriced stage makes the task's cost unknown, though its tokens count", () => {
  const fields = taskUsage(
    row({
      usage: {
        answer_generation: { input: 1000, output: 100, model: "gpt-4.1-mini" },
        parsing: { input: 50, output: 5, model: "local-judge" },
      },
    }),
  );
  expect(fields).toEqual({
    usage: { input_tokens: 1050, output_tokens: 105, total_tokens: 1155 },
    cost_usd: null,
  });
});
