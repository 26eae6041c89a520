/**
 * The original's `ExportManager` outputs of a benchmark's structure (spec 01 §4.10): `to_dict`, `to_markdown`,
 * `to_csv` and the file formats of `export_to_file`. Pure functions of what the benchmark hands them.
 */
import { createRequire } from "node:module";
import { type PythonRubricDump, type QuestionRecord, toPythonRubricDump } from "../model/index.js";
import { type FloatSpec, floatRepr, pythonJson } from "../python-repr/index.js";
import { BenchmarkUsageError } from "./errors.js";
import type { BenchmarkSummary } from "./types.js";

/** A question as `toDict` lists it: the original's question dict, its rubric as `Rubric.model_dump()`. */
export type QuestionDict = Omit<QuestionRecord, "question_rubric"> & {
  question_rubric: PythonRubricDump | null;
};

/** What {@link Benchmark.toDict} returns, keys in the original's order. */
export interface BenchmarkDict {
  metadata: {
    name: string;
    description: string;
    version: string;
    creator: string;
    created_at: string;
    modified_at: string;
  };
  statistics: BenchmarkSummary;
  questions: QuestionDict[];
  global_rubric: PythonRubricDump | null;
}

/** The formats of `exportToFile`; `auto` picks one by extension. */
export type BenchmarkExportFormat = "json" | "csv" | "markdown" | "jsonld";

/** One question as the reports read it: its record and its registry flag. */
export interface ReportQuestion {
  id: string;
  record: QuestionRecord;
  finished: boolean;
}

/** The question dict of `toDict`. */
export function questionDict(record: QuestionRecord): QuestionDict {
  return {
    ...record,
    question_rubric: record.question_rubric ? toPythonRubricDump(record.question_rubric) : null,
  };
}

const RUBRIC_FLOATS: FloatSpec = { "*": { "*": { deep_judgment_fuzzy_match_threshold: true } } };

/** Where `toDict` holds Python floats: the summary's `float(question_count)` and progress, trait thresholds. */
const DICT_FLOATS: FloatSpec = {
  statistics: { question_count: true, progress_percentage: true },
  questions: { "*": { question_rubric: RUBRIC_FLOATS } },
  global_rubric: RUBRIC_FLOATS,
};

/**
 * Python's `json.dumps(value, indent=2, ...)` layout applied to the compact text of `pythonJson`: each item on
 * its own line, empty containers kept as `[]` and `{}`, strings copied as they are.
 */
export function indentPythonJson(compact: string): string {
  let out = "";
  let depth = 0;
  let inString = false;
  const newline = () => `\n${"  ".repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const char = compact[i] as string;
    if (inString) {
      out += char;
      if (char === "\\") out += compact[++i] ?? "";
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
    } else if (char === "{" || char === "[") {
      const next = compact[i + 1];
      if (next === "}" || next === "]") {
        out += char + next;
        i++;
      } else {
        depth++;
        out += char + newline();
      }
    } else if (char === "}" || char === "]") {
      depth--;
      out += newline() + char;
    } else if (char === "," && compact[i + 1] === " ") {
      out += `,${newline()}`;
      i++;
    } else {
      out += char;
    }
  }
  return out;
}

/** The JSON `export_to_file` writes: `json.dumps(to_dict(), indent=2, ensure_ascii=False)`. */
export function benchmarkJson(dict: BenchmarkDict): string {
  return indentPythonJson(pythonJson(dict, { floats: DICT_FLOATS }));
}

/**
 * Python's `f"{x:.1f}"`: as `toFixed(1)`, except that an exact tie rounds to even. A double is exactly halfway
 * between two tenths only when it is an odd number of quarters (0.25, 0.75, 1.25, ...).
 */
export function pythonFixed1(x: number): string {
  const quarters = x * 4; // exact: a power of two
  if (Number.isInteger(quarters) && Math.abs(quarters) % 2 === 1) {
    const tenths = Math.floor(x * 10);
    return ((tenths % 2 === 0 ? tenths : tenths + 1) / 10).toFixed(1);
  }
  return x.toFixed(1);
}

/** What {@link benchmarkMarkdown} shows. */
export interface MarkdownInput {
  dict: BenchmarkDict;
  questions: readonly ReportQuestion[];
  /** The global rubric's LLM traits (the original's `Rubric.traits`). */
  globalTraits: readonly { name: string; description: string | null }[] | null;
}

/** The original's `to_markdown()` (spec 01 §4.10), lines joined with `\n`. */
export function benchmarkMarkdown({ dict, questions, globalTraits }: MarkdownInput): string {
  const { metadata, statistics } = dict;
  const lines = [`# ${metadata.name}`, ""];
  if (metadata.description) lines.push(metadata.description, "");
  lines.push(
    "## Metadata",
    `- **Version**: ${metadata.version}`,
    `- **Creator**: ${metadata.creator}`,
    `- **Created**: ${metadata.created_at}`,
    `- **Modified**: ${metadata.modified_at}`,
    "",
    "## Statistics",
    `- **Questions**: ${floatRepr(statistics.question_count)}`,
    `- **Finished**: ${statistics.finished_count}`,
    `- **Progress**: ${pythonFixed1(statistics.progress_percentage)}%`,
    `- **Has Templates**: ${statistics.has_template_count}`,
    "",
  );
  if (globalTraits !== null) {
    lines.push("## Global Rubric");
    for (const trait of globalTraits) lines.push(`- **${trait.name}**: ${trait.description ?? "None"}`);
    lines.push("");
  }
  lines.push("## Questions");
  questions.forEach(({ record, finished }, index) => {
    lines.push(
      `### ${index + 1}. ${record.question}`,
      `**Status**: ${finished ? "✅" : "❌"} | **Template**: ${record.answer_template ? "📝" : "❌"}`,
      "",
    );
    if (record.raw_answer) lines.push(`**Expected Answer**: ${record.raw_answer}`, "");
  });
  return lines.join("\n");
}

