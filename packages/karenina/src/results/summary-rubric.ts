import { ownValue } from "../plain-data/index.js";
import { countIn, mapEntryOf, ratio, recordOf } from "./statistics.js";
import type {
  MetricTraitSummary,
  ResultSummary,
  RubricScoreSummary,
  TraitCounts,
  TraitSummary,
} from "./summary-types.js";
import type { VerificationResult } from "./verification-result.js";

// The rubric sections of the summary, counted row by row: per trait, counts, sums, extremes and label counts
// (what the value summaries print), never the list of values.

const TRAIT_TYPES = ["llm", "regex", "callable", "metric", "agentic"] as const;

/**
 * The score maps of each type a row scored, as the original reads them: score keys (template-kind LLM traits
 * as their `trait.field` keys), metric traits by their confusion lists (their scores when there are none).
 */
function rowTraitMaps(result: VerificationResult): readonly (Record<string, unknown> | null | undefined)[] {
  const rubric = result.rubric;
  return [
    rubric?.llm_trait_scores,
    rubric?.regex_trait_scores,
    rubric?.callable_trait_scores,
    rubric?.metric_trait_confusion_lists ?? rubric?.metric_trait_scores,
    rubric?.agentic_trait_scores,
  ];
}

/** Rows the trait counts read: a standard rubric evaluation ran, or agentic traits were scored. */
function hasRubricScores(result: VerificationResult): boolean {
  if (result.rubric?.rubric_evaluation_performed === true) return true;
  const agentic = result.rubric?.agentic_trait_scores;
  return agentic !== null && agentic !== undefined && Object.keys(agentic).length > 0;
}

/** A trait name's evaluations of one type, and the questions that scored the name. */
interface TraitTally {
  count: number;
  readonly questions: Set<string>;
  lastQuestion: string | undefined;
}

/**
 * Trait evaluations per type, as the original counts them: `count` is one per score of each row
 * (evaluations), `names` the distinct traits. A trait is global when every question with rubric scores has a
 * score for it, question-specific otherwise; so per trait name the questions that scored it are kept.
 */
export class RubricTraitCounts {
  private readonly questions = new Set<string>();
  private readonly questionsOf = new Map<string, Set<string>>();
  private readonly tallies = TRAIT_TYPES.map(() => new Map<string, TraitTally>());

  add(result: VerificationResult): void {
    if (!hasRubricScores(result)) return;
    const question = result.metadata.question_id;
    this.questions.add(question);
    const maps = rowTraitMaps(result);
    for (let index = 0; index < TRAIT_TYPES.length; index++) {
      const map = maps[index];
      if (map === null || map === undefined) continue;
      const tallies = this.tallies[index] as Map<string, TraitTally>;
      for (const name of Object.keys(map)) {
        let tally = tallies.get(name);
        if (tally === undefined) {
          tally = { count: 0, questions: this.questionsOfTrait(name), lastQuestion: undefined };
          tallies.set(name, tally);
        }
        tally.count++;
        // Rows of one question often come together (its replicates): its set is then not touched again.
        if (tally.lastQuestion !== question) {
          tally.questions.add(question);
          tally.lastQuestion = question;
        }
      }
    }
  }

  /** The questions that scored a trait of this name (of any type), shared by the types' tallies. */
  private questionsOfTrait(name: string): Set<string> {
    let questions = this.questionsOf.get(name);
    if (questions === undefined) {
      questions = new Set();
      this.questionsOf.set(name, questions);
    }
    return questions;
  }

