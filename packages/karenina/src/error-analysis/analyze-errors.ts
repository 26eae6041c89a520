/**
 * `analyze-errors` (spec 06 §5.5, 08 §10.4): a directory an analyst (a person or a coding agent) works in — one
 * markdown case per result or scenario execution, sorted into `passes/` and `failures/<category>/`, the
 * benchmark, an index and the analyst prompt — then a launcher that is expected to write `REPORT.md`.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Benchmark } from "../benchmark/index.js";
import { displayString, type ScenarioResultRecord, type VerificationResult } from "../results/index.js";
import { traceOffloadThreshold } from "../scenario-runtime/index.js";
import { templateSources, writeBenchmarkFolder } from "./benchmark-dump.js";
import { MaterializationError, ReportMissingError } from "./errors.js";
import { analysisCases } from "./executions.js";
import { type CaseEntry, indexMarkdown } from "./index-markdown.js";
import { launcherNamed } from "./launchers.js";
import { substitutePlaceholders } from "./prompt.js";
import {
  firstFailingTurn,
  frontmatter,
  qaFrontmatter,
  type RenderContext,
  rowSections,
  safeName,
  scenarioCase,
} from "./render-case.js";
import { defaultPrompt, rubricGuide } from "./text-asset.js";

/** What to analyse, and how. */
export interface AnalyzeErrorsRequest {
  rows: readonly VerificationResult[];
  /** The file's `scenario_results` (null or absent: executions are rebuilt from the turn rows). */
  scenarioResults?: readonly ScenarioResultRecord[] | null;
  benchmark: Benchmark;
  outDir: string;
  /** A custom analyst prompt (placeholders substituted); default the packaged one. */
  promptPath?: string;
  /** `prepare-only` (default) or `claude-code`. */
  launcher?: string;
  /** Trace bodies longer than this are offloaded to `case_assets/`; default env, then 2000. */
  maxTraceChars?: number;
  /** The launcher's time limit; default 1800. */
  timeoutSeconds?: number;
  /** Reuse a non-empty directory: REPORT.md is kept as REPORT.previous.md, everything else removed. */
  force?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
}

