import { LlmAbortedError, type StructuredSchema } from "../../llm/index.js";
import type { ModelConfig } from "../config/index.js";
import type { VerificationContext } from "../context.js";
import { assemblePrompt, type PromptTask, promptMessages } from "../prompts/index.js";

/** The usage bucket of every rubric judge call (spec 04 §5.11 step 5). */
export const RUBRIC_USAGE_STAGE = "rubric_evaluation";

/** A judge prompt before assembly: the task's own text and what the adapter may be told about the reply. */
export interface JudgeRequest {
  readonly task: PromptTask;
  readonly system: string;
  readonly user: string;
  /** JSON Schema of the reply: asked for as structured output. */
  readonly schema: Record<string, unknown>;
  /** A reply of the expected shape, for the adapter's format hint. */
  readonly example?: unknown;
  /** Notes the deep-judgment adapter additions list before the reply trailer. */
  readonly notes?: readonly string[];
}

/**
 * The judge model of a task, as rubric evaluation sees it: one structured call, and whether the run was
 * cancelled. Every call goes through the task's {@link VerificationContext.calls} (scheduler, retries, cache)
 * and records its usage there.
 */
export interface RubricJudge {
  /**
   * Sends a prompt (tri-section assembled: task text, adapter additions, user instructions) and returns the
   * reply object. Any JSON object is accepted: the reply parsers of `rubrics/` read it tolerantly.
   * @throws the call's error after retries (`LlmCallError`, `ParseError` when no JSON object came back, ...).
   */
  call(request: JudgeRequest): Promise<Record<string, unknown>>;
  /** The same prompt as a plain call (no structured output): the reply's text. */
  text(request: JudgeRequest): Promise<string>;
  /** True once the run was cancelled: evaluation errors then propagate instead of being recorded. */
  readonly aborted: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A structured-output schema that accepts any JSON object. The JSON Schema still goes to the provider; the
 * lenient reading (missing traits, strings for numbers, unknown names) is left to the reply parsers.
 */
export function anyObjectSchema(
  name: string,
  jsonSchema: Record<string, unknown>,
): StructuredSchema<Record<string, unknown>> {
  return {
    name,
    jsonSchema,
    validate: (value) =>
      isRecord(value) ? { success: true, value } : { success: false, error: "expected a JSON object" },
  };
}

/** Options of {@link createRubricJudge}. */
export interface RubricJudgeOptions {
  /** Default: the task's parsing model. */
  readonly model?: ModelConfig;
  /** Default {@link RUBRIC_USAGE_STAGE}. */
  readonly usageStage?: string;
}

/** The rubric judge of a task: its parsing model, unless another model is given. */
export function createRubricJudge(ctx: VerificationContext, options: RubricJudgeOptions = {}): RubricJudge {
  const model = options.model ?? ctx.task.parsing;
  const stage = options.usageStage ?? RUBRIC_USAGE_STAGE;
  const messages = (request: JudgeRequest) =>
    promptMessages(
      assemblePrompt(
        request.task,
        { system: request.system, user: request.user },
        { interface: model.interface, promptConfig: ctx.config.prompt_config },
        {
          jsonSchema: request.schema,
          ...(request.example === undefined ? {} : { example: request.example }),
          ...(request.notes === undefined ? {} : { parsingNotes: request.notes }),
        },
      ),
    );
  return {
    get aborted() {
      return ctx.aborted;
    },
    async call(request) {
      const schema = anyObjectSchema(request.task, request.schema);
      const result = await ctx.calls.parse({ stage, model, messages: messages(request), schema });
      return result.parsed;
    },
    async text(request) {
      const response = await ctx.calls.invoke({ stage, model, messages: messages(request) });
      return response.content;
    },
  };
}

/** Whether an error must end the evaluation rather than be recorded against one trait: the run was cancelled. */
export function isCancellation(judge: RubricJudge, error: unknown): boolean {
  return judge.aborted || error instanceof LlmAbortedError;
}

/** The message of an error, for warnings and per-trait failure records. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
