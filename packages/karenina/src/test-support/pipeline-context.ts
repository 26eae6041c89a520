/**
 * Pipeline test setup: one question planned into one task under a verification config whose models
 * ("answerer" and "judge") are `openai_endpoint` models on a scripted server, a fresh `VerificationContext`
 * for it, and a run of the stages the config selects.
 *
 * The drug question and its template are hand-written test data.
 */
import {
  createRunServices,
  type PipelineQuestion,
  parseVerificationConfig,
  planTasks,
  type RunServicesOptions,
  runStages,
  stagesFor,
  type VerificationConfig,
  VerificationContext,
} from "../pipeline/index.js";
import type { VerificationResult } from "../results/index.js";
import { templateCode } from "../templates/index.js";
import type { OpenAiTestServer } from "./openai-server/index.js";

/** The ground truth of {@link DRUG_TEMPLATE}. */
export const DRUG_GROUND_TRUTH = "venetoclax";

/** A VerifiedField template: the judge names the drug, checked against {@link DRUG_GROUND_TRUTH} exactly. */
export const DRUG_TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description="The drug the response recommends", ground_truth="${DRUG_GROUND_TRUTH}", verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

/** No waiting between attempts: one retry of a connection or server error, none of a timeout or rate limit. */
export const FAST_RETRIES = {
  connection: { max_attempts: 1, backoff_min: 0, backoff_max: 0 },
  server_error: { max_attempts: 1, backoff_min: 0, backoff_max: 0 },
  timeout: { max_attempts: 0 },
  rate_limit: { max_attempts: 0 },
};

/** A base URL nothing listens on, for contexts whose stages make no call. */
export const UNREACHABLE_BASE_URL = "http://127.0.0.1:9/v1";

/** A model entry of a verification config: the `openai_endpoint` model `id` at `baseURL`. */
export function endpointModel(baseURL: string, id: string) {
  return {
    id,
    model_name: id,
    interface: "openai_endpoint",
    endpoint_base_url: baseURL,
    endpoint_api_key: "test-key",
  };
}

/** Run-level retries: one more attempt of each kind, with next to no waiting. */
export const ONE_RETRY_EACH = {
  connection: { max_attempts: 1, backoff_min: 0, backoff_max: 0.01 },
  timeout: { max_attempts: 1, backoff_min: 0, backoff_max: 0.01 },
  rate_limit: { max_attempts: 1, backoff_min: 0, backoff_max: 0.01 },
  server_error: { max_attempts: 1, backoff_min: 0, backoff_max: 0.01 },
};

/** Which `openai_endpoint` models {@link endpointConfig} lists, and what each model entry adds. */
export interface EndpointModels {
  answerers?: readonly string[];
  judges?: readonly string[];
  /** Fields over those of {@link endpointModel} for the model `id` (e.g. its system prompt). */
  modelFields?: (id: string) => Record<string, unknown>;
}

/**
 * A verification config whose answering and parsing models are `openai_endpoint` models at `baseURL` ("answerer"
 * and "judge" unless named), with {@link ONE_RETRY_EACH}; `extra` entries (a `retry_policy` too) go over it.
 */
export function endpointConfig(
  baseURL: string,
  models: EndpointModels = {},
  extra: Record<string, unknown> = {},
): VerificationConfig {
  const model = (id: string) => ({ ...endpointModel(baseURL, id), ...models.modelFields?.(id) });
  return parseVerificationConfig({
    answering_models: (models.answerers ?? ["answerer"]).map(model),
    parsing_models: (models.judges ?? ["judge"]).map(model),
    retry_policy: ONE_RETRY_EACH,
    ...extra,
  });
}

/** The drug question (ground truth and template above), with `overrides` in place of its fields. */
export function pipelineQuestion(overrides: Partial<PipelineQuestion> = {}): PipelineQuestion {
  return {
    id: "q-cll",
    text: "Which BCL-2 inhibitor is approved for chronic lymphocytic leukaemia?",
    rawAnswer: DRUG_GROUND_TRUTH,
    template: templateCode(DRUG_TEMPLATE),
    keywords: null,
    fewShotExamples: [],
    rubric: null,
    dynamicRubric: null,
    workspacePath: null,
    ...overrides,
  };
}

/** What a test context is made of. */
export interface PipelineSetup {
  /** Where the models are: a scripted server's `baseURL`, or {@link UNREACHABLE_BASE_URL}. */
  baseURL: string;
  /** Config entries over the defaults: the "answerer" and "judge" models and {@link FAST_RETRIES}. */
  config?: Record<string, unknown>;
  /** Fields over those of {@link pipelineQuestion}. */
  question?: Partial<PipelineQuestion>;
  services?: RunServicesOptions;
}

/** A context for the one task planned from the setup's question and config. */
export function pipelineContext(setup: PipelineSetup): VerificationContext {
  const config = parseVerificationConfig({
    answering_models: [endpointModel(setup.baseURL, "answerer")],
    parsing_models: [endpointModel(setup.baseURL, "judge")],
    retry_policy: FAST_RETRIES,
    ...setup.config,
  });
  const [task] = planTasks([pipelineQuestion(setup.question)], config);
  if (task === undefined) throw new Error("no task planned");
  return new VerificationContext(task, config, createRunServices(config, setup.services));
}

/** Runs the stages the context's config selects for its task, then closes its ports. */
export async function runPipeline(ctx: VerificationContext): Promise<VerificationResult> {
  try {
    return await runStages(ctx, stagesFor(ctx.config, ctx.task));
  } finally {
    await ctx.services.ports.close();
  }
}

/**
 * Contexts and runs on `server`, each call's config and question over `defaults`:
 * `contextFor(config?, question?)` builds a context; `verify(answer, config?, question?)` scripts the
 * answerer's reply `answer`, then runs the whole pipeline.
 */
export function scriptedPipeline(
  server: OpenAiTestServer,
  defaults: Pick<PipelineSetup, "config" | "question"> = {},
) {
  const contextFor = (config: Record<string, unknown> = {}, question: Partial<PipelineQuestion> = {}) =>
    pipelineContext({
      baseURL: server.baseURL,
      config: { ...defaults.config, ...config },
      question: { ...defaults.question, ...question },
    });
  const verify = async (
    answer: string,
    config: Record<string, unknown> = {},
    question: Partial<PipelineQuestion> = {},
  ) => {
    server.script({ match: { model: "answerer" }, reply: { text: answer } });
    const ctx = contextFor(config, question);
    return { ctx, result: await runPipeline(ctx) };
  };
  return { contextFor, verify };
}
