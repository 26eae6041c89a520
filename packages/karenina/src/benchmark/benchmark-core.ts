import { resolve } from "node:path";
import {
  CheckpointError,
  checkNesting,
  type DataFeed,
  type DataFeedItem,
  type ItemLocation,
  isGlobalTraitRating,
  type PropertyValue,
  property,
  type Rating,
  ratingToTrait,
  readLegacyGlobalTraits,
  readQuestion,
  removeProperty,
  type SerializeCheckpointOptions,
  serializeCheckpoint,
  stripDeepJudgment,
  upsertProperty,
  writeCheckpointFile,
} from "../checkpoint/index.js";
import {
  checkpointId,
  isRealTemplate,
  pythonIsoTimestamp,
  type QuestionRecord,
  type QuestionRegistryEntry,
  questionUrn,
  type Rubric,
  type RubricTrait,
  rubricFromTraits,
} from "../model/index.js";
import { setOwn } from "../plain-data/index.js";
import type { PythonSandbox } from "../sandbox/index.js";
import {
  decodeScenario,
  encodeScenario,
  type ScenarioDefinition,
  type ScenarioLocation,
} from "../scenario/index.js";
import { createTemplateSandbox, type TemplateIsolation } from "../templates/index.js";
import { QuestionNotFoundError } from "./errors.js";
import type { QueryRow } from "./queries.js";
import type { BenchmarkOptions, SaveOptions } from "./types.js";

const FORMAT_VERSION = "3.0.0-jsonld";

/** Scenarios (root `hasPart`) are written as the original writes them: key order, nulls, Python floats. */
/**
 * Scenarios decoded from their checkpoint entries, by entry: an entry (never changed in place) is decoded once,
 * at load or when added, whoever reads it next (the scenario methods, a save). A scenario added in memory keeps
 * its TypeScript callables here, though the checkpoint cannot hold them.
 */
const decodedScenarios = new WeakMap<object, ScenarioDefinition>();

/** The definition of a root `hasPart` entry; `location` names it in errors when it is decoded now. */
export function decodedScenario(entry: object, location?: ScenarioLocation): ScenarioDefinition {
  let definition = decodedScenarios.get(entry);
  if (definition === undefined) {
    definition = decodeScenario(entry, location);
    decodedScenarios.set(entry, definition);
  }
  return definition;
}

/** Remembers the definition an entry was encoded from (see {@link decodedScenario}). */
export function rememberScenario(entry: object, definition: ScenarioDefinition): void {
  decodedScenarios.set(entry, definition);
}

const SCENARIOS_AS_WRITTEN: SerializeCheckpointOptions = {
  scenario: (entry, float) => encodeScenario(decodedScenario(entry as object), { float }),
};

/** The name of a benchmark held in memory only, in error messages. */
export const IN_MEMORY = "<benchmark>";

/** One question: its checkpoint item, the record read from it, and its registry entry. */
export interface Entry {
  element: DataFeedItem;
  record: QuestionRecord;
  registry: QuestionRegistryEntry;
}

/** What `Benchmark.fromCheckpoint` hands the constructor. */
export interface LoadedState {
  readonly doc: DataFeed;
  readonly file: string;
  readonly workspaceRoot: string | null;
  readonly isolation: TemplateIsolation;
}

/** Where an in-memory question is, for error messages. */
export function inMemory(id: string): ItemLocation {
  return { file: IN_MEMORY, path: `$.dataFeedElement[?(@["@id"]==${JSON.stringify(id)})]` };
}

function isLoadedState(value: BenchmarkOptions | LoadedState): value is LoadedState {
  return "doc" in value;
}

/**
 * The state every concern of a benchmark works on (the checkpoint document, the question index, the global
 * rubric cache, the sandbox) and what reads it whole: saving, metadata, benchmark-level properties, counts.
 * The concerns stack on it: questions, templates, rubrics, reports, then `Benchmark` itself.
 */
export abstract class BenchmarkCore {
  protected readonly doc: DataFeed;
  protected readonly entries = new Map<string, Entry>();
  protected root: string | null;
  protected globalRubricCache: Rubric | null | undefined;
  readonly #isolation: TemplateIsolation;
  #pythonSandbox: PythonSandbox | null = null;

