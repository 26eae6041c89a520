import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import { deriveSdkMaxRetries } from "../../llm/index.js";
import { thrown } from "../../test-support/thrown.js";
import {
  ConfigError,
  DEFAULT_ANSWERING_SYSTEM_PROMPT,
  dumpVerificationConfig,
  parseVerificationConfig,
  SECRET_MASK,
} from "./index.js";

const judge = { id: "judge", model_name: "gpt-4.1-mini", model_provider: "openai", interface: "langchain" };
const answerer = {
  id: "answerer",
  model_name: "qwen",
  interface: "openai_endpoint",
  endpoint_base_url: "http://h",
};
const minimal = { answering_models: [answerer], parsing_models: [judge] };

describe("VerificationConfig defaults", () => {
  test("fills the original's defaults", () => {
    const config = parseVerificationConfig(minimal);
    expect(config).toMatchObject({
      replicate_count: 1,
      evaluation_mode: "template_only",
      rubric_evaluation_strategy: "batch",
      embedding_check_model: "all-MiniLM-L6-v2",
      embedding_check_threshold: 0.85,
      async_enabled: true,
      async_max_workers: 2,
      request_timeout: 120,
      deep_judgment_search_tool: "tavily",
      prompt_config: null,
    });
    expect(config.retry_policy.rate_limit).toEqual({
      max_attempts: 5,
      backoff_min: 5,
      backoff_max: 30,
      backoff_multiplier: 2,
    });
    expect(deriveSdkMaxRetries(config.retry_policy)).toBe(5);
  });

  test("answering models get the default system prompt, parsing models do not, and inputs stay untouched", () => {
    const input = structuredClone(minimal);
    const config = parseVerificationConfig(input);
    expect(config.answering_models[0]?.system_prompt).toBe(DEFAULT_ANSWERING_SYSTEM_PROMPT);
    expect(config.parsing_models[0]?.system_prompt).toBeNull();
    expect(input).toEqual(minimal);
  });

  test("models are stamped with the run's timeout and retry policy unless they have their own", () => {
    const config = parseVerificationConfig({
      ...minimal,
      request_timeout: 30,
      parsing_models: [{ ...judge, request_timeout: 5 }],
    });
    expect(config.answering_models[0]?.request_timeout).toBe(30);
    expect(config.parsing_models[0]?.request_timeout).toBe(5);
    expect(config.answering_models[0]?.retry_policy).toEqual(config.retry_policy);
  });

  test("manual models default their id and name", () => {
    const manual = { interface: "manual", manual_traces: { abc: "trace" } };
    const config = parseVerificationConfig({ ...minimal, answering_models: [manual] });
    expect(config.answering_models[0]).toMatchObject({ id: "manual", model_name: "manual" });
  });
});

describe("VerificationConfig environment defaults", () => {
  test("fill absent keys only; explicit input wins; unreadable numbers are ignored", () => {
    const env = {
      EMBEDDING_CHECK: "YES",
      EMBEDDING_CHECK_THRESHOLD: "not a number",
      KARENINA_ASYNC_MAX_WORKERS: "8",
      KARENINA_MAX_CONCURRENT_LLM_REQUESTS: "3",
      KARENINA_ASYNC_ENABLED: "false",
    };
    const config = parseVerificationConfig({ ...minimal, max_concurrent_requests: 1 }, { env });
    expect(config).toMatchObject({
      embedding_check_enabled: true,
      embedding_check_threshold: 0.85,
      async_max_workers: 8,
      async_enabled: false,
      max_concurrent_requests: 1,
    });
  });

  test("no env record means no environment defaults", () => {
    expect(parseVerificationConfig(minimal).embedding_check_enabled).toBe(false);
  });
});

describe("VerificationConfig input normalization", () => {
  test("instruction shortcuts fill empty prompt_config fields only", () => {
    const config = parseVerificationConfig({
      ...minimal,
      prompt_config: { parsing: "kept" },
      parsing_instructions: "ignored",
      generation_instructions: "be brief",
    });
    expect(config.prompt_config).toMatchObject({
      parsing: "kept",
      generation: "be brief",
      deep_judgment: null,
    });
  });

  test("legacy keys are dropped silently and rubric_enabled is computed on dump", () => {
    const config = parseVerificationConfig({
      ...minimal,
      rubric_enabled: false,
      deep_judgment_rubric_search_enabled: true,
      evaluation_mode: "rubric_only",
    });
    expect(dumpVerificationConfig(config).rubric_enabled).toBe(true);
  });

  test("an unknown key is refused, naming the key", () => {
    const error = thrown(ConfigError, () => parseVerificationConfig({ ...minimal, replicates: 3 }));
    expect(error.message).toContain('unknown field "replicates"');
    expect(error.problems[0]?.path).toEqual(["replicates"]);
  });

  test("an unknown model key is refused with the model's path", () => {
    const error = thrown(ConfigError, () =>
      parseVerificationConfig({ ...minimal, parsing_models: [{ ...judge, modelName: "x" }] }),
    );
    expect(error.message).toContain('parsing_models[0].modelName: unknown field "modelName"');
  });
});

