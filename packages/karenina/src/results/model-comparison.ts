/**
 * The original's model comparison (spec 07 §2.2 "Compare details"): per-model summaries, a question × model ×
 * replicate heatmap and per-question token statistics, for up to a few answering models (each with its MCP
 * server set) judged by one parsing model. Fed rows a page at a time (digests will do, see
 * {@link ModelComparisonBuilder.keptRows}), so a caller never holds a whole run.
 */
import { z } from "zod";
import { KareninaError } from "../errors/index.js";
import { setOwn } from "../plain-data/index.js";
import { answeringMcpServers } from "./model-combo-key.js";
import { displayString } from "./model-identity.js";
import { median, populationStd, recordOf } from "./statistics.js";
import { createSummaryAccumulator, type ResultSummary, type SummaryAccumulator } from "./summary.js";
import type { VerificationResult } from "./verification-result.js";

/** Whether a string is a JSON array of strings (an MCP server list as the original's GUI sends it). */
function isServerList(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((name) => typeof name === "string");
  } catch {
    return false;
  }
}

/** A model to compare: the answering model's `model_name`, its interface, and its MCP servers (a JSON array string). */
export const ComparedModelSchema = z.object({
  answering_model: z.string().min(1).describe("The answering model's model_name"),
  interface: z.string().min(1).default("langchain"),
  mcp_config: z
    .string()
    .default("[]")
    .refine(isServerList, "expected a JSON array of MCP server names, e.g. '[\"files\"]'")
    .describe('The MCP server names attached to the model, as a JSON array string ("[]" for none)'),
});
export type ComparedModel = z.output<typeof ComparedModelSchema>;

/** What to compare: the models (at least one), and optionally one judge and one replicate. */
export const ModelComparisonOptionsSchema = z.object({
  models: z.array(ComparedModelSchema).min(1),
  parsing_model: z
    .string()
    .min(1)
    .optional()
    .describe('Only rows judged by this parsing model, as its display string ("openai_endpoint:judge")'),
  replicate: z
    .int()
    .min(1)
    .optional()
    .describe("Only this replicate (a row of a question that ran once counts as replicate 1)"),
});
export type ModelComparisonOptions = z.input<typeof ModelComparisonOptionsSchema>;

const scoreMap = z.record(z.string(), z.unknown());

/** One heatmap cell: one row of a (question, model, replicate). */
export const HeatmapCellSchema = z.object({
  result_id: z.string().describe("The shown row's metadata.result_id (to open its detail)"),
  replicate: z.int().nullable(),
  passed: z.boolean().nullable().describe("verify_result (null: not evaluated)"),
  abstained: z.boolean().describe("abstention_detected"),
  insufficient: z.boolean().describe("sufficiency_detected === false"),
  error: z.boolean().describe("The row has a failure"),
  execution_type: z
    .enum(["Agent", "Standard"])
    .describe("Agent when the answer came from a tool-calling loop (agent_metrics.tool_calls present)"),
  input_tokens: z.int().describe("usage_metadata.total.input_tokens, 0 when absent"),
  output_tokens: z.int().describe("usage_metadata.total.output_tokens, 0 when absent"),
  iterations: z.number().describe("The agent's iterations; 0 for a standard answer"),
  rubric_scores: z
    .object({ llm: scoreMap.optional(), regex: scoreMap.optional(), callable: scoreMap.optional() })
    .optional()
    .describe("The non-empty score maps of the LLM, regex and callable traits"),
});
export type HeatmapCell = z.output<typeof HeatmapCellSchema>;

/** One heatmap row: a question and, per model display string, its cells by replicate. */
export const HeatmapQuestionSchema = z.object({
  question_id: z.string(),
  question_text: z.string(),
  keywords: z.array(z.string()),
  results_by_model: z.record(z.string(), z.object({ replicates: z.array(HeatmapCellSchema) })),
});
export type HeatmapQuestion = z.output<typeof HeatmapQuestionSchema>;

/** A model's token statistics on one question, over its rows (zero counts left out). */
export const QuestionTokenModelSchema = z.object({
  model_key: z.string(),
  model_display_name: z.string(),
  input_tokens_median: z.number(),
  input_tokens_std: z.number(),
  output_tokens_median: z.number(),
  output_tokens_std: z.number(),
});
export type QuestionTokenModel = z.output<typeof QuestionTokenModelSchema>;

