import { describe, expect, test } from "vitest";
import { BASE_CAPABILITIES, type LlmPort, type ParserPort } from "../../llm/index.js";
import { parseRubric } from "../../model/index.js";
import {
  parseVerificationResult,
  VerificationResultMetadataSchema,
  VerificationResultSchema,
  VerificationResultTemplateSchema,
} from "../../results/index.js";
import { parseVerificationConfig } from "../config/index.js";
import type { PortProvider } from "../model-calls.js";
import { runVerification } from "../run-verification.js";
import type { PipelineQuestion } from "../task.js";

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, model: "in-process" };

/** In-process ports with fixed hand-written replies: the pipeline's own work, without HTTP. */
const ports: PortProvider = {
  llm: (): LlmPort => ({
    capabilities: BASE_CAPABILITIES,
    invoke: async () => ({ content: "Venetoclax [1].", usage, isPartial: false, usageUnavailable: false }),
    close: async () => {},
  }),
  parser: (): ParserPort => ({
    capabilities: BASE_CAPABILITIES,
    parse: async (_messages, schema) => {
      const checked = schema.validate({ drug: "venetoclax" });
      if (!checked.success) throw new Error(checked.error);
      return { parsed: checked.value, rawText: '{"drug": "venetoclax"}', usage, strategy: "native" };
    },
    close: async () => {},
  }),
  agent: () => {
    throw new Error("no agents here");
  },
  embedding: () => {
    throw new Error("no embeddings here");
  },
  close: async () => {},
};

const question: PipelineQuestion = {
  id: "q1",
  text: "Which drug inhibits BCL2?",
  rawAnswer: "venetoclax",
  template: { code: TEMPLATE, language: "Python" },
  keywords: ["oncology"],
  fewShotExamples: [],
  rubric: parseRubric({ regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }] }),
  dynamicRubric: null,
  workspacePath: null,
};

const model = (id: string) => ({
  id,
  model_name: id,
  interface: "openai_endpoint",
  endpoint_base_url: "http://unused",
});

describe("FinalizeResult", () => {
  test("a result is already in its schema's shape and key order, so a stored row reads back unchanged", async () => {
    const config = parseVerificationConfig({
      answering_models: [model("answerer")],
      parsing_models: [model("judge")],
      evaluation_mode: "template_and_rubric",
    });
    const { results } = await runVerification([question], config, { ports });
    const result = results[0];
    expect(result).toBeDefined();
    const stored = JSON.parse(JSON.stringify(result));
    expect(parseVerificationResult(stored)).toEqual(stored);
    expect(Object.keys(stored)).toEqual(Object.keys(VerificationResultSchema.shape));
    expect(Object.keys(stored.metadata)).toEqual(Object.keys(VerificationResultMetadataSchema.shape));
    expect(Object.keys(stored.template)).toEqual(Object.keys(VerificationResultTemplateSchema.shape));
    expect(stored.metadata).toMatchObject({
      question_id: "q1",
      failure: null,
      evaluation_mode: "template_and_rubric",
      raw_answer: "venetoclax",
      keywords: ["oncology"],
      answering: { interface: "openai_endpoint", model_name: "answerer", tools: [], config_id: null },
    });
    expect(stored.metadata.result_id).toMatch(/^[0-9a-f]{16}$/);
    expect(stored.template).toMatchObject({
      verify_result: true,
      template_verification_performed: true,
      parsed_llm_response: { drug: "venetoclax" },
      parsed_gt_response: { drug: "venetoclax" },
      field_results: { drug: true },
      raw_llm_response: "--- AI Message ---\nVenetoclax [1].",
    });
    expect(stored.template.usage_metadata.total).toEqual({
      input_tokens: 20,
      output_tokens: 10,
      total_tokens: 30,
    });
    expect(Object.keys(stored.template.usage_metadata)).toEqual(["answer_generation", "parsing", "total"]);
    expect(stored.rubric).toMatchObject({
      regex_trait_scores: { cites: true },
      trait_provenance: { cites: "question_specific" },
    });
  });
});