  constructor(options: BenchmarkOptions | LoadedState) {
    this.#isolation = options.isolation ?? "checkpoint";
    if (isLoadedState(options)) {
      this.doc = options.doc;
      this.root = options.workspaceRoot;
      this.#indexQuestions(options.file);
      this.#checkScenarios(options.file);
      this.globalRubricCache = this.readGlobalRubric(options.file);
      return;
    }
    const now = new Date();
    const stamp = pythonIsoTimestamp(now);
    this.doc = {
      "@context": {},
      "@type": "DataFeed",
      "@id": checkpointId(now),
      name: options.name,
      description: options.description ? options.description : "Benchmark containing questions",
      version: options.version ?? "0.1.0",
      creator: options.creator ?? "Karenina Benchmarking System",
      dateCreated: stamp,
      dateModified: stamp,
      dataFeedElement: [],
      additionalProperty: [property("benchmark_format_version", FORMAT_VERSION)],
    };
    this.root = options.workspaceRoot ?? null;
    this.globalRubricCache = null;
  }

  /**
   * Saves atomically (temporary file, then rename): a failed save leaves the previous file as it was.
   * An extension other than `.jsonld` or `.json` becomes `.jsonld`, as in the original. Returns the path written.
   */
  async save(path: string, options: SaveOptions = {}): Promise<string> {
    this.doc.dateModified = pythonIsoTimestamp();
    return writeCheckpointFile(path, this.#savedDocument(options), SCENARIOS_AS_WRITTEN);
  }

  /** The checkpoint text `save` would write. */
  serialize(options: SaveOptions = {}): string {
    return serializeCheckpoint(this.#savedDocument(options), IN_MEMORY, SCENARIOS_AS_WRITTEN);
  }

  /** Reads every scenario of a loaded checkpoint (root `hasPart`), so a bad one fails the load, naming it. */
  #checkScenarios(file: string): void {
    (this.doc.hasPart ?? []).forEach((entry, index) => {
      decodedScenario(entry, { file, path: `$.hasPart[${index}]` });
    });
  }

  /** A deep copy of the checkpoint document as it would be saved. */
  toCheckpoint(options: SaveOptions = {}): DataFeed {
    const doc = this.#savedDocument(options);
    checkNesting(doc, IN_MEMORY, "copy"); // structuredClone would overflow the stack on a too-deep value
    return structuredClone(doc);
  }

  #savedDocument(options: SaveOptions): DataFeed {
    if (options.saveDeepJudgmentConfig) return this.doc;
    const strip = (ratings: Rating[] | undefined) => ratings?.map(stripDeepJudgment);
    return {
      ...this.doc,
      rating: strip(this.doc.rating),
      dataFeedElement: this.doc.dataFeedElement.map((element) =>
        element.item.rating
          ? { ...element, item: { ...element.item, rating: strip(element.item.rating) } }
          : element,
      ),
    };
  }

  // ── indexing ────────────────────────────────────────────────────────────────────────────────────────