describe("VerificationConfig cross-field rules", () => {
  const problemsOf = (input: Record<string, unknown>) =>
    thrown(ConfigError, () => parseVerificationConfig(input)).problems.map(
      (p) => `${p.path.join(".")}: ${p.message.replace(/, found .*$/, "")}`,
    );

  test("parsing models are required, answering models unless parsing_only", () => {
    expect(problemsOf({ parsing_models: [] })).toEqual([
      "parsing_models: at least one parsing model is required",
      "answering_models: at least one answering model is required (unless parsing_only)",
    ]);
    expect(parseVerificationConfig({ parsing_models: [judge], parsing_only: true }).answering_models).toEqual(
      [],
    );
  });

  test("a langchain model needs a provider; a non-manual model needs an id", () => {
    const { model_provider: _p, ...noProvider } = judge;
    const { id: _id, ...noId } = answerer;
    expect(problemsOf({ answering_models: [noId], parsing_models: [noProvider] })).toEqual([
      "answering_models.0.id: is required",
      "parsing_models.0.model_provider: is required for the langchain interface",
    ]);
  });

  test("an unknown interface is refused, listing the known ones", () => {
    expect(problemsOf({ ...minimal, parsing_models: [{ ...judge, interface: "magic" }] })[0]).toMatch(
      /^parsing_models\.0\.interface: unknown interface "magic" \(known: langchain, openrouter/,
    );
  });

  test("deep judgment, agentic parsing and rubric rules", () => {
    expect(
      problemsOf({
        ...minimal,
        deep_judgment_mode: "reasoning_only",
        deep_judgment_search_enabled: true,
        deep_judgment_search_tool: "google",
        agentic_parsing_trigger: "dynamic",
        deep_judgment_rubric_mode: "custom",
      }),
    ).toEqual([
      "deep_judgment_search_enabled: search is not available in reasoning_only deep judgment",
      'deep_judgment_search_tool: must be "tavily" or a function',
      "deep_judgment_rubric_config: is required when deep_judgment_rubric_mode is custom",
      "agentic_parsing_trigger: dynamic requires agentic_parsing",
    ]);
    expect(
      problemsOf({ ...minimal, agentic_parsing: true, agentic_parsing_materialize_trace: true }),
    ).toEqual(["agentic_parsing_materialize_trace: needs a judge context that includes the trace"]);
  });

  test("agentic parsing takes tool-loop judges (a deliberate difference), but not a judge without an agent", () => {
    expect(parseVerificationConfig({ ...minimal, agentic_parsing: true }).agentic_parsing).toBe(true);
    const manualJudge = { interface: "manual", manual_traces: {} };
    expect(problemsOf({ ...minimal, agentic_parsing: true, parsing_models: [manualJudge] })).toEqual([
      "parsing_models.0.interface: agentic_parsing needs a model that can run an agent; manual has none",
    ]);
  });

  test("spec 05 §12.5 the dynamic agentic-parsing trigger is accepted with agentic_parsing", () => {
    const config = parseVerificationConfig({
      ...minimal,
      agentic_parsing: true,
      agentic_parsing_trigger: "dynamic",
    });
    expect(config.agentic_parsing_trigger).toBe("dynamic");
  });

  test("k-shot few-shot needs k >= 1", () => {
    expect(
      problemsOf({
        ...minimal,
        few_shot_config: {
          pool_mode: "k-shot",
          pool_k: 0,
          question_configs: { q1: { mode: "k-shot", k: 0 } },
        },
      }),
    ).toEqual([
      "few_shot_config.pool_k: must be >= 1 in k-shot mode",
      "few_shot_config.question_configs.q1.k: must be >= 1 in k-shot mode",
    ]);
  });

  test("errors never quote an API key", () => {
    const input = { ...minimal, answering_models: [{ ...answerer, anthropic_api_key: "sk-ant-secret" }] };
    const error = thrown(ConfigError, () => parseVerificationConfig(input));
    expect(error.message).toContain("anthropic_api_key");
    expect(error.message).not.toContain("sk-ant-secret");
  });

  test("anthropic settings are refused on an openai_endpoint model", () => {
    expect(
      problemsOf({ ...minimal, answering_models: [{ ...answerer, anthropic_api_key: "sk-ant" }] }),
    ).toEqual([
      "answering_models.0.anthropic_api_key: is only allowed for claude_tool, claude_agent_sdk, or LangChain interfaces with provider anthropic",
    ]);
  });
});

describe("API keys are secrets", () => {
  const withKey = { ...minimal, answering_models: [{ ...answerer, endpoint_api_key: "sk-very-secret" }] };

  test("the key is usable by adapters but masked in dumps, JSON, strings and logs", () => {
    const config = parseVerificationConfig(withKey);
    const key = config.answering_models[0]?.endpoint_api_key;
    expect(key?.reveal()).toBe("sk-very-secret");
    const dump = dumpVerificationConfig(config);
    expect((dump.answering_models as Record<string, unknown>[])[0]?.endpoint_api_key).toBe(SECRET_MASK);
    for (const rendering of [
      JSON.stringify(config),
      JSON.stringify(dump),
      String(key),
      inspect(config, { depth: 9 }),
    ]) {
      expect(rendering).not.toContain("sk-very-secret");
    }
  });

  test("a masked key reads back as no key", () => {
    const dump = dumpVerificationConfig(parseVerificationConfig(withKey));
    const again = parseVerificationConfig(dump);
    expect(again.answering_models[0]?.endpoint_api_key).toBeNull();
  });

  test("manual traces are never dumped", () => {
    const manual = { interface: "manual", manual_traces: { abc: "trace" } };
    const dump = dumpVerificationConfig(parseVerificationConfig({ ...minimal, answering_models: [manual] }));
    expect((dump.answering_models as Record<string, unknown>[])[0]).not.toHaveProperty("manual_traces");
  });
});