  /** Null when no row has rubric scores. */
  finish(): ResultSummary["rubric_traits"] {
    if (this.questions.size === 0) return null;
    // Of the questions with rubric scores: a question that failed before its rubric ran does not make a global
    // trait question-specific (the original counts every question of the rows).
    const isGlobal = (name: string) => this.questionsOf.get(name)?.size === this.questions.size;
    const empty = (): TraitCounts => ({
      llm: { count: 0, names: [] },
      regex: { count: 0, names: [] },
      callable: { count: 0, names: [] },
      metric: { count: 0, names: [] },
      agentic: { count: 0, names: [] },
    });
    const out = { global_traits: empty(), question_specific_traits: empty() };
    TRAIT_TYPES.forEach((type, index) => {
      for (const [name, { count }] of this.tallies[index] as Map<string, TraitTally>) {
        const entry = out[isGlobal(name) ? "global_traits" : "question_specific_traits"][type];
        entry.count += count;
        entry.names.push(name);
      }
    });
    for (const scope of Object.values(out)) for (const type of TRAIT_TYPES) scope[type].names.sort();
    return out;
  }
}

/**
 * A trait's values, one at a time: booleans → rate, numbers → mean/min/max, strings → label counts, else
 * counted. The mean is the sum in arrival order over the count, as `mean` of the list would give.
 */
class ValueStats {
  count = 0;
  private booleans = 0;
  private trues = 0;
  private numbers = 0;
  private sum = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;
  private strings = 0;
  private readonly stringCounts = new Map<string, number>();

  add(value: unknown): void {
    this.count++;
    if (typeof value === "boolean") {
      this.booleans++;
      if (value) this.trues++;
    } else if (typeof value === "number") {
      this.numbers++;
      this.sum += value;
      this.min = Math.min(this.min, value);
      this.max = Math.max(this.max, value);
    } else if (typeof value === "string") {
      // Counted only while every value so far is a string: a mixed trait is summarised as "other".
      if (this.strings === this.count - 1) countIn(this.stringCounts, value);
      this.strings++;
    }
  }

  finish(): TraitSummary {
    const count = this.count;
    if (count > 0 && this.booleans === count)
      return { kind: "boolean", count, true_count: this.trues, rate: ratio(this.trues, count) };
    if (count > 0 && this.numbers === count)
      return { kind: "score", count, mean: this.sum / count, min: this.min, max: this.max };
    if (count > 0 && this.strings === count)
      return { kind: "literal", count, labels: recordOf(this.stringCounts) };
    return { kind: "other", count };
  }
}

/** An LLM trait: its values, and the label of each (its class name, else its value as text). */
class LlmTraitStats extends ValueStats {
  literal = false;
  readonly labels = new Map<string, number>();

  finishTrait(): TraitSummary {
    if (!this.literal) return this.finish();
    return { kind: "literal", count: this.count, labels: recordOf(this.labels) };
  }
}

/** An agentic trait: null values counted apart from the summary of the others. */
class AgenticTraitStats extends ValueStats {
  nulls = 0;
}

/** A metric trait: the rows that computed it and, per metric, its count, sum and extremes. */
class MetricTraitStats {
  rows = 0;
  readonly metrics = new Map<string, { count: number; sum: number; min: number; max: number }>();

  add(scores: Record<string, number>): void {
    this.rows++;
    for (const name of Object.keys(scores)) {
      const value = scores[name] as number;
      const entry = mapEntryOf(this.metrics, name, newMetricStats);
      entry.count++;
      entry.sum += value;
      entry.min = Math.min(entry.min, value);
      entry.max = Math.max(entry.max, value);
    }
  }

  finish(): MetricTraitSummary {
    return {
      kind: "metric",
      count: this.rows,
      metrics: recordOf(this.metrics, ({ count, sum, min, max }) => ({ count, mean: sum / count, min, max })),
    };
  }
}

const newValueStats = () => new ValueStats();
const newLlmTraitStats = () => new LlmTraitStats();
const newAgenticTraitStats = () => new AgenticTraitStats();
const newMetricTraitStats = () => new MetricTraitStats();
const newMetricStats = () => ({
  count: 0,
  sum: 0,
  min: Number.POSITIVE_INFINITY,
  max: Number.NEGATIVE_INFINITY,
});

