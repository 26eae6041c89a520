import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { buildDeepJudgmentRubricBlock, failedDeepJudgmentTrait } from "../rubrics/index.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { thrown } from "../test-support/thrown.js";
import {
  FailureSchema,
  parseVerificationResult,
  VerificationResultDeepJudgmentRubricSchema,
  VerificationResultError,
  VerificationResultMetadataSchema,
  VerificationResultSchema,
  VerificationResultTemplateSchema,
} from "./index.js";

type Json = Record<string, unknown>;

const identity = { interface: "langchain", model_name: "gpt-4o", tools: [], config_id: null };
const metadata = {
  question_id: "q1",
  template_id: "no_template",
  question_text: "Why?",
  answering: identity,
  parsing: identity,
  execution_time: 0.5,
  timestamp: "2026-04-21 12:00:00",
  result_id: "0123456789abcdef",
};

/** The rows of a results export (format v2.2): a header object with a `results` array. */
async function exportRows(name: string): Promise<Json[]> {
  const document = JSON.parse(await readFile(conformancePath(`export_format/${name}`), "utf8")) as Json;
  return document.results as Json[];
}

describe.skipIf(!hasConformance)(
  `rows exported by the original (${hasConformance ? "" : SKIP_REASON})`,
  () => {
    test("every row of the full export parses, and serializes back to the same JSON, key order included", async () => {
      const rows = await exportRows("results_export_full.json");
      expect(rows).toHaveLength(2);
      for (const [index, row] of rows.entries()) {
        const result = parseVerificationResult(row, `results_export_full.json: results[${index}]`);
        expect(JSON.stringify(result)).toBe(JSON.stringify(row));
      }
    });

    test("the timeout row's failure keeps its group, computed from the category", async () => {
      const [, timeout] = await exportRows("results_export_full.json");
      expect(parseVerificationResult(timeout).metadata.failure).toEqual({
        category: "timeout",
        stage: "generate_answer",
        reason: "timeout exceeded",
        details: null,
        group: "retry",
      });
    });

    test("the empty export has no rows", async () => {
      expect(await exportRows("results_export_empty.json")).toEqual([]);
    });
  },
);

test("a minimal row gets every field, nulls included, in the order of spec 06 §1", () => {
  const result = parseVerificationResult({ metadata, template: {} });
  expect(Object.keys(result.metadata)).toEqual(Object.keys(VerificationResultMetadataSchema.shape));
  expect(Object.keys(result.template ?? {})).toEqual(Object.keys(VerificationResultTemplateSchema.shape));
  expect(result.template?.raw_llm_response).toBe("");
  expect(result.template?.verify_granular_result).toBeNull();
  expect(result.metadata.failure).toBeNull();
  expect(result.rubric).toBeNull();
  expect(result.used_full_trace).toBe(true);
  const round = parseVerificationResult(JSON.parse(JSON.stringify(result)));
  expect(JSON.stringify(round)).toBe(JSON.stringify(result));
});

test("keys given out of order are written in schema order", () => {
  const shuffled = Object.fromEntries(Object.entries(metadata).reverse());
  const result = VerificationResultSchema.parse({ trace_extraction_error: null, metadata: shuffled });
  expect(Object.keys(result)[0]).toBe("metadata");
  expect(Object.keys(result.metadata).slice(0, 3)).toEqual(["question_id", "template_id", "failure"]);
});

test("an unknown metadata key is refused with its JSON path and the allowed keys", () => {
  const error = thrown(VerificationResultError, () =>
    parseVerificationResult({ metadata: { ...metadata, answering_model: "x" } }, "run.json"),
  );
  expect(error.message).toMatch(
    /^run\.json: \$\.metadata\.answering_model: unknown field "answering_model" \(allowed: question_id, template_id/,
  );
});

test("a wrong field is named by its JSON path", () => {
  const error = thrown(VerificationResultError, () =>
    parseVerificationResult({
      metadata: { ...metadata, replicate: "2" },
      template: { trace_messages: [{}, 3] },
    }),
  );
  expect(error.where).toBe("result");
  expect(error.problems.map((p) => p.path.join("."))).toEqual([
    "metadata.replicate",
    "template.trace_messages.1",
  ]);
  expect(error.message).toContain('result: $.metadata.replicate: expected number, found a string "2"');
  expect(error.message).toContain(
    "result: $.template.trace_messages[1]: expected record, found the number 3",
  );
});

test("a missing required field is reported as missing", () => {
  const { question_id: _, ...rest } = metadata;
  expect(() => parseVerificationResult({ metadata: rest })).toThrow(
    "result: $.metadata.question_id: missing required field (expected string)",
  );
});

test("a failure's group comes from its category, whatever the input says", () => {
  const failure = FailureSchema.parse({
    category: "sufficiency",
    stage: "sufficiency_check",
    reason: "vague",
    group: "content",
  });
  expect(failure).toEqual({
    category: "sufficiency",
    stage: "sufficiency_check",
    reason: "vague",
    details: null,
    group: "abstained",
  });
  expect(Object.keys(failure)).toEqual(["category", "stage", "reason", "details", "group"]);
});

test("a failure reason longer than 500 characters is refused", () => {
  const reason = "é".repeat(500);
  expect(FailureSchema.safeParse({ category: "parsing", stage: "ParseTemplate", reason }).success).toBe(true);
  expect(
    FailureSchema.safeParse({ category: "parsing", stage: "ParseTemplate", reason: `${reason}!` }).success,
  ).toBe(false);
});

test("retry counts must name exactly the four retryable categories", () => {
  const counts = {
    connection: { used: 0, budget: 3 },
    timeout: { used: 1, budget: 3 },
    rate_limit: { used: 0, budget: 5 },
    server_error: { used: 0, budget: 2 },
  };
  expect(
    parseVerificationResult({ metadata: { ...metadata, retry_counts: counts } }).metadata.retry_counts,
  ).toEqual(counts);
  const withPermanent = { ...counts, permanent: { used: 0, budget: 0 } };
  expect(() => parseVerificationResult({ metadata: { ...metadata, retry_counts: withPermanent } })).toThrow(
    /\$\.metadata\.retry_counts\.permanent/,
  );
});

test("the rubric deep-judgment block the rubric stage builds parses unchanged", () => {
  const block = buildDeepJudgmentRubricBlock([failedDeepJudgmentTrait("clarity", "timeout")], { tone: 1 });
  const typed: Parameters<typeof VerificationResultDeepJudgmentRubricSchema.parse>[0] = block;
  expect(VerificationResultDeepJudgmentRubricSchema.parse(typed)).toEqual(block);
});
