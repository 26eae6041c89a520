import type { Insertable } from "kysely";
import type { Benchmark } from "../benchmark/index.js";
import type { DataFeedItem } from "../checkpoint/index.js";
import { questionUrn, templateId, toPythonRubricDump } from "../model/index.js";
import type { Dialect } from "./dialect.js";
import {
  type BenchmarkQuestionsTable,
  type BenchmarkScenariosTable,
  type BenchmarksTable,
  jsonOrNull,
  type QuestionsTable,
} from "./schema.js";

// A benchmark as rows, and back. The checkpoint document stays the source of truth (as in memory): the
// benchmark row keeps the document without its questions and scenarios, each membership row keeps its question's
// `DataFeedItem` and each scenario row its root `hasPart` entry, so loading rebuilds the same checkpoint. The
// other columns are copies for querying.

/** What `benchmarks.metadata_json` holds. */
interface BenchmarkMetadata {
  /** The global rubric as the original's `Rubric.model_dump()`, or null. */
  global_rubric: unknown;
  /** The checkpoint document with an empty `dataFeedElement` (and an empty `hasPart` when it has one). */
  checkpoint: Record<string, unknown>;
}

/**
 * A question of the benchmark: its `questions` row and its membership row (without `benchmark_id`), and the
 * `original_answer_template` its checkpoint item names, if any.
 */
export interface MemberRows {
  readonly question: Insertable<QuestionsTable>;
  readonly member: Omit<Insertable<BenchmarkQuestionsTable>, "benchmark_id">;
  readonly namedOriginalTemplate: string | null;
}

/** The `original_answer_template` property of a checkpoint item (the original's GUI writes it), or null. */
function namedOriginalTemplate(item: DataFeedItem): string | null {
  const property = item.item.additionalProperty?.find((p) => p.name === "original_answer_template");
  return typeof property?.value === "string" ? property.value : null;
}

/** A scenario of the benchmark: its `benchmark_scenarios` row without `benchmark_id`. */
export type ScenarioRow = Omit<Insertable<BenchmarkScenariosTable>, "benchmark_id">;

/**
 * A benchmark as rows: its own row (minus the id), one pair per question and one row per root `hasPart` entry
 * (scenario), in benchmark order.
 */
export interface BenchmarkRows {
  readonly benchmark: Insertable<BenchmarksTable>;
  readonly members: readonly MemberRows[];
  readonly scenarios: readonly ScenarioRow[];
}

/** The rows that store a benchmark (deep-judgment settings of traits included). */
export function benchmarkRows(
  bench: Benchmark,
  d: Dialect,
  checkpointPath: string | null,
  now: string,
): BenchmarkRows {
  const { dataFeedElement, hasPart, ...rest } = bench.toCheckpoint({ saveDeepJudgmentConfig: true });
  const globalRubric = bench.getGlobalRubric();
  const metadata: BenchmarkMetadata = {
    global_rubric: globalRubric ? toPythonRubricDump(globalRubric) : null,
    checkpoint: { ...rest, dataFeedElement: [], ...(hasPart === undefined ? {} : { hasPart: [] }) },
  };
  const benchmark: Insertable<BenchmarksTable> = {
    name: bench.name,
    description: bench.description,
    version: bench.version,
    creator: bench.creator,
    checkpoint_path: checkpointPath,
    metadata_json: JSON.stringify(metadata),
    created_at: now,
    updated_at: now,
  };
  const members = dataFeedElement.map((item, position) => memberRowsOf(bench, item, position, d, now));
  const scenarios = (hasPart ?? []).map((entry, position) => scenarioRowOf(entry, position, now));
  return { benchmark, members, scenarios };
}

/** The row of a root `hasPart` entry (a scenario node the benchmark decoded when it was loaded or added). */
function scenarioRowOf(entry: Record<string, unknown>, position: number, now: string): ScenarioRow {
  return {
    position,
    name: typeof entry.name === "string" ? entry.name : "",
    scenario_json: JSON.stringify(entry),
    created_at: now,
  };
}

function memberRowsOf(
  bench: Benchmark,
  item: DataFeedItem,
  position: number,
  d: Dialect,
  now: string,
): MemberRows {
  const id = item["@id"] ?? questionUrn(item.item.text);
  const record = bench.getQuestion(id);
  const question: Insertable<QuestionsTable> = {
    id,
    question_text: record.question,
    raw_answer: record.raw_answer,
    answer_notes: record.answer_notes,
    keywords: jsonOrNull(record.keywords),
    author: jsonOrNull(record.author),
    sources: jsonOrNull(record.sources),
    custom_metadata: jsonOrNull(record.custom_metadata),
    few_shot_examples: jsonOrNull(record.few_shot_examples),
    created_at: record.date_created,
    updated_at: record.date_modified,
  };
  const named = namedOriginalTemplate(item);
  const member: MemberRows["member"] = {
    question_id: id,
    position,
    template_id: templateId(record.answer_template),
    answer_template: record.answer_template,
    original_answer_template: named ?? record.answer_template,
    template_language: bench.getTemplateLanguage(id),
    finished: d.bool(bench.isFinished(id)),
    keywords: jsonOrNull(record.keywords),
    question_rubric: jsonOrNull(record.question_rubric && toPythonRubricDump(record.question_rubric)),
    item_json: JSON.stringify(item),
    created_at: now,
    updated_at: now,
  };
  return { question, member, namedOriginalTemplate: named };
}

/**
 * The checkpoint text of a stored benchmark: its document with the questions' items and the scenarios' nodes
 * put back, in order.
 */
export function checkpointText(
  metadataJson: string,
  itemsJson: readonly string[],
  scenariosJson: readonly string[] = [],
): string {
  const { checkpoint } = JSON.parse(metadataJson) as BenchmarkMetadata;
  const scenarios = scenariosJson.map((scenario) => JSON.parse(scenario));
  return JSON.stringify({
    ...checkpoint,
    dataFeedElement: itemsJson.map((item) => JSON.parse(item)),
    ...("hasPart" in checkpoint || scenarios.length > 0 ? { hasPart: scenarios } : {}),
  });
}
