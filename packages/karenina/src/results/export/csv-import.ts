import { parse } from "csv-parse/sync";
import { describeValue } from "../../errors/index.js";
import { PROTO_KEY, setOwn } from "../../plain-data/index.js";
import type { ModelIdentity } from "../model-identity.js";
import { resultId } from "../result-id.js";
import {
  type VerificationResult,
  VerificationResultDeepJudgmentRubricSchema,
  VerificationResultDeepJudgmentSchema,
} from "../verification-result.js";
import { QUESTION_SPECIFIC_COLUMN } from "./csv-export.js";
import { ResultsFileError, ResultsRowError } from "./errors.js";
import { readResultsText, validateRow } from "./json-import.js";

/** A CSV export, read back. */
export interface ResultsCsvFile {
  /** The file-level columns of the first row; null when the file has no rows. */
  readonly metadata: { export_timestamp: string; karenina_version: string; job_id: string } | null;
  /** The traits that had `rubric_<trait>` columns (the global rubric's traits seen in the results). */
  readonly globalTraitNames: string[];
  readonly results: VerificationResult[];
}

/** What a failed row becomes: the CSV keeps only the failure's reason. */
const IMPORTED_FAILURE = { category: "unexpected_error", stage: "unknown", details: null } as const;

/** The `template_id` of imported rows: the CSV does not have it. */
export const CSV_UNKNOWN_TEMPLATE_ID = "unknown";

/** Reads the cells of one record, by column name; problems name the row and the column. */
class Cells {
  constructor(
    private readonly record: readonly string[],
    private readonly index: ReadonlyMap<string, number>,
    readonly fail: (column: string, problem: string) => never,
  ) {}

  text(column: string): string {
    const at = this.index.get(column);
    return at === undefined ? "" : (this.record[at] ?? "");
  }

  has(column: string): boolean {
    return this.index.has(column);
  }

  /** A required text column. */
  required(column: string): string {
    if (!this.index.has(column)) this.fail(column, "missing column");
    return this.text(column);
  }

  /** `""` → null. */
  optional(column: string): string | null {
    const text = this.text(column);
    return text === "" ? null : text;
  }

  bool(column: string): boolean {
    const text = this.text(column);
    if (text === "True") return true;
    if (text === "False" || text === "") return false;
    return this.fail(column, `expected True or False, found ${describeValue(text)}`);
  }

  number(column: string): number | null {
    const text = this.text(column);
    if (text === "") return null;
    const value = Number(text);
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text.trim()) || !Number.isFinite(value)) {
      return this.fail(column, `expected a number, found ${describeValue(text)}`);
    }
    return value;
  }

  int(column: string): number | null {
    const value = this.number(column);
    if (value !== null && !Number.isInteger(value))
      this.fail(column, `expected an integer, found ${describeValue(this.text(column))}`);
    return value;
  }

  /** A JSON cell; `""` (the original's encoding of every falsy value) → null. */
  json(column: string): unknown {
    const text = this.text(column);
    if (text === "") return null;
    try {
      return JSON.parse(text);
    } catch (error) {
      return this.fail(column, `expected JSON, found ${describeValue(text)} (${(error as Error).message})`);
    }
  }
}

/** Inverse of `displayString`: `interface:model_name (config_id) +[t1, t2]`. */
function identityOf(display: string): ModelIdentity | null {
  const match = /^([^:]*):(.*?)(?: \(([^()]*)\))?(?: \+\[(.*)\])?$/s.exec(display);
  if (!match) return null;
  return {
    interface: match[1] ?? "",
    model_name: match[2] ?? "",
    tools: match[4] ? match[4].split(", ") : [],
    config_id: match[3] ?? null,
  };
}

/** Python's `str()` of a trait score, back: `True`, `4`, `0.5`; a metric dict (`{...}`) is skipped. */
function traitValue(text: string): unknown {
  if (text === "True") return true;
  if (text === "False") return false;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text);
  return text;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function rubricOf(cells: Cells, traitColumns: readonly [string, number][], record: readonly string[]) {
  const scores: Record<string, unknown> = {};
  for (const [name, at] of traitColumns) {
    const text = record[at] ?? "";
    if (name === PROTO_KEY) cells.fail(`rubric_${name}`, `"${PROTO_KEY}" cannot be a trait name`);
    if (text !== "" && !text.startsWith("{")) setOwn(scores, name, traitValue(text));
  }
  const specific = cells.json(QUESTION_SPECIFIC_COLUMN);
  if (specific !== null && !isRecord(specific)) {
    cells.fail(QUESTION_SPECIFIC_COLUMN, `expected a JSON object, found ${describeValue(specific)}`);
  }
  for (const [name, value] of Object.entries(specific ?? {})) {
    if (name === PROTO_KEY) cells.fail(QUESTION_SPECIFIC_COLUMN, `"${PROTO_KEY}" cannot be a trait name`);
    if (!isRecord(value)) setOwn(scores, name, value);
  }
  const metric = cells.json("metric_trait_metrics");
  const confusion = cells.json("metric_trait_confusion_lists");
  const performed = cells.bool("rubric_evaluation_performed");
  if (!performed && Object.keys(scores).length === 0 && metric === null && confusion === null) return null;
  return {
    rubric_evaluation_performed: performed,
    llm_trait_scores: Object.keys(scores).length > 0 ? scores : null,
    metric_trait_scores: metric,
    metric_trait_confusion_lists: confusion,
  };
}

