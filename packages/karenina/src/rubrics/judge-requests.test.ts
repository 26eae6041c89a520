import { describe, expect, test } from "vitest";
import { type LlmTrait, MetricTraitSchema, parseRubricTrait } from "../model/rubric/index.js";
import { thrown } from "../test-support/thrown.js";
import { TraitEvaluationError } from "./errors.js";
import { referenceGroups } from "./judge-request.js";
import { batchLiteralRequests, sequentialLiteralRequest } from "./literal-requests.js";
import { metricTraitRequest } from "./metric-requests.js";
import { batchScoreRequests, sequentialScoreRequest } from "./score-requests.js";
import { templateTraitRequest } from "./template-requests.js";

const llm = (fields: Record<string, unknown>) => parseRubricTrait(fields, "llm") as LlmTrait;

// Questions, answers and responses below are hand-written for these tests.
const context = { question: "What is the target of venetoclax?", response: "Venetoclax inhibits BCL-2." };
const clarity = llm({ name: "Clarity", kind: "score", description: "The response is clear" });
const depth = llm({ name: "depth 0-10", kind: "score", min_score: 0, max_score: 10 });
const cites = llm({ name: "cites", kind: "boolean" });
const correct = llm({
  name: "correct",
  kind: "boolean",
  description: "Agrees with the reference",
  include_ground_truth: true,
});
const tone = llm({
  name: "tone",
  kind: "literal",
  classes: { formal: "Academic register", casual: "Chatty" },
});

describe("batch boolean/score requests", () => {
  const [request] = batchScoreRequests([clarity, depth, cites], context);

  test("list every trait verbatim with its kind, range (min or 1, max or 5) and description or fallback", () => {
    expect(request?.call).toBe("rubric_llm_trait_batch");
    expect(request?.traitNames).toEqual(["Clarity", "depth 0-10", "cites"]);
    expect(request?.user).toContain("- Clarity (score 1-5): The response is clear");
    expect(request?.user).toContain("- depth 0-10 (score 1-10): Score-based evaluation");
    expect(request?.user).toContain("- cites (boolean): Boolean evaluation");
  });

  test("end with the question block, then the response block, and no reference block", () => {
    const user = request?.user ?? "";
    expect(user.indexOf("<question>\nWhat is the target of venetoclax?\n</question>")).toBeGreaterThan(
      user.indexOf("- cites"),
    );
    expect(user.indexOf("<response>\nVenetoclax inhibits BCL-2.\n</response>")).toBeGreaterThan(
      user.indexOf("</question>"),
    );
    expect(user).not.toContain("<reference_answer>");
  });

  test("give a per-trait schema and an example with true for booleans and min+2 for scores", () => {
    expect(request?.example).toEqual({ scores: { Clarity: 3, "depth 0-10": 3, cites: true } });
    expect(request?.schema).toMatchObject({
      required: ["scores"],
      properties: {
        scores: {
          required: ["Clarity", "depth 0-10", "cites"],
          properties: { Clarity: { type: "integer", minimum: 1, maximum: 5 }, cites: { type: "boolean" } },
        },
      },
    });
    expect(request?.formatHint).toBe(
      `Respond with only a JSON object of this form, with no other text: ${JSON.stringify(request?.example)}`,
    );
  });

  test("the system text sets the evaluator's rules", () => {
    expect(request?.system).toContain("exactly as written");
    expect(request?.system).toContain("clamped");
    expect(request?.system).toContain("not evaluated");
  });

  test("omit the question block in TaskEval mode (question null)", () => {
    const [taskEval] = batchScoreRequests([clarity], { question: null, response: "x" });
    expect(taskEval?.user).not.toContain("<question>");
  });

  test("keep traits that opted in to the reference answer in a call of their own", () => {
    const requests = batchScoreRequests([clarity, correct, cites], { ...context, referenceAnswer: "BCL2" });
    expect(requests.map((r) => r.traitNames)).toEqual([["Clarity", "cites"], ["correct"]]);
    expect(requests[0]?.user).not.toContain("BCL2");
    expect(requests[1]?.user).toContain("<reference_answer>\nBCL2\n</reference_answer>");
  });

  test("make one call without the reference when there is no reference answer", () => {
    expect(referenceGroups([clarity, correct], "")).toEqual([
      { traits: [clarity, correct], referenceAnswer: null },
    ]);
    expect(batchScoreRequests([correct], context)[0]?.user).not.toContain("<reference_answer>");
  });

  test("refuse literal traits and score traits with min ≥ max, naming the trait and the field", () => {
    expect(thrown(TraitEvaluationError, () => batchScoreRequests([tone], context)).message).toBe(
      'llm trait "tone": field "kind": a literal-kind trait cannot be judged as a boolean/score trait',
    );
    const inverted = llm({ name: "inv", kind: "score", min_score: 5, max_score: 2 });
    expect(thrown(TraitEvaluationError, () => batchScoreRequests([inverted], context)).field).toBe(
      "min_score",
    );
  });

  test("no traits, no call", () => {
    expect(batchScoreRequests([], context)).toEqual([]);
  });
});

