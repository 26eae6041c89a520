import { setMaxListeners } from "node:events";
import { z } from "zod";
import { CallScheduler } from "../../llm/index.js";
import { parseRubric, type Rubric } from "../../model/index.js";
import type { VerificationResult } from "../../results/index.js";
import { type ModelConfigInput, parseVerificationConfig, type VerificationConfig } from "../config/index.js";
import { PostHocRubricError } from "./errors.js";
import { itemsFromRows, type RowSelection } from "./items.js";
import { judgeItem } from "./judge-item.js";
import {
  type PostHocItem,
  type PostHocJudgment,
  type ResultRowKeyInput,
  ResultRowKeySchema,
  type RowContextInput,
  RowContextSchema,
} from "./schemas.js";

/** Options of {@link evaluateRubricOnTexts}. */
export interface PostHocOptions {
  /**
   * Texts judged at once (default 4). 1 judges in input order; more keeps at most twice as many texts queued
   * and yields judgments as they finish. Below 1 is refused.
   */
  maxWorkers?: number;
  /** Told when judging a text throws (its judgment then carries the message); default `process.emitWarning`. */
  onWarning?: (message: string) => void;
}

/** Options of {@link evaluateRubricOnResults}: how rows are selected and grouped, and how many run at once. */
export interface PostHocResultsOptions extends PostHocOptions, RowSelection {}

/** A prepared text for {@link evaluateRubricOnTexts}: the key it is reported under, the text, its context. */
export interface PostHocText {
  key: ResultRowKeyInput;
  text: string;
  context?: RowContextInput;
}

const PostHocTextSchema = z.object({
  key: ResultRowKeySchema,
  text: z.string(),
  context: RowContextSchema.default({ question: "", ground_truth: null }),
});

const emitWarning = (message: string) => process.emitWarning(message, { type: "KareninaPostHocWarning" });

function checkMaxWorkers(maxWorkers: number): number {
  if (typeof maxWorkers !== "number" || Number.isNaN(maxWorkers) || maxWorkers < 1) {
    throw new PostHocRubricError("max_workers must be at least 1");
  }
  if (!Number.isInteger(maxWorkers)) {
    throw new PostHocRubricError(`max_workers must be a whole number, found ${maxWorkers}`);
  }
  return maxWorkers;
}

/** The run config of every judgment (spec 08 §10.2 step 3): the judge alone, rubric only, no guards. */
function judgeConfig(parsingModel: ModelConfigInput): VerificationConfig {
  return parseVerificationConfig({
    parsing_models: [parsingModel],
    parsing_only: true,
    evaluation_mode: "rubric_only",
    abstention_enabled: false,
    sufficiency_enabled: false,
  });
}

interface JudgeRun {
  config: VerificationConfig;
  maxWorkers: number;
  onWarning: (message: string) => void;
}

/** Judges texts one after the other, in input order. */
async function* inOrder(items: readonly PostHocItem[], run: JudgeRun): AsyncGenerator<PostHocJudgment> {
  for (const item of items) yield await judgeItem(item, run.config, { onWarning: run.onWarning });
}

/**
 * Judges up to `maxWorkers` texts at once through a call scheduler, keeping at most `2 × maxWorkers` submitted,
 * and yields in completion order. Leaving the iteration early aborts the texts still queued or judged.
 */
async function* inCompletionOrder(
  items: readonly PostHocItem[],
  run: JudgeRun,
): AsyncGenerator<PostHocJudgment> {
  const scheduler = new CallScheduler({ globalLimit: run.maxWorkers });
  const controller = new AbortController();
  // Every text in flight listens to the one signal (its queue entry, its TaskEval run).
  setMaxListeners(0, controller.signal);
  const inFlight = new Map<number, Promise<{ index: number; judgment: PostHocJudgment }>>();
  let next = 0;
  const submit = () => {
    const index = next++;
    const item = items[index] as PostHocItem;
    const judging = scheduler.run(
      "post-hoc-rubric",
      (signal) => judgeItem(item, run.config, { onWarning: run.onWarning, ...(signal ? { signal } : {}) }),
      { signal: controller.signal },
    );
    inFlight.set(
      index,
      judging.then((judgment) => ({ index, judgment })),
    );
  };
  try {
    while (next < items.length && inFlight.size < 2 * run.maxWorkers) submit();
    while (inFlight.size > 0) {
      const { index, judgment } = await Promise.race(inFlight.values());
      inFlight.delete(index);
      if (next < items.length) submit();
      yield judgment;
    }
  } finally {
    controller.abort();
    await Promise.allSettled(inFlight.values());
  }
}

