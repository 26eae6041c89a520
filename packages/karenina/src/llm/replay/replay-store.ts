/**
 * The replay store (spec 05 §8.2): captured answers looked up by question (or scenario node), answering
 * model, visit and replicate, most specific first; saved as a versioned JSON file.
 */
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { jsonPath, writeFileAtomic } from "../../checkpoint/index.js";
import { describeValue, schemaProblems } from "../../errors/index.js";
import { canonicalJson } from "../cache/index.js";
import { ReplayFileError, ReplayMissError } from "./errors.js";
import {
  type MissPolicy,
  MissPolicySchema,
  REPLAY_FILE_VERSION,
  type ReplayEntry,
  type ReplayEntryInput,
  ReplayEntrySchema,
  type ReplayFile,
  ReplayFileSchema,
  type ReplayKey,
  type ReplayKeyInput,
  ReplayKeySchema,
} from "./replay-schema.js";

/** One registered entry with its key. */
export interface ReplayRecord {
  key: ReplayKey;
  entry: ReplayEntry;
}

/** Options of {@link ReplayStore.load}. */
export interface ReplayLoadOptions {
  /** Replaces the policy stored in the file. */
  missPolicy?: MissPolicy;
}

/** The axis of an index: a question in QA mode, a scenario node in scenario mode. */
function baseOf(key: ReplayKey): string {
  return key.scenario_id === null
    ? canonicalJson(["qa", key.question_id])
    : canonicalJson(["scenario", key.scenario_id, key.scenario_node]);
}

function slot(base: string, model: string | null, visit: number | null, replicate: number | null): string {
  return `${base}\u0000${canonicalJson([model, visit, replicate])}`;
}

function slotOf(key: ReplayKey): string {
  return slot(baseOf(key), key.answering_model_id, key.visit_index, key.replicate);
}

/** `[value, null]`, or just `[null]` when the request's axis is null (the rung would repeat). */
function rungs<T>(value: T | null): (T | null)[] {
  return value === null ? [null] : [value, null];
}

function describeKey(key: ReplayKey): string {
  const parts =
    key.scenario_id === null
      ? [`question ${key.question_id}`]
      : [`scenario ${key.scenario_id} node ${key.scenario_node ?? "(none)"}`];
  if (key.answering_model_id !== null) parts.push(`answering model ${key.answering_model_id}`);
  if (key.visit_index !== null) parts.push(`visit ${key.visit_index}`);
  if (key.replicate !== null) parts.push(`replicate ${key.replicate}`);
  return parts.join(", ");
}

/** Plain objects rebuilt with sorted keys at every depth, for the file's `sort_keys` layout. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * Captured answers, replayed instead of calling the answering model.
 *
 * Register entries before a run, not during one. A lookup tries, most specific first (∗ = an entry
 * registered with a null, i.e. wildcard, axis): (M,V,R), (M,V,∗), (M,∗,R), (M,∗,∗), (∗,V,R), (∗,V,∗),
 * (∗,∗,R), (∗,∗,∗) for answering model M, visit V and replicate R, skipping rungs that repeat because the
 * request's axis is null.
 * @example
 * const store = new ReplayStore({ missPolicy: "fall_through" });
 * store.register({ question_id: "q1" }, { raw_trace: "--- AI Message ---\nParis" });
 * store.lookup({ question_id: "q1", answering_model_id: "langchain:gpt-5", replicate: 2 })?.raw_trace; // "--- AI Message ---\nParis"
 * store.lookup({ question_id: "q2" }); // null
 */
export class ReplayStore {
  readonly missPolicy: MissPolicy;
  /** Entries by the canonical JSON of their full key, in registration order. */
  readonly #entries = new Map<string, ReplayRecord>();
  #index = new Map<string, ReplayEntry>();
  readonly #warnings: string[] = [];

  constructor(options: { missPolicy?: MissPolicy } = {}) {
    this.missPolicy = MissPolicySchema.parse(options.missPolicy ?? "fall_through");
  }

  /** How many entries are registered. */
  get size(): number {
    return this.#entries.size;
  }

  /** The warnings of every overwriting `register`, in order. */
  get warnings(): readonly string[] {
    return this.#warnings;
  }

