/**
 * `verify --run-root DIR [--run-label TEXT]` (spec 06 §5.1.4): each run gets its own timestamped directory
 * `<root>/<label>_<UTC YYYYMMDDTHHMMSSZ>/` holding `results.json`, `run_manifest.json`, `traces/` and
 * `workspaces/`. The manifest says where the run stands (running, completed, interrupted, failed) and with
 * which config, secrets masked.
 */
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../checkpoint/index.js";
import {
  dumpVerificationConfig,
  type ModelIdentity,
  modelIdentity,
  SECRET_MASK,
  type VerificationConfig,
} from "../pipeline/index.js";
import { CliUsageError } from "./cli-io.js";

/** The label a run directory's name starts with when `--run-label` is not given. */
export const DEFAULT_RUN_LABEL = "verification";

/** What `--run-label` accepts (the original's rule): a letter or digit, then letters, digits, `_`, `.`, `-`. */
export const RUN_LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The manifest's schema version. */
export const RUN_MANIFEST_SCHEMA = "1.0";

/** Where a run's files go inside its directory. */
export interface RunDirectory {
  path: string;
  label: string;
  results: string;
  manifest: string;
  traces: string;
  workspaces: string;
}

/** `20250601T140312Z`: the UTC time to the second, as run directories are named. */
export function runStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** ISO-8601 UTC to the second with `Z`, as the manifest writes times. */
const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d+Z$/, "Z");

/**
 * Where a new run directory under `root` goes (nothing is made yet: see {@link makeRunDirectory}).
 * @throws {CliUsageError} for a label the pattern refuses.
 */
export function planRunDirectory(
  root: string,
  label: string = DEFAULT_RUN_LABEL,
  now: Date = new Date(),
): RunDirectory {
  if (!RUN_LABEL_PATTERN.test(label))
    throw new CliUsageError(
      `--run-label: ${JSON.stringify(label)} is not a usable label: start with a letter or digit, then use only letters, digits, '_', '.' and '-'`,
    );
  const path = resolve(root, `${label}_${runStamp(now)}`);
  return {
    path,
    label,
    results: join(path, "results.json"),
    manifest: join(path, "run_manifest.json"),
    traces: join(path, "traces"),
    workspaces: join(path, "workspaces"),
  };
}

/**
 * Makes a planned run directory (its root too, if missing), with empty `traces/` and `workspaces/`.
 * @throws {CliUsageError} when the directory already exists: a run directory is never reused.
 */
export async function makeRunDirectory(directory: RunDirectory): Promise<void> {
  await mkdir(dirname(directory.path), { recursive: true });
  try {
    await mkdir(directory.path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new CliUsageError(
      `run directory ${directory.path} already exists: a run directory is never reused; start again in a second or give another --run-label`,
    );
  }
  await mkdir(directory.traces);
  await mkdir(directory.workspaces, { recursive: true });
}

const SECRET_KEY = /(api_key|apikey|password|secret|token)$/i;

/** A copy of `value` with the value of every key ending in api_key, apikey, password, secret or token masked. */
export function maskSecretValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecretValues);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      SECRET_KEY.test(key) && inner !== null ? SECRET_MASK : maskSecretValues(inner),
    ]),
  );
}

/** Where a run stands, as its manifest says. */
export type RunStatus = "running" | "completed" | "interrupted" | "failed";

/** `run_manifest.json` (schema 1.0). */
export interface RunManifest {
  schema_version: string;
  status: RunStatus;
  label: string;
  run_name: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  benchmark_path: string;
  selected_question_count: number;
  replicate_count: number;
  answering_models: ModelIdentity[];
  parsing_models: ModelIdentity[];
  configuration: unknown;
  results_path: string;
  traces_path: string;
  workspaces_path: string;
  failure_type: string | null;
  failure_message: string | null;
}

/** What the manifest is written from when the run starts. */
export interface RunManifestStart {
  benchmarkPath: string;
  selectedQuestions: number;
  config: VerificationConfig;
}

/** How a run ended, for its manifest. */
export interface RunManifestEnd {
  status: Exclude<RunStatus, "running">;
  runName?: string | null;
  error?: unknown;
}

/** Writes a run directory's manifest as the run starts, and again when it ends. */
export class RunManifestWriter {
  #manifest: RunManifest;

  private constructor(
    readonly directory: RunDirectory,
    manifest: RunManifest,
    private readonly clock: () => Date,
  ) {
    this.#manifest = manifest;
  }

  /** Writes the manifest of a run that starts now (status `running`). */
  static async start(
    directory: RunDirectory,
    start: RunManifestStart,
    clock: () => Date = () => new Date(),
  ): Promise<RunManifestWriter> {
    const now = isoSeconds(clock());
    const { config } = start;
    const writer = new RunManifestWriter(
      directory,
      {
        schema_version: RUN_MANIFEST_SCHEMA,
        status: "running",
        label: directory.label,
        run_name: null,
        created_at: now,
        updated_at: now,
        completed_at: null,
        benchmark_path: resolve(start.benchmarkPath),
        selected_question_count: start.selectedQuestions,
        replicate_count: config.replicate_count,
        answering_models: config.answering_models.map((model) => modelIdentity(model, "answering")),
        parsing_models: config.parsing_models.map((model) => modelIdentity(model, "parsing")),
        configuration: maskSecretValues(dumpVerificationConfig(config)),
        results_path: directory.results,
        traces_path: directory.traces,
        workspaces_path: directory.workspaces,
        failure_type: null,
        failure_message: null,
      },
      clock,
    );
    await writer.#write();
    return writer;
  }

  get manifest(): Readonly<RunManifest> {
    return this.#manifest;
  }

  /** Records how the run ended: completed, interrupted (Ctrl-C), or failed with its error. */
  async finish(end: RunManifestEnd): Promise<void> {
    const now = isoSeconds(this.clock());
    const error = end.error;
    this.#manifest = {
      ...this.#manifest,
      status: end.status,
      run_name: end.runName ?? this.#manifest.run_name,
      updated_at: now,
      completed_at: end.status === "completed" ? now : null,
      failure_type:
        error === undefined ? null : error instanceof Error ? error.constructor.name : typeof error,
      failure_message: error === undefined ? null : error instanceof Error ? error.message : String(error),
    };
    await this.#write();
  }

  async #write(): Promise<void> {
    await writeFileAtomic(this.directory.manifest, `${JSON.stringify(this.#manifest, null, 2)}\n`);
  }
}