/** Per question (text cut to 50 characters + "..."), the models that used tokens on it. */
export const QuestionTokenDataSchema = z.object({
  question_id: z.string(),
  question_text: z.string(),
  models: z.array(QuestionTokenModelSchema),
});
export type QuestionTokenData = z.output<typeof QuestionTokenDataSchema>;

/** The comparison (spec 07 §2.2 response, without `success`); summaries are `ResultSummary` (spec 06 §3.1). */
export const ModelComparisonSchema = z.object({
  model_summaries: z.record(z.string(), z.unknown()).describe("Model display string → ResultSummary"),
  heatmap_data: z.array(HeatmapQuestionSchema),
  question_token_data: z.array(QuestionTokenDataSchema),
});
export interface ModelComparison extends z.output<typeof ModelComparisonSchema> {
  model_summaries: Record<string, ResultSummary>;
}

/** Why a comparison has nothing to show: no row passed the filters, or none belongs to the models. */
export class ModelComparisonError extends KareninaError {
  override readonly name: string = "ModelComparisonError";

  constructor(
    readonly reason: "no_results" | "no_results_for_models",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The display string of a compared model (the key of its summary and heatmap column):
 * `interface:model_name`, then ` +[s1, s2]` with its MCP servers sorted.
 * @example
 * comparedModelDisplay({ answering_model: "gpt-4.1", interface: "openai", mcp_config: '["search", "files"]' });
 * // "openai:gpt-4.1 +[files, search]"
 */
export function comparedModelDisplay(model: ComparedModel): string {
  return displayString({
    interface: model.interface,
    model_name: model.answering_model,
    tools: serversOf(model),
    config_id: null,
  });
}

function serversOf(model: ComparedModel): string[] {
  return [...new Set(JSON.parse(model.mcp_config) as string[])].sort();
}

/** The key a row and a compared model share when they match: interface, model name, sorted MCP servers. */
const matchKey = (modelInterface: string, modelName: string, servers: readonly string[]) =>
  JSON.stringify([modelInterface, modelName, [...new Set(servers)].sort()]);

/** Question text for the token chart: at most 50 characters (code points, as Python counts), then "...". */
function shortText(text: string): string {
  const chars = Array.from(text);
  return chars.length > 50 ? `${chars.slice(0, 50).join("")}...` : text;
}

/** A token count as the original reads it: an integer, 0 when missing or not a number. */
const tokenCount = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : 0;

function cellOf(row: VerificationResult): HeatmapCell {
  const { template, rubric, metadata } = row;
  const total = template?.usage_metadata?.total;
  const agent = template?.agent_metrics?.tool_calls !== undefined;
  const cell: HeatmapCell = {
    result_id: metadata.result_id,
    replicate: metadata.replicate,
    passed: template?.verify_result ?? null,
    abstained: template?.abstention_detected === true,
    insufficient: template?.sufficiency_detected === false,
    error: metadata.failure !== null,
    execution_type: agent ? "Agent" : "Standard",
    input_tokens: tokenCount(total?.input_tokens),
    output_tokens: tokenCount(total?.output_tokens),
    iterations: agent ? tokenCount(template?.agent_metrics?.iterations) : 0,
  };
  const scores: NonNullable<HeatmapCell["rubric_scores"]> = {};
  const nonEmpty = (map: Record<string, unknown> | null | undefined) =>
    map !== null && map !== undefined && Object.keys(map).length > 0;
  if (nonEmpty(rubric?.llm_trait_scores)) scores.llm = rubric?.llm_trait_scores ?? {};
  if (nonEmpty(rubric?.regex_trait_scores)) scores.regex = rubric?.regex_trait_scores ?? {};
  if (nonEmpty(rubric?.callable_trait_scores)) scores.callable = rubric?.callable_trait_scores ?? {};
  if (Object.keys(scores).length > 0) cell.rubric_scores = scores;
  return cell;
}

/** What a model gathers: its summary, and per question its chosen row per replicate and its token counts. */
interface ModelState {
  readonly display: string;
  readonly summary: SummaryAccumulator;
  /** question id → replicate (null as 0) → the row shown. */
  readonly cells: Map<string, Map<number, VerificationResult>>;
  /** question id → the positive input and output counts of every row. */
  readonly tokens: Map<string, { input: number[]; output: number[] }>;
}

/**
 * Whether `candidate` replaces `shown` as the row of its cell: a failing row beats a passing one, then the
 * newer `timestamp` wins; on equal footing the row seen first stays (as Python's `max`).
 */
function replaces(candidate: VerificationResult, shown: VerificationResult): boolean {
  const failing = (row: VerificationResult) => row.metadata.failure !== null;
  if (failing(candidate) !== failing(shown)) return failing(candidate);
  return candidate.metadata.timestamp > shown.metadata.timestamp;
}

/**
 * Gathers a model comparison from rows given a page at a time (see {@link compareModels} for the rules).
 * Digests (`resultDigest`) carry every field but `abstention_detected` and `sufficiency_detected`: a caller
 * feeding digests hands the full rows of {@link keptRows} to {@link useFullRows} before {@link finish}.
 */
export class ModelComparisonBuilder {
  readonly #options: z.output<typeof ModelComparisonOptionsSchema>;
  readonly #models = new Map<string, ModelState>();
  readonly #questions = new Map<string, { text: string; keywords: string[] }>();
  #validRows = 0;

  /** @throws ZodError when the options do not parse (no models, an MCP config that is not a JSON list). */
  constructor(options: ModelComparisonOptions) {
    this.#options = ModelComparisonOptionsSchema.parse(options);
    for (const model of this.#options.models) {
      const key = matchKey(model.interface, model.answering_model, serversOf(model));
      if (this.#models.has(key)) continue;
      this.#models.set(key, {
        display: comparedModelDisplay(model),
        summary: createSummaryAccumulator(),
        cells: new Map(),
        tokens: new Map(),
      });
    }
  }

  #passesFilters(row: VerificationResult): boolean {
    const { parsing_model: judge, replicate } = this.#options;
    if (judge !== undefined && displayString(row.metadata.parsing) !== judge) return false;
    return replicate === undefined || (row.metadata.replicate ?? 1) === replicate;
  }

