import { expect, test } from "vitest";
import { localTimestamp, resultId } from "./index.js";

const gpt4o = { interface: "langchain", model_name: "gpt-4o", tools: [], config_id: null };
const base = { answering: gpt4o, parsing: gpt4o, timestamp: "2026-04-21T12:00:00+00:00" };

test("result ids match the original's test vectors (spec 06 §1.3)", () => {
  expect(resultId({ ...base, question_id: "q-unicode" })).toBe("ccb35805790e357a");
  expect(resultId({ ...base, question_id: "q-timeout" })).toBe("b60b6a00a978f080");
});

test("canonical keys may be given instead of identities", () => {
  const byKey = resultId({
    ...base,
    answering: "langchain:gpt-4o:",
    parsing: "langchain:gpt-4o:",
    question_id: "q-unicode",
  });
  expect(byKey).toBe("ccb35805790e357a");
});

test("missing replicate and scenario fields count as null", () => {
  const explicit = {
    ...base,
    question_id: "q",
    replicate: null,
    scenario_id: null,
    scenario_node: null,
    scenario_turn: null,
  };
  expect(resultId(explicit)).toBe(resultId({ ...base, question_id: "q" }));
  expect(resultId({ ...base, question_id: "q", replicate: 2 })).not.toBe(
    resultId({ ...base, question_id: "q" }),
  );
});

test("ids hash the text Python's json.dumps(sort_keys=True) writes, non-ASCII escaped", () => {
  // Digests computed with Python 3: hashlib.sha256(json.dumps({...}, sort_keys=True).encode()).hexdigest()[:16]
  expect(resultId({ ...base, question_id: "café 咖啡 🧪\u007f", replicate: 3, scenario_turn: 1 })).toBe(
    "f3a2efbb8a171d3a",
  );
});

test("a local timestamp has second resolution and no time zone", () => {
  expect(localTimestamp(new Date(2026, 0, 2, 3, 4, 5, 678))).toBe("2026-01-02 03:04:05");
  expect(localTimestamp()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
});

test("scenario turn ids match the original's vectors (spec 08 §6.1)", () => {
  const turn = {
    answering: "langchain:gpt-4.1-mini:solver-m:",
    parsing: "langchain:gpt-4.1-mini:judge-a:",
    question_id: "urn:uuid:question-what-is-the-capital-of-australia-7dc9849f",
    scenario_id: "capital-pushback",
    timestamp: "2026-01-01 00:00:00",
  };
  expect(resultId({ ...turn, scenario_node: "ask", scenario_turn: 0, replicate: null })).toBe(
    "ea120dbb66d2dc49",
  );
  expect(resultId({ ...turn, scenario_node: "push", scenario_turn: 1, replicate: null })).toBe(
    "08675b046b4e69e3",
  );
  expect(resultId({ ...turn, scenario_node: "ask", scenario_turn: 0, replicate: 2 })).toBe(
    "85d8043fdf258217",
  );
});
