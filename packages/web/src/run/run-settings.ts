import type { AgentMiddlewareConfig } from "../library-types/index.js";
import { defineSlice } from "../session/index.js";

/** The answering prompt every new answering model starts with (the library's default, spec 04 §2 step 2). */
export const DEFAULT_ANSWERING_PROMPT =
  "You are an expert assistant. Answer the question accurately and concisely.";
/** The judge prompt suggestion new parsing models start with (spec 07 §1.5). */
export const DEFAULT_PARSING_PROMPT =
  "You are a validation assistant. Parse and validate responses against the given Pydantic template.";

export type ModelRole = "answering" | "parsing";

/** The "Common" tab of the Extra Arguments dialog; blank fields are left out of the config. */
export interface CommonArguments {
  readonly max_tokens?: number;
  readonly top_p?: number;
  readonly frequency_penalty?: number;
  readonly presence_penalty?: number;
  readonly stop?: readonly string[];
}

/** An MCP server of an answering model (HTTP only). */
export interface McpServerEntry {
  readonly name: string;
  readonly url: string;
}

/** One model card as the user set it. */
export interface ModelCard {
  /** A local key (React lists, removal); not sent. */
  readonly key: string;
  readonly interface: string;
  readonly provider: string;
  readonly modelName: string;
  readonly endpointBaseUrl: string;
  readonly endpointApiKey: string;
  readonly temperature: number;
  readonly systemPrompt: string;
  readonly common: CommonArguments;
  /** The JSON tab of Extra Arguments: a free object. */
  readonly extraJson: Readonly<Record<string, unknown>>;
  /** Agent middleware (answering models of an agent interface, or with MCP); null: the library's defaults. */
  readonly agentMiddleware: AgentMiddlewareConfig | null;
  readonly maxContextTokens: number | null;
  readonly mcpServers: readonly McpServerEntry[];
  /** The MCP tools kept (null: all of them). */
  readonly mcpTools: readonly string[] | null;
  /** Manual interface: the uploaded traces `{md5(question text): trace}` and the upload's label. */
  readonly manualTraces: Readonly<Record<string, unknown>> | null;
  readonly manualTracesLabel: string | null;
}

export type FewShotMode = "off" | "all" | "k-shot" | "custom";
export type RubricDeepJudgment = "disabled" | "enable_all" | "use_checkpoint";

/** The evaluation controls of spec 07 §1.5's table. */
export interface EvaluationSettings {
  readonly correctness: boolean;
  /** Rubric evaluation; with Correctness off it is "Rubric Only". */
  readonly rubric: boolean;
  readonly rubricStrategy: "batch" | "sequential";
  readonly abstention: boolean;
  readonly sufficiency: boolean;
  readonly embeddingCheck: boolean;
  readonly embeddingThreshold: number;
  readonly deepJudgment: boolean;
  readonly deepJudgmentSearch: boolean;
  readonly rubricDeepJudgment: RubricDeepJudgment;
  readonly rubricDeepJudgmentExcerpts: boolean;
  readonly fewShot: FewShotMode;
  readonly fewShotK: number;
  /** Custom few-shot: per question id, the example ids picked. */
  readonly fewShotSelections: Readonly<Record<string, readonly string[]>>;
  readonly replicates: number;
  readonly fullTraceForTemplate: boolean;
  readonly fullTraceForRubric: boolean;
}

export interface RunSettings {
  readonly answering: readonly ModelCard[];
  readonly parsing: readonly ModelCard[];
  readonly evaluation: EvaluationSettings;
  readonly runName: string;
  /** Question ids selected in Test Selection. */
  readonly selection: readonly string[];
  /** Whether the server's default model settings were applied to the untouched default cards. */
  readonly defaultsApplied: boolean;
}

export const DEFAULT_EVALUATION: EvaluationSettings = {
  correctness: true,
  rubric: false,
  rubricStrategy: "batch",
  abstention: false,
  sufficiency: false,
  embeddingCheck: false,
  embeddingThreshold: 0.85,
  deepJudgment: false,
  deepJudgmentSearch: false,
  rubricDeepJudgment: "disabled",
  rubricDeepJudgmentExcerpts: true,
  fewShot: "off",
  fewShotK: 3,
  fewShotSelections: {},
  replicates: 1,
  fullTraceForTemplate: false,
  fullTraceForRubric: true,
};

let keyCounter = 0;
/** A fresh local key for a card. */
export function newCardKey(): string {
  keyCounter += 1;
  return `m${Date.now().toString(36)}${keyCounter}`;
}

/** The card a new model starts as: anthropic `claude-haiku-4-5`, 0.1, langchain, the role's prompt. */
export function defaultModelCard(role: ModelRole, key = newCardKey()): ModelCard {
  return {
    key,
    interface: "langchain",
    provider: "anthropic",
    modelName: "claude-haiku-4-5",
    endpointBaseUrl: "",
    endpointApiKey: "",
    temperature: 0.1,
    systemPrompt: role === "answering" ? DEFAULT_ANSWERING_PROMPT : DEFAULT_PARSING_PROMPT,
    common: {},
    extraJson: {},
    agentMiddleware: null,
    maxContextTokens: null,
    mcpServers: [],
    mcpTools: null,
    manualTraces: null,
    manualTracesLabel: null,
  };
}

export const INITIAL_RUN_SETTINGS: RunSettings = {
  answering: [defaultModelCard("answering", "answering-1")],
  parsing: [defaultModelCard("parsing", "parsing-1")],
  evaluation: DEFAULT_EVALUATION,
  runName: "",
  selection: [],
  defaultsApplied: false,
};

function isCard(value: unknown): value is ModelCard {
  if (typeof value !== "object" || value === null) return false;
  const card = value as Record<string, unknown>;
  return (
    typeof card.key === "string" &&
    typeof card.interface === "string" &&
    typeof card.modelName === "string" &&
    typeof card.temperature === "number" &&
    typeof card.systemPrompt === "string" &&
    Array.isArray(card.mcpServers)
  );
}

/** The settings of a stored value, or undefined when it is not one. */
export function parseRunSettings(stored: unknown): RunSettings | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const value = stored as Record<string, unknown>;
  const { answering, parsing, evaluation, runName, selection } = value;
  if (!Array.isArray(answering) || !answering.every(isCard) || answering.length === 0) return undefined;
  if (!Array.isArray(parsing) || !parsing.every(isCard) || parsing.length === 0) return undefined;
  if (typeof evaluation !== "object" || evaluation === null) return undefined;
  if (typeof runName !== "string" || !Array.isArray(selection)) return undefined;
  return {
    answering,
    parsing,
    evaluation: { ...DEFAULT_EVALUATION, ...(evaluation as Partial<EvaluationSettings>) },
    runName,
    selection: selection.filter((id): id is string => typeof id === "string"),
    defaultsApplied: value.defaultsApplied === true,
  };
}

/** The run screen's models, settings and selection (restored after a reload). */
export const runSettingsSlice = defineSlice<RunSettings>({
  key: "run-settings",
  version: 1,
  initial: INITIAL_RUN_SETTINGS,
  parse: parseRunSettings,
});

/** The verification job started from this page and still followed (a reload reattaches to it). */
export interface ActiveJobState {
  readonly jobId: string | null;
}

export const activeJobSlice = defineSlice<ActiveJobState>({
  key: "run-active-job",
  version: 1,
  initial: { jobId: null },
  parse: (stored) => {
    if (typeof stored !== "object" || stored === null) return undefined;
    const { jobId } = stored as Record<string, unknown>;
    return jobId === null || typeof jobId === "string" ? { jobId } : undefined;
  },
});