/** The template deep-judgment columns whose content shows the section existed (all but its two flags). */
const DEEP_JUDGMENT_COLUMNS = Object.keys(VerificationResultDeepJudgmentSchema.shape).filter(
  (column) => column !== "deep_judgment_performed" && column !== "deep_judgment_search_enabled",
);

/** The rubric deep-judgment columns whose content shows the section existed (all but its flag). */
const DEEP_JUDGMENT_RUBRIC_COLUMNS = Object.keys(VerificationResultDeepJudgmentRubricSchema.shape).filter(
  (column) => column !== "deep_judgment_rubric_performed",
);

/** Whether a deep-judgment cell holds something: not empty, and not the `0` a counter has without the section. */
const filled = (cells: Cells, column: string) => cells.text(column) !== "" && cells.text(column) !== "0";

function deepJudgmentOf(cells: Cells) {
  const present =
    cells.bool("deep_judgment_performed") ||
    cells.bool("deep_judgment_search_enabled") ||
    DEEP_JUDGMENT_COLUMNS.some((column) => filled(cells, column));
  if (!present) return null;
  return {
    deep_judgment_mode: cells.optional("deep_judgment_mode"),
    deep_judgment_performed: cells.bool("deep_judgment_performed"),
    extracted_excerpts: cells.json("extracted_excerpts"),
    attribute_reasoning: cells.json("attribute_reasoning"),
    deep_judgment_stages_completed: cells.json("deep_judgment_stages_completed"),
    deep_judgment_model_calls: cells.int("deep_judgment_model_calls") ?? 0,
    deep_judgment_excerpt_retry_count: cells.int("deep_judgment_excerpt_retry_count") ?? 0,
    attributes_without_excerpts: cells.json("attributes_without_excerpts"),
    deep_judgment_search_enabled: cells.bool("deep_judgment_search_enabled"),
    hallucination_risk_assessment: cells.json("hallucination_risk_assessment"),
  };
}

function deepJudgmentRubricOf(cells: Cells) {
  const present =
    cells.bool("deep_judgment_rubric_performed") ||
    DEEP_JUDGMENT_RUBRIC_COLUMNS.some((column) => filled(cells, column));
  if (!present) return null;
  return {
    deep_judgment_rubric_performed: cells.bool("deep_judgment_rubric_performed"),
    extracted_rubric_excerpts: cells.json("extracted_rubric_excerpts"),
    rubric_trait_reasoning: cells.json("rubric_trait_reasoning"),
    deep_judgment_rubric_scores: cells.json("deep_judgment_rubric_scores"),
    standard_rubric_scores: cells.json("standard_rubric_scores"),
    trait_metadata: cells.json("trait_metadata"),
    traits_without_valid_excerpts: cells.json("traits_without_valid_excerpts"),
    rubric_hallucination_risk_assessment: cells.json("rubric_hallucination_risk_assessment"),
    total_deep_judgment_model_calls: cells.int("total_deep_judgment_model_calls") ?? 0,
    total_traits_evaluated: cells.int("total_traits_evaluated") ?? 0,
    total_excerpt_retries: cells.int("total_excerpt_retries") ?? 0,
  };
}

function resultOf(
  cells: Cells,
  traitColumns: readonly [string, number][],
  record: readonly string[],
): unknown {
  const identity = (column: string): ModelIdentity => {
    const parsed = identityOf(cells.required(column));
    return (
      parsed ?? cells.fail(column, `expected "interface:model", found ${describeValue(cells.text(column))}`)
    );
  };
  const answering = identity("answering_model");
  const parsing = identity("parsing_model");
  const question_id = cells.required("question_id");
  const replicate = cells.int("replicate");
  const timestamp = cells.required("timestamp");
  const executionTime = cells.number("execution_time");
  const success = cells.text("success");
  if (success !== "True" && success !== "False")
    cells.fail("success", `expected True or False, found ${describeValue(success)}`);
  return {
    metadata: {
      question_id,
      template_id: CSV_UNKNOWN_TEMPLATE_ID,
      failure: success === "True" ? null : { ...IMPORTED_FAILURE, reason: cells.text("error") },
      question_text: cells.required("question_text"),
      keywords: cells.json("keywords"),
      answering,
      parsing,
      answering_system_prompt: cells.optional("answering_system_prompt"),
      parsing_system_prompt: cells.optional("parsing_system_prompt"),
      execution_time: executionTime ?? cells.fail("execution_time", "expected a number, found nothing"),
      timestamp,
      result_id: resultId({ answering, parsing, question_id, replicate, timestamp }),
      run_name: cells.optional("run_name"),
      replicate,
    },
    template: {
      raw_llm_response: cells.text("raw_llm_response"),
      parsed_gt_response: cells.json("parsed_gt_response"),
      parsed_llm_response: cells.json("parsed_llm_response"),
      template_verification_performed: cells.bool("template_verification_performed"),
      verify_result: cells.json("verify_result"),
      verify_granular_result: cells.json("verify_granular_result"),
      embedding_check_performed: cells.bool("embedding_check_performed"),
      embedding_similarity_score: cells.number("embedding_similarity_score"),
      embedding_override_applied: cells.bool("embedding_override_applied"),
      embedding_model_used: cells.optional("embedding_model_used"),
      answering_mcp_servers: cells.json("answering_mcp_servers"),
      usage_metadata: cells.json("usage_metadata"),
      agent_metrics: cells.json("agent_metrics"),
    },
    rubric: rubricOf(cells, traitColumns, record),
    deep_judgment: deepJudgmentOf(cells),
    deep_judgment_rubric: deepJudgmentRubricOf(cells),
  };
}