export const CSV_COLUMNS = [
  "Question ID",
  "Question",
  "Raw Answer",
  "Has Template",
  "Finished",
  "Author",
  "Created",
  "Modified",
] as const;

/** `author.name` as Python's csv writer shows it, or "" without an author object. */
function authorName(author: unknown): string {
  if (author === null || typeof author !== "object" || Array.isArray(author)) return "";
  const name = (author as Record<string, unknown>).name;
  return name === undefined || name === null ? "" : String(name);
}

/**
 * The original's `to_csv()` (spec 01 §4.10): Python's csv dialect (minimal quoting, `\r\n`); `Has Template` is
 * Yes for any non-empty template, the default placeholder included (Q10).
 */
export function benchmarkCsv(questions: readonly ReportQuestion[]): string {
  const rows = questions.map(({ id, record, finished }) => [
    id,
    record.question,
    record.raw_answer,
    record.answer_template ? "Yes" : "No",
    finished ? "Yes" : "No",
    authorName(record.author),
    record.date_created,
    record.date_modified,
  ]);
  return csvStringify()([[...CSV_COLUMNS], ...rows], { record_delimiter: "\r\n", quoted_match: /[\r\n]/ });
}

const BY_EXTENSION: Record<string, BenchmarkExportFormat> = {
  ".json": "json",
  ".csv": "csv",
  ".md": "markdown",
  ".markdown": "markdown",
  ".jsonld": "jsonld",
};

const FORMATS: readonly string[] = ["json", "csv", "markdown", "jsonld"];

/**
 * The format `export_to_file` writes: the one given, or with `auto` the one of the path's extension
 * (`.json`, `.csv`, `.md`/`.markdown`, `.jsonld`; any other → `json`, as in the original).
 * @throws {BenchmarkUsageError} for a format that is none of these.
 */
export function exportFormatFor(path: string, format: string): BenchmarkExportFormat {
  if (format === "auto") {
    const extension = /\.[^./\\]*$/.exec(path)?.[0].toLowerCase() ?? "";
    return BY_EXTENSION[extension] ?? "json";
  }
  if (FORMATS.includes(format)) return format as BenchmarkExportFormat;
  throw new BenchmarkUsageError(
    `Unsupported export format: ${format}; use auto, json, csv, markdown or jsonld`,
  );
}

/** The CSV writer, loaded on first use: reading or inspecting a checkpoint has no use for it. */
function csvStringify(): typeof import("csv-stringify/sync").stringify {
  return createRequire(import.meta.url)("csv-stringify/sync").stringify;
}
