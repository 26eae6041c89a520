import { countIn, entryOf, mapEntryOf, median, populationStd, recordOf } from "./statistics.js";
import type {
  ComboTokens,
  CostSummary,
  PriceLookup,
  TokenCounts,
  TokenGroup,
  TokenPrice,
  TokenSummary,
} from "./summary-types.js";
import type { StageUsage, VerificationResult } from "./verification-result.js";

// The token and cost sections of the summary, counted row by row. What a row leaves behind is its per-row
// token counts in a few number lists (the medians and stds need every value) and sums; never the row.

const TEMPLATE_STAGES = new Set(["answer_generation", "parsing"]);
const RUBRIC_STAGES = new Set(["rubric_evaluation", "dynamic_rubric_presence_check"]);
const isDeepJudgmentStage = (stage: string) => stage.startsWith("deep_judgment");

const zeroTokens = (): TokenCounts => ({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });

function addTokens(target: TokenCounts, usage: TokenCounts): void {
  target.input_tokens += usage.input_tokens;
  target.output_tokens += usage.output_tokens;
  target.total_tokens += usage.total_tokens;
}

/** Per-row input and output counts of a group of rows, in row order. */
class CountLists {
  readonly inputs: number[] = [];
  readonly outputs: number[] = [];

  push(input: number, output: number): void {
    this.inputs.push(input);
    this.outputs.push(output);
  }
}

/** Sums, medians and population stds of per-row input and output counts. */
function spread(lists: { readonly inputs: readonly number[]; readonly outputs: readonly number[] }) {
  return {
    input: sumOf(lists.inputs),
    input_median: median(lists.inputs),
    input_std: populationStd(lists.inputs),
    output: sumOf(lists.outputs),
    output_median: median(lists.outputs),
    output_std: populationStd(lists.outputs),
  };
}