describe("sequential boolean/score requests", () => {
  test("a boolean trait asks for {result}", () => {
    const request = sequentialScoreRequest(cites, context);
    expect(request.call).toBe("rubric_llm_trait_single");
    expect(request.example).toEqual({ result: true });
    expect(request.schema).toMatchObject({
      required: ["result"],
      properties: { result: { type: "boolean" } },
    });
    expect(request.user).toContain("Trait: cites (boolean)\nCriterion: Boolean evaluation");
  });

  test("a score trait asks for {score} with the poor/average/excellent anchors", () => {
    const request = sequentialScoreRequest(depth, context);
    expect(request.example).toEqual({ score: 3 });
    expect(request.user).toContain("where 1 = poor, 5 = average, 10 = excellent");
  });

  test("the reference block appears only for a trait that opted in", () => {
    const withReference = { ...context, referenceAnswer: "BCL2" };
    expect(sequentialScoreRequest(correct, withReference).user).toContain("<reference_answer>");
    expect(sequentialScoreRequest(cites, withReference).user).not.toContain("<reference_answer>");
  });
});

describe("literal requests", () => {
  test("batch: every trait with its classes in order; reply is a list of {trait_name, class_name}", () => {
    const [request] = batchLiteralRequests([tone], context);
    expect(request?.call).toBe("rubric_literal_trait_batch");
    expect(request?.user).toContain(
      "- tone\n  Classes (choose exactly one, by its name):\n    - formal: Academic register\n    - casual: Chatty",
    );
    expect(request?.example).toEqual({ classifications: [{ trait_name: "tone", class_name: "formal" }] });
    expect(request?.schema).toMatchObject({ properties: { classifications: { type: "array" } } });
  });

  test("sequential: reply {classification}", () => {
    const request = sequentialLiteralRequest(tone, { question: null, response: "hey!" });
    expect(request.call).toBe("rubric_literal_trait_single");
    expect(request.example).toEqual({ classification: "formal" });
    expect(request.user).not.toContain("<question>");
  });

  test("a non-literal trait is refused", () => {
    expect(thrown(TraitEvaluationError, () => sequentialLiteralRequest(cites, context)).field).toBe("kind");
  });
});

describe("template-kind requests", () => {
  const kind = {
    type: "template" as const,
    schema: {
      title: "Structure",
      type: "object",
      properties: {
        steps: { type: "integer", description: "Number of distinct steps" },
        caveats: { type: "array", items: { type: "string" } },
        note: { anyOf: [{ type: "string" }, { type: "null" }], default: null },
      },
      required: ["steps", "caveats"],
    },
  };
  const structure = llm({
    name: "structure",
    kind,
    higher_is_better: null,
    description: "How the answer is organised",
  });

  test("the structured output is the trait's class schema; fields are listed with their types", () => {
    const request = templateTraitRequest(structure, context);
    expect(request.call).toBe("rubric_llm_trait_template");
    expect(request.schema).toEqual(kind.schema);
    expect(request.example).toEqual({ steps: 0, caveats: ["..."], note: "..." });
    expect(request.user).toContain("- steps (integer): Number of distinct steps");
    expect(request.user).toContain("- caveats (list of string)");
    expect(request.user).toContain("- note (string, may be null)");
    expect(request.user).toContain("What to assess: How the answer is organised");
  });

  test("a scalar-kind trait is refused", () => {
    expect(thrown(TraitEvaluationError, () => templateTraitRequest(clarity, context)).field).toBe("kind");
  });
});

describe("metric requests", () => {
  test("tp_only: numbered TP instructions, no TN section; the fp rule is about wrong same-category terms", () => {
    const trait = MetricTraitSchema.parse({
      name: "coverage",
      description: "Enzymes",
      metrics: ["recall"],
      tp_instructions: ["COX-1", "COX-2"],
    });
    const request = metricTraitRequest(trait, context);
    expect(request.call).toBe("rubric_metric_trait");
    expect(request.user).toContain("Trait: coverage\nDescription: Enzymes");
    expect(request.user).toContain("TP instructions (what the response should contain):\n1. COX-1\n2. COX-2");
    expect(request.user).not.toContain("TN instructions");
    expect(request.system).toContain("same category, incorrect item");
    expect(request.schema).toMatchObject({ required: ["tp", "fn", "fp", "tn"] });
  });

  test("full_matrix: TN instructions too; fp means matching a TN instruction", () => {
    const trait = MetricTraitSchema.parse({
      name: "safety",
      evaluation_mode: "full_matrix",
      metrics: ["accuracy"],
      tp_instructions: ["dose"],
      tn_instructions: ["off-label use"],
    });
    const request = metricTraitRequest(trait, context);
    expect(request.user).toContain(
      "TN instructions (what the response should not contain):\n1. off-label use",
    );
    expect(request.system).toContain("fp: content of the response that matches a TN instruction");
  });
});