  /** Adds rows (full rows or digests). */
  add(rows: Iterable<VerificationResult>): void {
    const byModel = new Map<ModelState, VerificationResult[]>();
    for (const row of rows) {
      if (!this.#passesFilters(row)) continue;
      this.#validRows++;
      const { metadata } = row;
      if (!this.#questions.has(metadata.question_id))
        this.#questions.set(metadata.question_id, {
          text: metadata.question_text,
          keywords: metadata.keywords ?? [],
        });
      const key = matchKey(
        metadata.answering.interface,
        metadata.answering.model_name,
        answeringMcpServers(row),
      );
      const model = this.#models.get(key);
      if (model === undefined) continue;
      const batch = byModel.get(model);
      if (batch === undefined) byModel.set(model, [row]);
      else batch.push(row);
      this.#addToModel(model, row);
    }
    for (const [model, batch] of byModel) model.summary.add(batch);
  }

  #addToModel(model: ModelState, row: VerificationResult): void {
    const { question_id: questionId, replicate } = row.metadata;
    const cells = model.cells.get(questionId) ?? new Map<number, VerificationResult>();
    model.cells.set(questionId, cells);
    const slot = replicate ?? 0;
    const shown = cells.get(slot);
    if (shown === undefined || replaces(row, shown)) cells.set(slot, row);
    const tokens = model.tokens.get(questionId) ?? { input: [], output: [] };
    model.tokens.set(questionId, tokens);
    const total = row.template?.usage_metadata?.total;
    const input = tokenCount(total?.input_tokens);
    const output = tokenCount(total?.output_tokens);
    if (input > 0) tokens.input.push(input);
    if (output > 0) tokens.output.push(output);
  }

  /** The rows the heatmap shows (one per question, model and replicate), as they were added. */
  keptRows(): VerificationResult[] {
    const rows: VerificationResult[] = [];
    for (const model of this.#models.values())
      for (const cells of model.cells.values()) rows.push(...cells.values());
    return rows;
  }

  /**
   * Puts full rows in place of the kept rows with the same `result_id` and `timestamp` (the heatmap reads
   * `abstention_detected` and `sufficiency_detected`, which digests lack). Other rows are ignored.
   */
  useFullRows(rows: Iterable<VerificationResult>): void {
    const full = new Map<string, VerificationResult>();
    for (const row of rows) full.set(JSON.stringify([row.metadata.result_id, row.metadata.timestamp]), row);
    for (const model of this.#models.values())
      for (const cells of model.cells.values())
        for (const [slot, shown] of cells) {
          const replacement = full.get(JSON.stringify([shown.metadata.result_id, shown.metadata.timestamp]));
          if (replacement !== undefined) cells.set(slot, replacement);
        }
  }

  /**
   * The comparison.
   * @throws ModelComparisonError `no_results` when no row passed the filters, `no_results_for_models` when none
   *   belongs to a compared model
   */
  finish(): ModelComparison {
    if (this.#validRows === 0) {
      const { parsing_model: judge, replicate } = this.#options;
      const filters = [
        ...(judge === undefined ? [] : [`parsing model ${JSON.stringify(judge)}`]),
        ...(replicate === undefined ? [] : [`replicate ${replicate}`]),
      ];
      throw new ModelComparisonError(
        "no_results",
        `no results to compare${filters.length === 0 ? "" : ` with ${filters.join(" and ")}`}; check the references and filters`,
      );
    }
    const present = [...this.#models.values()].filter((model) => model.cells.size > 0);
    if (present.length === 0)
      throw new ModelComparisonError(
        "no_results_for_models",
        `no results for the models ${[...this.#models.values()].map((m) => JSON.stringify(m.display)).join(", ")}; ` +
          "name an answering model_name, interface and MCP servers found in the results",
      );
    return {
      model_summaries: recordOf(new Map(present.map((model) => [model.display, model.summary.finish()]))),
      heatmap_data: this.#heatmap(present),
      question_token_data: this.#tokenData(present),
    };
  }

  #heatmap(models: readonly ModelState[]): HeatmapQuestion[] {
    return [...this.#questions].map(([questionId, question]) => {
      const byModel: HeatmapQuestion["results_by_model"] = {};
      for (const model of models) {
        const cells = model.cells.get(questionId);
        const replicates =
          cells === undefined ? [] : [...cells].sort(([a], [b]) => a - b).map(([, row]) => cellOf(row));
        setOwn(byModel, model.display, { replicates });
      }
      return {
        question_id: questionId,
        question_text: question.text,
        keywords: question.keywords,
        results_by_model: byModel,
      };
    });
  }

  #tokenData(models: readonly ModelState[]): QuestionTokenData[] {
    const out: QuestionTokenData[] = [];
    for (const [questionId, question] of this.#questions) {
      const entries: QuestionTokenModel[] = [];
      for (const model of models) {
        const tokens = model.tokens.get(questionId) ?? { input: [], output: [] };
        const stats = {
          input_tokens_median: median(tokens.input),
          input_tokens_std: populationStd(tokens.input),
          output_tokens_median: median(tokens.output),
          output_tokens_std: populationStd(tokens.output),
        };
        if (stats.input_tokens_median > 0 || stats.output_tokens_median > 0)
          entries.push({ model_key: model.display, model_display_name: model.display, ...stats });
      }
      if (entries.length > 0)
        out.push({ question_id: questionId, question_text: shortText(question.text), models: entries });
    }
    return out;
  }
}

/**
 * Compares answering models on `rows` (spec 07 §2.2 "Compare details", with its fixes):
 * - rows are kept when judged by `parsing_model` (its display string) and of `replicate` (when given; a row of
 *   a question run once is replicate 1);
 * - a model matches rows with its `model_name`, `interface` and the same sorted MCP server set; its key is
 *   {@link comparedModelDisplay}; models without rows are left out;
 * - `model_summaries`: `summarizeResults` of each model's rows (every replicate);
 * - `heatmap_data`: every question of the kept rows (first seen text and keywords, in order of appearance), and
 *   per model one cell per replicate (ascending): the newest failing row if any, else the newest;
 * - `question_token_data`: per question and model, median and population standard deviation of the `total`
 *   input and output tokens over its rows, zero counts ignored; a model with both medians 0 is left out, a
 *   question without models too. The heatmap has no `score` (the original's was always null).
 * @throws ModelComparisonError when no row passes the filters or none belongs to the models
 */
export function compareModels(
  rows: Iterable<VerificationResult>,
  options: ModelComparisonOptions,
): ModelComparison {
  const builder = new ModelComparisonBuilder(options);
  builder.add(rows);
  return builder.finish();
}