/** Adds each value of a row's score map to its trait's stats, in `traits` and (when given) in `more`. */
function addValues(
  traits: Map<string, ValueStats>,
  more: Map<string, ValueStats> | undefined,
  scores: Record<string, unknown> | null | undefined,
): void {
  if (scores === null || scores === undefined) return;
  for (const name of Object.keys(scores)) {
    const value = scores[name];
    mapEntryOf(traits, name, newValueStats).add(value);
    if (more !== undefined) mapEntryOf(more, name, newValueStats).add(value);
  }
}

/** Adds an LLM trait's value and label (its class name, else its value as text) to its stats in `traits`. */
function addLlmValue(
  traits: Map<string, LlmTraitStats>,
  name: string,
  value: unknown,
  label: string | undefined,
  labelKey: string,
): void {
  const stats = mapEntryOf(traits, name, newLlmTraitStats);
  stats.add(value);
  if (label !== undefined) stats.literal = true;
  countIn(stats.labels, labelKey);
}

/** Adds an agentic trait's value (null counted apart) to its stats in `traits`. */
function addAgenticValue(traits: Map<string, AgenticTraitStats>, name: string, value: unknown): void {
  const stats = mapEntryOf(traits, name, newAgenticTraitStats);
  if (value === null || value === undefined) stats.nulls++;
  else stats.add(value);
}

/**
 * Per-trait summaries by trait type (`rubric_scores`, and per model combination), row by row. A row goes to
 * two of them (the overall one and its combination's): `add(row, combo)` walks its score maps once for both.
 */
export class RubricScores {
  private readonly llm = new Map<string, LlmTraitStats>();
  private readonly regex = new Map<string, ValueStats>();
  private readonly callable = new Map<string, ValueStats>();
  private readonly metric = new Map<string, MetricTraitStats>();
  private readonly agentic = new Map<string, AgenticTraitStats>();

  /** Adds a row's scores here and, when given, to `also` (each as if added alone). */
  add(result: VerificationResult, also?: RubricScores): void {
    const rubric = result.rubric;
    if (rubric === null || rubric === undefined) return;
    const labels = rubric.llm_trait_labels;
    const llm = rubric.llm_trait_scores;
    if (llm !== null && llm !== undefined) {
      for (const name of Object.keys(llm)) {
        const value = llm[name];
        const label = ownValue(labels, name);
        const labelKey = label ?? String(value);
        addLlmValue(this.llm, name, value, label, labelKey);
        if (also !== undefined) addLlmValue(also.llm, name, value, label, labelKey);
      }
    }
    addValues(this.regex, also?.regex, rubric.regex_trait_scores);
    addValues(this.callable, also?.callable, rubric.callable_trait_scores);
    const metric = rubric.metric_trait_scores;
    if (metric !== null && metric !== undefined)
      for (const name of Object.keys(metric)) {
        const scores = metric[name] as Record<string, number>;
        mapEntryOf(this.metric, name, newMetricTraitStats).add(scores);
        if (also !== undefined) mapEntryOf(also.metric, name, newMetricTraitStats).add(scores);
      }
    const agentic = rubric.agentic_trait_scores;
    if (agentic === null || agentic === undefined) return;
    for (const name of Object.keys(agentic)) {
      const value = agentic[name];
      addAgenticValue(this.agentic, name, value);
      if (also !== undefined) addAgenticValue(also.agentic, name, value);
    }
  }

  finish(): RubricScoreSummary {
    return {
      llm: recordOf(this.llm, (stats) => stats.finishTrait()),
      regex: recordOf(this.regex, (stats) => stats.finish()),
      callable: recordOf(this.callable, (stats) => stats.finish()),
      metric: recordOf(this.metric, (stats) => stats.finish()),
      agentic: recordOf(this.agentic, (stats) => ({ ...stats.finish(), null_count: stats.nulls })),
    };
  }
}