function sumOf(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** A group's summed totals (`total_tokens` included) and its per-row totals. */
class TokenTotals extends CountLists {
  readonly sums = zeroTokens();

  add(input: number, output: number, total: number): void {
    this.sums.input_tokens += input;
    this.sums.output_tokens += output;
    this.sums.total_tokens += total;
    this.push(input, output);
  }
}

function comboTokens(group: TokenTotals): ComboTokens {
  const { input, output, ...stats } = spread(group);
  return { input, output, total: input + output, num_results: group.inputs.length, ...stats };
}

function tokenGroup(group: TokenTotals): TokenGroup {
  const stats = spread(group);
  return {
    ...group.sums,
    num_results: group.inputs.length,
    input_median: stats.input_median,
    input_std: stats.input_std,
    output_median: stats.output_median,
    output_std: stats.output_std,
  };
}

/**
 * The `tokens`, `tokens_by_combo` and `cost` sections, row by row. A row counts when it carries
 * `usage_metadata`; its `total` entry is its totals (else the sum of its stages) and is not a stage.
 */
export class TokenAccumulator {
  private readonly total = new TokenTotals();
  private readonly byStage = new Map<string, TokenCounts>();
  private readonly template = new CountLists();
  private readonly rubricInputs: number[] = [];
  private readonly rubricOutputs: number[] = [];
  private readonly judgmentInputs: number[] = [];
  private readonly judgmentOutputs: number[] = [];
  private readonly byQuestion = new Map<string, TokenTotals>();
  private readonly byCombo = new Map<string, TokenTotals>();
  private readonly cost: CostAccumulator | null;

  constructor(prices: PriceLookup | undefined) {
    this.cost = prices === undefined ? null : new CostAccumulator(prices);
  }

  add(result: VerificationResult, combo: string): void {
    const usage = result.template?.usage_metadata;
    if (usage === null || usage === undefined) return;
    let input = 0;
    let output = 0;
    let total = 0;
    let templateInput = 0;
    let templateOutput = 0;
    let rubricInput = 0;
    let rubricOutput = 0;
    let judgmentInput = 0;
    let judgmentOutput = 0;
    for (const stage of Object.keys(usage)) {
      if (stage === "total") continue;
      const counts = usage[stage] as StageUsage;
      input += counts.input_tokens;
      output += counts.output_tokens;
      total += counts.total_tokens;
      addTokens(mapEntryOf(this.byStage, stage, zeroTokens), counts);
      if (TEMPLATE_STAGES.has(stage)) {
        templateInput += counts.input_tokens;
        templateOutput += counts.output_tokens;
      }
      if (RUBRIC_STAGES.has(stage)) {
        rubricInput += counts.input_tokens;
        rubricOutput += counts.output_tokens;
      }
      if (isDeepJudgmentStage(stage)) {
        judgmentInput += counts.input_tokens;
        judgmentOutput += counts.output_tokens;
      }
    }
    const totals = usage.total;
    if (totals !== undefined) {
      input = totals.input_tokens;
      output = totals.output_tokens;
      total = totals.total_tokens;
    }
    this.total.add(input, output, total);
    mapEntryOf(this.byQuestion, result.metadata.question_id, newTokenTotals).add(input, output, total);
    mapEntryOf(this.byCombo, combo, newTokenTotals).add(input, output, total);
    if (templateInput > 0 || templateOutput > 0) this.template.push(templateInput, templateOutput);
    if (rubricInput > 0) this.rubricInputs.push(rubricInput);
    if (rubricOutput > 0) this.rubricOutputs.push(rubricOutput);
    if (judgmentInput > 0) this.judgmentInputs.push(judgmentInput);
    if (judgmentOutput > 0) this.judgmentOutputs.push(judgmentOutput);
    this.cost?.add(result, combo, usage);
  }

  /** The `tokens` section; the `deep_judgment_*` figures are null unless `withJudgment`. */
  tokens(withJudgment: boolean): TokenSummary {
    const total = spread(this.total);
    const template = spread(this.template);
    const rubric = spread({ inputs: this.rubricInputs, outputs: this.rubricOutputs });
    const judgment = spread({ inputs: this.judgmentInputs, outputs: this.judgmentOutputs });
    const judged = (value: number) => (withJudgment ? value : null);
    return {
      total_input: total.input,
      total_input_std: total.input_std,
      total_output: total.output,
      total_output_std: total.output_std,
      template_input: template.input,
      template_input_std: template.input_std,
      template_output: template.output,
      template_output_std: template.output_std,
      rubric_input: rubric.input,
      rubric_input_std: rubric.input_std,
      rubric_output: rubric.output,
      rubric_output_std: rubric.output_std,
      deep_judgment_input: judged(judgment.input),
      deep_judgment_input_std: judged(judgment.input_std),
      deep_judgment_output: judged(judgment.output),
      deep_judgment_output_std: judged(judgment.output_std),
      median_per_question_input: total.input_median,
      median_per_question_input_std: total.input_std,
      median_per_question_output: total.output_median,
      median_per_question_output_std: total.output_std,
      total_tokens: this.total.sums.total_tokens,
      total_input_median: total.input_median,
      total_output_median: total.output_median,
      template_input_median: template.input_median,
      template_output_median: template.output_median,
      rubric_input_median: rubric.input_median,
      rubric_output_median: rubric.output_median,
      deep_judgment_input_median: judged(judgment.input_median),
      deep_judgment_output_median: judged(judgment.output_median),
      num_results_with_usage: this.total.inputs.length,
      by_stage: recordOf(this.byStage, (counts) => ({ ...counts })),
      by_question: recordOf(this.byQuestion, tokenGroup),
    };
  }

  tokensByCombo(): Record<string, ComboTokens> {
    return recordOf(this.byCombo, comboTokens);
  }

  /** The `cost` section; null when no price lookup was given. */
  costSummary(): CostSummary | null {
    return this.cost?.finish() ?? null;
  }
}

/** The model a stage's tokens are priced as. */
function stageModel(result: VerificationResult, stage: string, usage: StageUsage): string {
  if (typeof usage.model === "string" && usage.model !== "") return usage.model;
  return stage === "answer_generation"
    ? result.metadata.answering.model_name
    : result.metadata.parsing.model_name;
}

/** The `cost` section row by row: each stage priced by its recorded model, summed in row order. */
class CostAccumulator {
  private readonly cost: CostSummary = {
    total_usd: 0,
    input_usd: 0,
    output_usd: 0,
    by_stage: {},
    by_combo: {},
    by_model: {},
    unpriced_models: [],
    unpriced_tokens: 0,
  };
  private readonly byStage = new Map<string, number>();
  private readonly byCombo = new Map<string, number>();
  private readonly unpriced = new Set<string>();
  private readonly priceOf = new Map<string, TokenPrice | undefined>();

  constructor(private readonly prices: PriceLookup) {}

  /** Prices the stages of `usages` (its `total` entry is not a stage). */
  add(result: VerificationResult, combo: string, usages: Readonly<Record<string, StageUsage>>): void {
    const cost = this.cost;
    for (const stage of Object.keys(usages)) {
      if (stage === "total") continue;
      const usage = usages[stage] as StageUsage;
      const model = stageModel(result, stage, usage);
      if (!this.priceOf.has(model)) this.priceOf.set(model, this.prices(model));
      const price = this.priceOf.get(model);
      const entry = entryOf(cost.by_model, model, () => ({
        ...zeroTokens(),
        cost_usd: price === undefined ? null : 0,
      }));
      addTokens(entry, usage);
      if (price === undefined) {
        if (usage.total_tokens > 0 || usage.input_tokens + usage.output_tokens > 0) {
          this.unpriced.add(model);
          cost.unpriced_tokens += usage.total_tokens;
        }
        continue;
      }
      const input = (usage.input_tokens * price.input_per_million) / 1e6;
      const output = (usage.output_tokens * price.output_per_million) / 1e6;
      cost.input_usd += input;
      cost.output_usd += output;
      cost.total_usd += input + output;
      entry.cost_usd = (entry.cost_usd ?? 0) + input + output;
      countIn(this.byStage, stage, input + output);
      countIn(this.byCombo, combo, input + output);
    }
  }

  finish(): CostSummary {
    const { cost } = this;
    return {
      ...cost,
      by_stage: recordOf(this.byStage),
      by_combo: recordOf(this.byCombo),
      by_model: recordOf(new Map(Object.entries(cost.by_model)), (entry) => ({ ...entry })),
      unpriced_models: [...this.unpriced].sort(),
    };
  }
}

const newTokenTotals = () => new TokenTotals();