function judged(items: readonly PostHocItem[], run: JudgeRun): AsyncGenerator<PostHocJudgment> {
  return run.maxWorkers === 1 ? inOrder(items, run) : inCompletionOrder(items, run);
}

function judgeRun(parsingModel: ModelConfigInput, options: PostHocOptions): JudgeRun {
  return {
    maxWorkers: checkMaxWorkers(options.maxWorkers ?? 4),
    config: judgeConfig(parsingModel),
    onWarning: options.onWarning ?? emitWarning,
  };
}

async function collect<T>(values: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const value of values) all.push(value);
  return all;
}

/**
 * Scores kept answers against a rubric without regenerating them (spec 08 §10.2): each row's text
 * (`template.raw_llm_response` unless `textSelector` says otherwise) is judged by `parsingModel` through a
 * rubric-only TaskEval, once per generated answer (parser siblings collapse unless `collapseParserSiblings` is
 * false). The rows are not modified and nothing is written. Judgments come in input order with `maxWorkers: 1`,
 * else in completion order; breaking out of the loop stops the pending judging.
 * @throws {PostHocRubricError} at once when `maxWorkers` is below 1; {@link ConfigError} for an invalid judge
 * model; {@link RubricError} for an invalid rubric.
 * @example
 * const rows = ["judge-a", "judge-b"].map((parser) => parseVerificationResult({
 *   metadata: { question_id: "q1", template_id: "t", question_text: "Which drug?", result_id: `r-${parser}`,
 *     answering: { interface: "openai", model_name: "agent" }, parsing: { interface: "openai", model_name: parser },
 *     execution_time: 1, timestamp: "2026-01-01 00:00:00", run_name: "nightly" },
 *   template: { raw_llm_response: "Venetoclax [1]." },
 * }));
 * const cites = { regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }] };
 * const judge = { id: "judge", model_name: "judge", interface: "openai_endpoint", endpoint_base_url: "http://127.0.0.1:9/v1" };
 * const judgments = [];
 * for await (const judgment of evaluateRubricOnResults(rows, cites, judge, { maxWorkers: 1 })) judgments.push(judgment);
 * judgments.map((judgment) => [judgment.scores, judgment.sibling_keys.length]); // [[{ cites: true }, 2]]
 */
export function evaluateRubricOnResults(
  results: Iterable<VerificationResult> | AsyncIterable<VerificationResult>,
  rubric: Rubric | Record<string, unknown>,
  parsingModel: ModelConfigInput,
  options: PostHocResultsOptions = {},
): AsyncIterable<PostHocJudgment> {
  const run = judgeRun(parsingModel, options);
  const parsedRubric = parseRubric(rubric);
  return (async function* () {
    const items = itemsFromRows(await collect(results), parsedRubric, options);
    yield* judged(items, run);
  })();
}

/**
 * Scores prepared texts against a rubric (spec 08 §10.2): like {@link evaluateRubricOnResults} without rows,
 * so without collapsing; each judgment has the text's key alone as sibling and no result ids.
 * @throws {PostHocRubricError} when `maxWorkers` is below 1; a Zod error naming the field of an invalid text.
 */
export function evaluateRubricOnTexts(
  texts: Iterable<PostHocText>,
  rubric: Rubric | Record<string, unknown>,
  parsingModel: ModelConfigInput,
  options: PostHocOptions = {},
): AsyncIterable<PostHocJudgment> {
  const run = judgeRun(parsingModel, options);
  const parsedRubric = parseRubric(rubric);
  const items = [...texts].map((input): PostHocItem => {
    const { key, text, context } = PostHocTextSchema.parse(input);
    return {
      key,
      text,
      context,
      rubric: parsedRubric,
      siblingKeys: [key],
      representativeResultId: null,
      siblingResultIds: [],
    };
  });
  return judged(items, run);
}