  #indexQuestions(file: string): void {
    this.doc.dataFeedElement.forEach((element, index) => {
      const id = element["@id"] ?? questionUrn(element.item.text);
      if (this.entries.has(id)) {
        throw CheckpointError.expected(
          file,
          `$.dataFeedElement[${index}]`,
          "a question with a unique id",
          id,
        );
      }
      this.entries.set(id, this.entryFor(id, element, { file, path: `$.dataFeedElement[${index}]` }));
    });
  }

  protected entryFor(id: string, element: DataFeedItem, at: ItemLocation): Entry {
    const { record, finished } = readQuestion(id, element, at);
    return {
      element,
      record,
      registry: { finished, date_added: element.dateCreated, date_modified: element.dateModified },
    };
  }

  /** Rebuilds a question's record after its item changed. */
  protected refresh(id: string, entry: Entry): void {
    entry.record = readQuestion(id, entry.element, inMemory(id)).record;
  }

  /** @throws {QuestionNotFoundError} for an unknown id. */
  protected entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new QuestionNotFoundError(id);
    return entry;
  }

  protected touch(now = pythonIsoTimestamp()): void {
    this.doc.dateModified = now;
  }

  protected touchQuestion(entry: Entry, now = pythonIsoTimestamp()): void {
    entry.element.dateModified = now;
    this.touch(now);
  }

  protected rows(): QueryRow[] {
    const rows: QueryRow[] = [];
    for (const entry of this.entries.values()) rows.push(this.row(entry));
    return rows;
  }

  protected row(entry: Entry): QueryRow {
    return {
      record: entry.record,
      finished: entry.registry.finished,
      hasTemplate: isRealTemplate(entry.record.answer_template, entry.record.question),
    };
  }

  protected readGlobalRubric(file: string): Rubric | null {
    const traits: RubricTrait[] = [];
    this.doc.rating?.forEach((rating, index) => {
      if (isGlobalTraitRating(rating))
        traits.push(ratingToTrait(rating, { file, jsonPath: `$.rating[${index}]` }).trait);
    });
    traits.push(...readLegacyGlobalTraits(this.doc.additionalProperty ?? [], file));
    return traits.length > 0 ? rubricFromTraits(traits) : null;
  }

  // ── metadata ────────────────────────────────────────────────────────────────────────────────────────

  get name(): string {
    return this.doc.name;
  }
  set name(value: string) {
    this.doc.name = value;
    this.touch();
  }
  get description(): string {
    return this.doc.description ?? "";
  }
  set description(value: string) {
    this.doc.description = value;
    this.touch();
  }
  get version(): string {
    return this.doc.version ?? "0.1.0";
  }
  set version(value: string) {
    this.doc.version = value;
    this.touch();
  }
  /** The creator's name (a Person object's `name` when the file holds one). */
  get creator(): string {
    const creator = this.doc.creator;
    if (creator === undefined) return "Unknown";
    return typeof creator === "string" ? creator : creator.name;
  }
  set creator(value: string) {
    this.doc.creator = value;
    this.touch();
  }
  get id(): string | null {
    return this.doc["@id"] ?? null;
  }
  set id(value: string) {
    this.doc["@id"] = value;
    this.touch();
  }
  get createdAt(): string {
    return this.doc.dateCreated;
  }
  get modifiedAt(): string {
    return this.doc.dateModified;
  }

  /** Sets several metadata fields at once and bumps the modification date. */
  setMetadata(
    metadata: Partial<Pick<BenchmarkOptions, "name" | "description" | "version" | "creator">>,
  ): void {
    for (const key of ["name", "description", "version", "creator"] as const) {
      const value = metadata[key];
      if (value !== undefined) this.doc[key] = value;
    }
    this.touch();
  }

  get workspaceRoot(): string | null {
    return this.root;
  }
  set workspaceRoot(root: string | null) {
    this.root = root;
  }

  /** The absolute workspace directory of a question, or null when it has no `workspace_path` or no root is set. */
  resolveWorkspace(questionId: string): string | null {
    const path = this.entry(questionId).record.workspace_path;
    if (path === null || this.root === null) return null;
    return resolve(this.root, path);
  }

  get questionCount(): number {
    return this.entries.size;
  }
  get finishedCount(): number {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.registry.finished) count++;
    return count;
  }
  get isEmpty(): boolean {
    return this.entries.size === 0 && (this.doc.hasPart?.length ?? 0) === 0;
  }
  /** Not empty, and every question is finished with a non-empty template (the placeholder counts, as in the original). */
  get isComplete(): boolean {
    if (this.entries.size === 0) return false;
    for (const entry of this.entries.values()) {
      if (!entry.registry.finished || entry.record.answer_template === "") return false;
    }
    return true;
  }
  /** Percentage of finished questions (0 when empty). */
  getProgress(): number {
    return this.entries.size === 0 ? 0 : (this.finishedCount / this.entries.size) * 100;
  }

  // ── custom properties (benchmark level) ─────────────────────────────────────────────────────────────

  #rootProperties(): PropertyValue[] {
    this.doc.additionalProperty ??= [];
    return this.doc.additionalProperty;
  }
  getCustomProperty(name: string): unknown {
    return this.doc.additionalProperty?.find((p) => p.name === name)?.value ?? null;
  }
  setCustomProperty(name: string, value: unknown): void {
    upsertProperty(this.#rootProperties(), name, value);
    this.touch();
  }
  removeCustomProperty(name: string): boolean {
    const removed = removeProperty(this.#rootProperties(), name);
    if (removed) this.touch();
    return removed;
  }
  /** Every benchmark-level property, `benchmark_format_version` included (as in the original). */
  getAllCustomProperties(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of this.doc.additionalProperty ?? []) setOwn(out, p.name, p.value ?? null);
    return out;
  }
  setMultipleCustomProperties(properties: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(properties))
      upsertProperty(this.#rootProperties(), name, value);
    this.touch();
  }

  // ── sandbox ─────────────────────────────────────────────────────────────────────────────────────────

  /**
   * The benchmark's own Python sandbox (a benchmark is a trust domain): its templates and callable traits run
   * there, never in another benchmark's interpreter. Its process starts at the first Python code and does not
   * keep the host alive while idle; {@link close} stops it.
   */
  get pythonSandbox(): PythonSandbox {
    this.#pythonSandbox ??= createTemplateSandbox(this.#isolation);
    return this.#pythonSandbox;
  }

  /** The isolation of the benchmark's Python code (see `TemplateIsolation`). */
  get isolation(): TemplateIsolation {
    return this.#isolation;
  }

  /** Stops the benchmark's sandbox process, if it started; a later Python call starts a new one. */
  async close(): Promise<void> {
    const sandbox = this.#pythonSandbox;
    this.#pythonSandbox = null;
    await sandbox?.close();
  }
}