async function prepareDirectory(out: string, force: boolean): Promise<void> {
  let entries: string[] = [];
  try {
    if (!(await stat(out)).isDirectory()) throw new MaterializationError(`${out} is not a directory`);
    entries = await readdir(out);
  } catch (error) {
    if (error instanceof MaterializationError) throw error;
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (entries.length > 0 && !force)
    throw new MaterializationError(
      `${out} is not empty; choose a new directory, or give --force to replace its content (REPORT.md is kept as REPORT.previous.md)`,
    );
  for (const entry of entries) {
    if (entry === "REPORT.md") await rename(join(out, entry), join(out, "REPORT.previous.md"));
    else if (entry !== "REPORT.previous.md" || !entries.includes("REPORT.md"))
      await rm(join(out, entry), { recursive: true, force: true });
  }
  await mkdir(out, { recursive: true });
}

/** Gives each case a file name unique in its bucket (spec 08 §10.4 naming), hashing a second use. */
class CaseNames {
  readonly #used = new Set<string>();

  name(bucket: string, stem: string, hashSource: string): string {
    if (!this.#used.has(`${bucket}/${stem}`)) {
      this.#used.add(`${bucket}/${stem}`);
      return stem;
    }
    const hashed = `${stem}__h${createHash("sha1").update(hashSource).digest("hex").slice(0, 8)}`;
    if (this.#used.has(`${bucket}/${hashed}`))
      throw new MaterializationError(`two cases would both be written to ${bucket}/${hashed}.md`);
    this.#used.add(`${bucket}/${hashed}`);
    return hashed;
  }
}

const bucketOf = (row: VerificationResult | undefined) =>
  row?.metadata.failure ? `failures/${safeName(row.metadata.failure.category)}` : "passes";

const upFrom = (bucket: string) => "../".repeat(bucket.split("/").length);

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").slice(0, 100);

async function writeCases(
  out: string,
  request: AnalyzeErrorsRequest,
  threshold: number,
  templates: Map<string, string>,
) {
  const { qa, scenarios } = analysisCases(request.rows, request.scenarioResults ?? null);
  const names = new CaseNames();
  const entries: CaseEntry[] = [];
  const context = (bucket: string, stem: string): RenderContext => ({
    templates,
    artifactsDir: join(out, "case_assets", stem, "traces", "artifacts"),
    threshold,
    up: upFrom(bucket),
  });
  const write = async (bucket: string, stem: string, fields: Record<string, unknown>, body: string) => {
    await mkdir(join(out, bucket), { recursive: true });
    await writeFile(join(out, bucket, `${stem}.md`), `${frontmatter(fields)}\n\n${body}`);
  };
  for (const row of qa) {
    const { metadata } = row;
    const suffix = metadata.replicate === null ? "" : `__rep_${metadata.replicate}`;
    const bucket = bucketOf(row);
    const stem = names.name(bucket, `q_${safeName(metadata.question_id)}${suffix}`, metadata.result_id);
    const id = `q_${metadata.question_id}${suffix}`;
    await write(bucket, stem, qaFrontmatter(row, id), await rowSections(row, context(bucket, stem)));
    entries.push({ id, link: `${bucket}/${stem}.md`, failure: metadata.failure });
  }
  const counters = new Map<string, number>();
  for (const execution of scenarios) {
    const scenarioId = execution.record.scenario_id;
    const counter = (counters.get(scenarioId) ?? 0) + 1;
    counters.set(scenarioId, counter);
    const run = execution.record.replicate ?? counter;
    const failed = firstFailingTurn(execution);
    const bucket = bucketOf(failed);
    const stem = names.name(
      bucket,
      `scenario_${safeName(scenarioId)}__run_${run}`,
      `${scenarioId}:${counter}`,
    );
    const id = `scenario_${scenarioId}__run_${run}`;
    const { fields, body } = await scenarioCase(execution, id, run, context(bucket, stem));
    await write(bucket, stem, fields, body);
    entries.push({ id, link: `${bucket}/${stem}.md`, failure: failed?.metadata.failure ?? null });
  }
  return entries;
}

const latestTimestamp = (rows: readonly VerificationResult[]) =>
  rows.reduce((latest, row) => (row.metadata.timestamp > latest ? row.metadata.timestamp : latest), "");

function answeringModels(rows: readonly VerificationResult[]): string {
  const names = [...new Set(rows.map((row) => displayString(row.metadata.answering)))].sort();
  return names.length === 0 ? "(unknown)" : names.join(", ");
}

async function promptText(request: AnalyzeErrorsRequest): Promise<string> {
  const template =
    request.promptPath === undefined
      ? defaultPrompt()
      : await readFile(request.promptPath, "utf8").catch((error: NodeJS.ErrnoException) => {
          throw new MaterializationError(`--prompt ${request.promptPath}: cannot read it (${error.code})`);
        });
  const rows = request.rows;
  const failed = rows.filter((row) => row.metadata.failure !== null);
  const categories = [...new Set(failed.map((row) => row.metadata.failure?.category as string))].sort();
  return substitutePlaceholders(template, {
    BENCHMARK_NAME: request.benchmark.name,
    ANSWERING_MODEL: answeringModels(rows),
    TOTAL: String(rows.length),
    PASSED: String(rows.length - failed.length),
    FAILED: String(failed.length),
    FAILURE_CATEGORIES: categories.join(", "),
    RUN_TIMESTAMP: latestTimestamp(rows),
  });
}

/**
 * Prepares the analysis directory, runs the launcher and returns the absolute path of `REPORT.md`.
 * @throws {MaterializationError} when the directory cannot be prepared or written; {@link LauncherError} for an
 * unknown, unavailable or failed launcher; {@link ReportMissingError} when no REPORT.md was written (the
 * normal end of `prepare-only`: the directory is ready for an analyst).
 */
export async function analyzeErrors(request: AnalyzeErrorsRequest): Promise<string> {
  const out = resolve(request.outDir);
  const env = request.env ?? process.env;
  const launch = launcherNamed(request.launcher ?? "prepare-only");
  const threshold = request.maxTraceChars ?? traceOffloadThreshold(env);
  await prepareDirectory(out, request.force ?? false);
  const templates = templateSources(request.benchmark);
  await writeBenchmarkFolder(out, request.benchmark, templates, request.rows);
  const entries = await writeCases(out, request, threshold, templates);
  await writeFile(
    join(out, "INDEX.md"),
    indexMarkdown({
      benchmark: request.benchmark.name,
      model: answeringModels(request.rows),
      timestamp: latestTimestamp(request.rows),
      entries,
      oneLine,
    }),
  );
  const promptPath = join(out, "PROMPT.md");
  await writeFile(promptPath, await promptText(request));
  await writeFile(join(out, "RUBRIC_GUIDE.md"), rubricGuide());
  await launch({ outDir: out, promptPath, timeoutSeconds: request.timeoutSeconds ?? 1800, env });
  const report = join(out, "REPORT.md");
  const exists = await stat(report).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!exists) throw new ReportMissingError(report);
  return report;
}