  /** Every entry with its key, in registration order (an overwritten key keeps its first position). */
  entries(): ReplayRecord[] {
    return [...this.#entries.values()];
  }

  /**
   * Registers an entry; returns a warning (also kept in {@link warnings}) when it replaces the entry of the
   * same key, else null.
   * @throws {ReplayFileError} when the key or entry does not match the replay schema (`file` is `<register>`).
   */
  register(key: ReplayKeyInput, entry: ReplayEntryInput): string | null {
    const record = {
      key: validate(ReplayKeySchema, key, "<register>", ["key"]),
      entry: validate(ReplayEntrySchema, entry, "<register>", ["entry"]),
    };
    const id = canonicalJson(record.key);
    const replaced = this.#entries.has(id);
    this.#entries.set(id, record);
    if (!replaced) {
      this.#index.set(slotOf(record.key), record.entry);
      return null;
    }
    this.#rebuildIndex();
    const warning = `replay entry for ${describeKey(record.key)} registered again: the new entry replaces the old one`;
    this.#warnings.push(warning);
    return warning;
  }

  /**
   * The entry answering a request, most specific first (see the class comment). On a miss: null with the
   * `fall_through` policy.
   * @throws {ReplayMissError} on a miss with the `strict` policy.
   */
  lookup(request: ReplayKeyInput): ReplayEntry | null {
    const key = validate(ReplayKeySchema, request, "<lookup>", []);
    const base = baseOf(key);
    for (const model of rungs(key.answering_model_id)) {
      for (const visit of rungs(key.visit_index)) {
        for (const replicate of rungs(key.replicate)) {
          const found = this.#index.get(slot(base, model, visit, replicate));
          if (found !== undefined) return found;
        }
      }
    }
    if (this.missPolicy === "fall_through") return null;
    throw new ReplayMissError(
      `no replay entry for ${describeKey(key)} (strict replay store of ${this.size} entries)`,
      key,
    );
  }

  /**
   * Whether any entry belongs to a question (QA mode) or, when `scenario_id` is given, to that scenario
   * (and node, when given), whatever its model, visit and replicate.
   */
  hasAnyFor(target: {
    question_id?: string;
    scenario_id?: string | null;
    scenario_node?: string | null;
  }): boolean {
    for (const { key } of this.#entries.values()) {
      if (target.scenario_id != null) {
        if (key.scenario_id !== target.scenario_id) continue;
        if (target.scenario_node != null && key.scenario_node !== target.scenario_node) continue;
        return true;
      }
      if (key.scenario_id === null && key.question_id === target.question_id) return true;
    }
    return false;
  }

  /** The file's JSON text: `{entries, miss_policy, version}` with keys sorted at every depth, 2-space indent. */
  serialize(): string {
    const file: ReplayFile = {
      version: REPLAY_FILE_VERSION,
      miss_policy: this.missPolicy,
      entries: this.entries(),
    };
    return JSON.stringify(sortedKeys(file), null, 2);
  }

  /**
   * Saves the store atomically (a temporary file, then a rename): the previous file survives a failure.
   * @throws {ReplayFileError} when the file cannot be written.
   */
  async save(path: string): Promise<void> {
    try {
      await writeFileAtomic(path, this.serialize());
    } catch (error) {
      throw ReplayFileError.writeFailed(
        path,
        (reason) => `cannot save the replay store (${reason}); the previous file is unchanged`,
        error,
      );
    }
  }

  /**
   * Loads a replay file.
   * @throws {ReplayFileError} naming the file and the JSON path when the file cannot be read, is not JSON,
   * has another version than 1, or does not match the format.
   */
  static async load(path: string, options: ReplayLoadOptions = {}): Promise<ReplayStore> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ReplayFileError(path, "$", `cannot read the replay store (${reason})`, { cause: error });
    }
    return ReplayStore.parse(text, path, options);
  }

  /** Reads the text of a replay file (see {@link ReplayStore.load}); `file` names it in errors. */
  static parse(text: string, file = "<replay store>", options: ReplayLoadOptions = {}): ReplayStore {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ReplayFileError(file, "$", `not valid JSON (${(error as Error).message})`);
    }
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      throw new ReplayFileError(
        file,
        "$",
        `expected an object {version, miss_policy, entries}, found ${describeValue(data)}`,
      );
    }
    const version = (data as Record<string, unknown>).version;
    if (version !== REPLAY_FILE_VERSION) {
      throw new ReplayFileError(
        file,
        "$.version",
        version === undefined
          ? "missing version (this library reads version 1)"
          : `unsupported version ${describeValue(version)} (this library reads version 1)`,
      );
    }
    const parsed = validate(ReplayFileSchema, data, file, []);
    const store = new ReplayStore({ missPolicy: options.missPolicy ?? parsed.miss_policy });
    for (const { key, entry } of parsed.entries) store.register(key, entry);
    return store;
  }

  #rebuildIndex(): void {
    const index = new Map<string, ReplayEntry>();
    for (const { key, entry } of this.#entries.values()) {
      index.set(slotOf(key), entry);
    }
    this.#index = index;
  }
}

function validate<T>(schema: z.ZodType<T>, value: unknown, file: string, prefix: readonly PropertyKey[]): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [problem] = schemaProblems(result.error, value);
  throw new ReplayFileError(
    file,
    jsonPath([...prefix, ...(problem?.path ?? [])]),
    problem?.message ?? "invalid",
  );
}
