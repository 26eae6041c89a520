import { describe, expect, test } from "vitest";
import { answeringModelKey, modelComboKey } from "./model-combo-key.js";
import { canonicalKey, displayString } from "./model-identity.js";
import { ModelKeyCache, type RowModelKeys } from "./summary-models.js";
import { parseVerificationResult, type VerificationResult } from "./verification-result.js";

function row(
  answering: Record<string, unknown>,
  parsing: Record<string, unknown>,
  servers: string[] = [],
): VerificationResult {
  return parseVerificationResult({
    metadata: {
      question_id: "q1",
      template_id: "t",
      question_text: "Why?",
      answering,
      parsing,
      execution_time: 1,
      timestamp: "2026-04-21 12:00:00",
      result_id: "0000000000000001",
    },
    template: { answering_mcp_servers: servers },
  });
}

const keysOf = ({ answering, parsing, combo, answeringCanonical }: RowModelKeys) => ({
  answering,
  parsing,
  combo,
  answeringCanonical,
});

const expected = (result: VerificationResult) => ({
  answering: answeringModelKey(result),
  parsing: displayString(result.metadata.parsing),
  combo: modelComboKey(result),
  answeringCanonical: canonicalKey(result.metadata.answering),
});

describe("ModelKeyCache", () => {
  test("rows that share model names but differ in interface, config id, tools or MCP servers get their own keys", () => {
    const gpt = { interface: "openai", model_name: "gpt" };
    const judge = { interface: "openai", model_name: "judge" };
    const rows = [
      row(gpt, judge),
      row({ ...gpt, interface: "langchain" }, judge),
      row({ ...gpt, config_id: "agent" }, judge),
      row({ ...gpt, tools: ["files"] }, judge),
      row({ ...gpt, tools: ["files", "search"] }, judge),
      row(gpt, { ...judge, config_id: "strict" }),
      row(gpt, judge, ["pubmed"]),
      row(gpt, judge, ["pubmed", "web"]),
      ...Array.from({ length: 12 }, (_, i) => row({ ...gpt, config_id: `c${i}` }, judge)),
    ];
    const cache = new ModelKeyCache();
    for (const pass of [1, 2])
      for (const result of rows)
        expect({ pass, ...keysOf(cache.of(result)) }).toEqual({ pass, ...expected(result) });
  });

  test("a row changed after it was keyed does not change the keys of the rows after it", () => {
    const cache = new ModelKeyCache();
    const first = row(
      { interface: "openai", model_name: "gpt", tools: ["files"] },
      { interface: "openai", model_name: "judge" },
    );
    cache.of(first);
    first.metadata.answering.tools.push("search");
    const second = row(
      { interface: "openai", model_name: "gpt", tools: ["files", "search"] },
      { interface: "openai", model_name: "judge" },
    );
    expect(keysOf(cache.of(second))).toEqual(expected(second));
  });
});
