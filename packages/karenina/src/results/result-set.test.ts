import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { thrown } from "../test-support/thrown.js";
import { row } from "./__fixtures__/rows.js";
import { answeringModelKey, modelComboKey, VerificationResultError, VerificationResultSet } from "./index.js";

const ids = (set: VerificationResultSet) => [...set].map((result) => result.metadata.question_id);

describe("a result set", () => {
  const rows = [
    row({ question: "q1", replicate: 1, verify: true, rubric: { rubric_evaluation_performed: true } }),
    row({ question: "q1", replicate: 2, verify: false, parsing: "judge2" }),
    row({ question: "q2", replicate: 1, failure: { category: "timeout" }, answering: "other" }),
    row({ question: "q3", replicate: null, judgment: true, mcp: ["files", "search"] }),
  ];
  const set = new VerificationResultSet(rows);

  test("has a length, iterates and indexes its rows in order", () => {
    expect(set.length).toBe(4);
    expect(ids(set)).toEqual(["q1", "q1", "q2", "q3"]);
    expect(set.at(-1)).toBe(rows[3]);
    expect(set.at(9)).toBeUndefined();
    expect(JSON.parse(JSON.stringify(set)).results).toHaveLength(4);
  });

  test("filter keeps the rows every given criterion holds for", () => {
    expect(ids(set.filter({ questionIds: ["q1", "q3"] }))).toEqual(["q1", "q1", "q3"]);
    expect(ids(set.filter({ answeringModels: ["openai:other"] }))).toEqual(["q2"]);
    expect(ids(set.filter({ parsingModels: ["openai:judge2"] }))).toEqual(["q1"]);
    expect(ids(set.filter({ replicates: [null] }))).toEqual(["q3"]);
    expect(ids(set.filter({ replicates: [1], completedOnly: true }))).toEqual(["q1"]);
    expect(ids(set.filter({ hasTemplate: true }))).toEqual(["q1", "q1"]);
    expect(ids(set.filter({ hasRubric: true }))).toEqual(["q1"]);
    expect(ids(set.filter({ hasJudgment: true }))).toEqual(["q3"]);
    expect(ids(set.filter({ hasTemplate: false }))).toEqual(["q2", "q3"]);
    expect(set.filter({ completedOnly: false }).length).toBe(4);
    expect(set.filter({}).length).toBe(4);
  });

  test("groups by question, replicate (null kept) and model, in the order groups first appear", () => {
    expect([...set.groupByQuestion()].map(([key, group]) => [key, group.length])).toEqual([
      ["q1", 2],
      ["q2", 1],
      ["q3", 1],
    ]);
    expect([...set.groupByReplicate().keys()]).toEqual([1, 2, null]);
    expect([...set.groupByModel().keys()]).toEqual([
      "openai:answerer",
      "openai:other",
      "openai:answerer + MCP[files,search]",
    ]);
    expect([...set.groupByModel("parsing").keys()]).toEqual(["openai:judge", "openai:judge2"]);
    expect([...set.groupByModel("both").keys()]).toEqual([
      "openai:answerer / openai:judge",
      "openai:answerer / openai:judge2",
      "openai:other / openai:judge",
      "openai:answerer + MCP[files,search] / openai:judge",
    ]);
    expect(set.groupByModel("both").get("openai:answerer / openai:judge")?.at(0)).toBe(rows[0]);
  });

  test("lists distinct question ids and model display strings", () => {
    expect(set.getQuestionIds()).toEqual(["q1", "q2", "q3"]);
    expect(set.getModelNames()).toEqual(["openai:answerer", "openai:other"]);
    expect(set.getModelNames("parsing")).toEqual(["openai:judge", "openai:judge2"]);
  });

  test("the combo key of summaries names MCP servers after the models", () => {
    expect(modelComboKey(rows[3] ?? row())).toBe("openai:answerer | openai:judge | files, search");
    expect(answeringModelKey(rows[3] ?? row())).toBe("openai:answerer + MCP[files,search]");
    expect(modelComboKey(rows[0] ?? row())).toBe("openai:answerer | openai:judge");
  });

  test("an empty set has nothing to group and summarises to zeros and the original's nulls", () => {
    const empty = new VerificationResultSet();
    expect(empty.length).toBe(0);
    expect(empty.groupByQuestion().size).toBe(0);
    expect(empty.getSummary()).toMatchObject({
      num_results: 0,
      outcomes: { passed: 0, failed: 0, pass_rate: 0 },
      template_pass_overall: null,
      replicate_stats: null,
      trace_length_stats: null,
    });
  });

  test("parse names the row at fault", () => {
    const error = thrown(VerificationResultError, () =>
      VerificationResultSet.parse([{ metadata: {} }], "run.json: results"),
    );
    expect(error.message).toContain("run.json: results[0]: $.metadata.question_id");
  });
});

describe.skipIf(!hasConformance)(
  `rows exported by the original (${hasConformance ? "" : SKIP_REASON})`,
  () => {
    test("the full export's rows load into a set that filters and groups them", async () => {
      const document = JSON.parse(
        await readFile(conformancePath("export_format/results_export_full.json"), "utf8"),
      ) as { results: unknown[] };
      const set = VerificationResultSet.parse(document.results);
      expect(set.getQuestionIds()).toEqual(["q-unicode", "q-timeout"]);
      expect(set.getModelNames()).toEqual(["langchain:gpt-4o"]);
      expect(ids(set.filter({ completedOnly: true }))).toEqual(["q-unicode"]);
      expect(ids(set.filter({ hasTemplate: true }))).toEqual(["q-unicode", "q-timeout"]);
      expect([...set.groupByModel("both").keys()]).toEqual(["langchain:gpt-4o / langchain:gpt-4o"]);
      expect([...set.groupByReplicate().keys()]).toEqual([null]);
    });
  },
);
