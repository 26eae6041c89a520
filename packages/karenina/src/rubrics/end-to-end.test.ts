import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { type MetricTrait, parseRubricTrait, rubricTraits } from "../model/rubric/index.js";
import { JavaScriptSandbox, PythonSandbox } from "../sandbox/index.js";
import { trait } from "./authoring.js";
import { evaluateLocalTraits } from "./local-evaluation.js";
import { evaluateMetricReply } from "./metrics.js";
import { buildRubricResult } from "./result.js";

const javascriptSandbox = await JavaScriptSandbox.create();
const pythonSandbox = PythonSandbox.create();
afterAll(async () => {
  javascriptSandbox.close();
  await pythonSandbox.close();
});

/** A Python callable as the original stores source-based ones: base64 of `def evaluate(trace): ...`. */
const pythonCallable = parseRubricTrait(
  {
    name: "no_apology",
    kind: "boolean",
    callable_code: Buffer.from(
      "def evaluate(trace: str) -> bool:\n    return 'sorry' not in trace.lower()\n",
    ).toString("base64"),
  },
  "callable",
);

test("every trait kind, built with the trait namespace, survives save and load, merges and evaluates", async () => {
  const bench = Benchmark.create({ name: "rubric end-to-end" });
  bench.addQuestion("What is the target of venetoclax?", "BCL2", { questionId: "q1" });
  bench.addQuestion("What is the capital of France?", "Paris", { questionId: "q2" });
  const globalTraits = [
    trait.llm.score({ name: "clarity", description: "Clear and well organised" }),
    trait.regex({ name: "cites", pattern: String.raw`\[\d+\]` }),
    await trait.callable({
      name: "word_count",
      kind: "score",
      minScore: 0,
      maxScore: 1000,
      fn: (text) => text.split(/\s+/).filter((word) => word !== "").length,
      sandbox: javascriptSandbox,
    }),
  ];
  const questionTraits = [
    trait.llm.boolean({ name: "mentions_bcl2", description: "Names BCL2 as the target" }),
    trait.llm.literal({ name: "tone", classes: { formal: "Academic", neutral: "Plain", casual: "Chatty" } }),
    trait.regex({ name: "hedges", pattern: "(?i)might|may|possibly", invertResult: true }),
    await trait.callable({
      name: "drug_class",
      kind: "literal",
      classes: { inhibitor: "Called an inhibitor", other: "Anything else" },
      fn: (text) => (/inhibit/i.test(text) ? "inhibitor" : "other"),
      sandbox: javascriptSandbox,
    }),
    pythonCallable,
    trait.metric({
      name: "coverage",
      metrics: ["precision", "recall"],
      tpInstructions: ["BCL2", "apoptosis"],
    }),
    trait.agentic({
      name: "sources_checked",
      description: "Were the cited sources opened?",
      kind: "boolean",
    }),
  ];
  bench.setGlobalRubric(globalTraits);
  for (const questionTrait of questionTraits) bench.addQuestionRubricTrait("q1", questionTrait);

  const file = join(await mkdtemp(join(tmpdir(), "karenina-rubrics-")), "bench.jsonld");
  const loaded = await Benchmark.load(await bench.save(file));

  expect(loaded.getQuestionsWithRubric().map((question) => question.id)).toEqual(["q1"]);
  const merged = loaded.getMergedRubricForQuestion("q1");
  expect(merged.warnings).toEqual([]);
  expect(rubricTraits(merged.rubric)).toEqual(
    [...globalTraits, ...questionTraits].sort(
      (a, b) =>
        ["llm", "regex", "callable", "metric", "agentic"].indexOf(a.type) -
        ["llm", "regex", "callable", "metric", "agentic"].indexOf(b.type),
    ),
  );
  expect(merged.provenance).toMatchObject({
    clarity: "global",
    word_count: "global",
    tone: "question_specific",
  });
  expect(loaded.getMergedRubricForQuestion("q2").rubric).toEqual(loaded.getGlobalRubric());

  // A hand-written response; the metric reply below is hand-written too (no judge ran).
  const response = "Venetoclax inhibits BCL2, which blocks apoptosis in leukaemia cells [1].";
  const rubric = merged.rubric ?? expect.fail("q1 has a rubric");
  const local = await evaluateLocalTraits(rubric, response, { pythonSandbox, javascriptSandbox });
  expect(local).toEqual({
    scores: { cites: true, hedges: true, word_count: 10, drug_class: 0, no_apology: true },
    errors: {},
  });
  const coverage = evaluateMetricReply(rubric.metric_traits[0] as MetricTrait, { tp: ["BCL2", "apoptosis"] });
  expect(coverage.metrics).toEqual({ precision: 1, recall: 1 });

  const block = buildRubricResult({
    rubric,
    scores: local.scores,
    metricScores: { coverage: coverage.metrics },
    confusionLists: { coverage: coverage.lists },
    provenance: merged.provenance,
  });
  expect(block.regex_trait_scores).toEqual({ cites: true, hedges: true });
  expect(block.callable_trait_scores).toEqual({ word_count: 10, drug_class: 0, no_apology: true });
  expect(block.llm_trait_scores).toBeNull();
}, 60_000);
