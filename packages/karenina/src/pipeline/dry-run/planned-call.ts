import type { Message } from "../../llm/index.js";
import type { ModelConfig, VerificationConfig } from "../config/index.js";
import { assemblePrompt, type PromptTask, promptMessages } from "../prompts/index.js";
import { type CallKind, type DryRunStage, type OutputTokenHistory, outputTokensFor } from "./call-kinds.js";
import type { Placeholders, TokenCounter } from "./token-counter.js";

/** One model call a task would make, priced in tokens. */
export interface PlannedCall {
  stage: DryRunStage;
  kind: CallKind;
  /** Who receives it: the task's answering or parsing (judge) model, or the run's embedding model. */
  target: "answering" | "parsing" | "embedding";
  /** A judge other than the task's parsing model (an agentic trait's `model_override`). */
  model?: ModelConfig;
  inputTokens: number;
  outputTokens: number;
  /** The chance the call is made (default 1): an escalation of dynamic agentic parsing counts as `p` of a call. */
  weight?: number;
}

/** Marks where a prompt holds the answer the answering model would give; counted as the estimated answer length. */
export const ANSWER_MARKER = "⟦answer⟧";
/** Marks a deep-judgment excerpt quoted from the answer. */
export const EXCERPT_MARKER = "⟦excerpt⟧";
/** Marks the search results of one excerpt. */
export const SEARCH_MARKER = "⟦search results⟧";
/** Marks a deep-judgment reasoning text. */
export const REASONING_MARKER = "⟦reasoning⟧";
/** Marks the answering trace shown to an agentic judge; counted as the estimated trace length. */
export const TRACE_MARKER = "⟦trace⟧";
/** Marks an agentic investigation's report in its extraction prompt; counted as the estimated report length. */
export const REPORT_MARKER = "⟦report⟧";

/** Excerpts assumed per deep-judgment attribute or trait (fewer when the configured maximum is lower). */
export const ASSUMED_EXCERPTS = 2;
/** Tokens assumed per excerpt. */
export const ASSUMED_EXCERPT_TOKENS = 25;
/** Tokens assumed for the search results of one excerpt (a few results of a web search). */
export const ASSUMED_SEARCH_TOKENS = 300;

/** A judge request before assembly, as the rubric and deep-judgment request builders give it. */
export interface JudgeRequestText {
  task: PromptTask;
  system: string;
  user: string;
  schema?: Record<string, unknown>;
  example?: unknown;
  notes?: readonly string[];
}

/** Builds the planned calls of one task's judge: counts prompts and looks up reply lengths. */
export class CallPlanner {
  constructor(
    readonly config: VerificationConfig,
    /** The judge's `interface`: it decides the adapter's prompt additions. */
    readonly judgeInterface: string,
    private readonly counter: TokenCounter,
    private readonly history: OutputTokenHistory | undefined,
  ) {}

  /** The prompt settings of the judge. */
  get settings(): { interface: string; promptConfig: VerificationConfig["prompt_config"] } {
    return { interface: this.judgeInterface, promptConfig: this.config.prompt_config };
  }

  /** The estimated reply length of a call of `kind` about `items` items. */
  output(kind: CallKind, items = 0): number {
    return outputTokensFor(kind, items, this.history);
  }

  /** The estimated answer length, which the answer placeholder stands for. */
  get answerTokens(): number {
    return this.output("answer_generation");
  }

  /** The input tokens of a call with these messages, the placeholders in them counted at their estimated lengths. */
  tokens(messages: readonly Message[], placeholders: Placeholders = {}): number {
    return this.counter.messages(messages, {
      [ANSWER_MARKER]: this.answerTokens,
      [EXCERPT_MARKER]: ASSUMED_EXCERPT_TOKENS,
      [SEARCH_MARKER]: ASSUMED_SEARCH_TOKENS,
      ...placeholders,
    });
  }

  /** The tokens of a plain text (a tool definition). */
  textTokens(text: string): number {
    return this.counter.text(text);
  }

  /** A judge call with these messages, the placeholders in them counted at their estimated lengths. */
  call(
    stage: DryRunStage,
    kind: CallKind,
    messages: readonly Message[],
    items = 0,
    placeholders: Placeholders = {},
  ): PlannedCall {
    return {
      stage,
      kind,
      target: "parsing",
      inputTokens: this.tokens(messages, placeholders),
      outputTokens: this.output(kind, items),
    };
  }

  /** A rubric or deep-judgment judge call, its request assembled as the rubric judge assembles it. */
  judgeCall(
    stage: DryRunStage,
    kind: CallKind,
    request: JudgeRequestText,
    items = 0,
    placeholders: Placeholders = {},
  ): PlannedCall {
    const prompt = assemblePrompt(
      request.task,
      { system: request.system, user: request.user },
      this.settings,
      {
        ...(request.schema === undefined ? {} : { jsonSchema: request.schema }),
        ...(request.example === undefined ? {} : { example: request.example }),
        ...(request.notes === undefined ? {} : { parsingNotes: request.notes }),
      },
    );
    return this.call(stage, kind, promptMessages(prompt), items, placeholders);
  }

  /** An embedding request of these texts: input tokens only. */
  embedding(texts: readonly string[]): PlannedCall {
    return {
      stage: "embedding",
      kind: "embedding",
      target: "embedding",
      inputTokens: texts.reduce((sum, text) => sum + this.counter.text(text), 0),
      outputTokens: 0,
    };
  }
}