/** The trait columns: those between `keywords` and `question_specific_rubrics` / `answering_model`. */
function traitColumnsOf(header: readonly string[]): [string, number][] {
  const start = header.indexOf("keywords") + 1;
  if (start === 0) return [];
  const columns: [string, number][] = [];
  for (let at = start; at < header.length; at++) {
    const name = header[at] ?? "";
    if (name === QUESTION_SPECIFIC_COLUMN || name === "answering_model") break;
    if (name.startsWith("rubric_")) columns.push([name.slice("rubric_".length), at]);
  }
  return columns;
}

/**
 * Parses a job CSV export (spec 06 §2.2) back into results, as far as its columns allow. What the CSV does
 * not keep comes back as defaults: `template_id` is {@link CSV_UNKNOWN_TEMPLATE_ID}; `result_id` is
 * recomputed; a failed row gets a failure of category `unexpected_error`, stage `unknown`, with the
 * `error` column as reason; a `false` verify_result (written `""`) reads as null; empty strings of
 * prompts and run names read as null; trait scores land in `llm_trait_scores` (their kind is not in the
 * CSV) except metric scores, read from `metric_trait_metrics`; warnings, caveats, retry counts, the
 * reference answer, trace messages, regex, abstention and sufficiency results, agentic trait data and
 * `evaluation_input` are not in the CSV.
 * @param file the name used in error messages.
 * @throws {ResultsFileError} when the text is not CSV or lacks the `question_id` column;
 * {@link ResultsRowError} naming the row and column of a bad cell.
 * @example
 * const csv = exportResultsCsv([], { metadata: { job_id: "job-1" } });
 * parseResultsCsv(csv, "run.csv").results; // []
 */
export function parseResultsCsv(text: string, file = "<results.csv>"): ResultsCsvFile {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_quotes: false }) as string[][];
  } catch (error) {
    throw new ResultsFileError(file, `not a valid CSV file: ${(error as Error).message}`, { cause: error });
  }
  const [header, ...rows] = records;
  if (header === undefined || !header.includes("question_id")) {
    throw new ResultsFileError(file, "not a results CSV export (no question_id column in the first line)");
  }
  const traitColumns = traitColumnsOf(header);
  const traitIndexes = new Set(traitColumns.map(([, at]) => at));
  const index = new Map<string, number>();
  header.forEach((name, at) => {
    if (!traitIndexes.has(at) && !index.has(name)) index.set(name, at);
  });
  const results = rows.map((record, row) => {
    const fail = (column: string, problem: string): never => {
      throw new ResultsRowError(
        file,
        row,
        column,
        `row ${row + 1} (after the header): column ${column}: ${problem}`,
      );
    };
    const value = resultOf(new Cells(record, index, fail), traitColumns, record);
    return validateRow(value, file, row, `row ${row + 1} (after the header)`);
  });
  const first = rows[0];
  const cell = (name: string) => (first && index.has(name) ? (first[index.get(name) ?? 0] ?? "") : "");
  return {
    metadata: first
      ? {
          export_timestamp: cell("export_timestamp"),
          karenina_version: cell("karenina_version"),
          job_id: cell("job_id"),
        }
      : null,
    globalTraitNames: traitColumns.map(([name]) => name),
    results,
  };
}

/**
 * Reads a job CSV export back into results (see {@link parseResultsCsv} for what is lost).
 * @throws {ResultsFileError} when the file is missing or not a results CSV; {@link ResultsRowError} for a bad cell.
 * @example
 * await writeResultsCsv("back.csv", [], { metadata: { job_id: "job-1" } });
 * (await readResultsCsv("back.csv")).metadata; // null
 */
export async function readResultsCsv(path: string): Promise<ResultsCsvFile> {
  return parseResultsCsv(await readResultsText(path), path);
}
