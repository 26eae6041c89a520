import { resolve } from "node:path";
import {
  CheckpointError,
  checkNesting,
  customPropertyName,
  type DataFeed,
  type DataFeedItem,
  type ItemLocation,
  isGlobalTraitRating,
  type PropertyValue,
  parseCheckpoint,
  property,
  type Rating,
  ratingToTrait,
  readCheckpointFile,
  readLegacyGlobalTraits,
  readQuestion,
  removeProperty,
  type SchemaOrgQuestion,
  serializeCheckpoint,
  stripDeepJudgment,
  type TemplateLanguage,
  traitToRating,
  upsertProperty,
  workspacePathProblem,
  writeCheckpointFile,
} from "../checkpoint/index.js";
import {
  checkpointId,
  defaultTemplate,
  isRealTemplate,
  type MergedRubric,
  mergeRubrics,
  parseRubric,
  parseRubricTrait,
  pythonIsoTimestamp,
  Question,
  type QuestionRecord,
  type QuestionRegistryEntry,
  questionUrn,
  type Rubric,
  type RubricInput,
  type RubricTrait,
  type RubricTraitInput,
  rubricFromTraits,
  rubricTraits,
  toPythonRubricDump,
  uniqueId,
  validateRubricForReadiness,
} from "../model/index.js";
import type {
  PipelineQuestion,
  RunVerificationOptions,
  VerificationConfig,
  VerificationRun,
} from "../pipeline/index.js";
import { ownValue, setOwn } from "../plain-data/index.js";
import type { PythonSandbox } from "../sandbox/index.js";
import {
  type AnswerTemplate,
  createTemplateSandbox,
  loadTemplate,
  type TemplateInput,
  type TemplateIsolation,
  templateCode,
  templateProblem,
} from "../templates/index.js";
import {
  BenchmarkUsageError,
  DuplicateQuestionError,
  MissingTemplateError,
  QuestionNotFoundError,
} from "./errors.js";
import { pipelineQuestions } from "./pipeline-questions.js";
import {
  countByField,
  filterByCustomMetadata,
  filterByField,
  filterRows,
  type MatchMode,
  type QueryRow,
  type QuestionFilter,
  type SearchOptions,
  searchRows,
} from "./queries.js";
import { newItem, templateName } from "./question-items.js";
import {
  healthRecommendations,
  healthScore,
  healthStatus,
  type ReadinessReport,
  type RubricProblem,
  readinessReport,
  type TemplateProblem,
} from "./readiness.js";
import type {
  AddQuestionOptions,
  BenchmarkOptions,
  BenchmarkStatistics,
  BenchmarkSummary,
  FinishedTemplate,
  HealthReport,
  LoadOptions,
  QuestionMetadata,
  QuestionMetadataUpdate,
  QuestionRecordInput,
  SaveOptions,
} from "./types.js";

/**
 * Checks one template; resolves to null when it is valid, else to what is wrong. The default loads the template
 * in its sandbox (spec 02 §8), running its ground-truth code but not `verify`.
 */
export type TemplateValidator = (code: string, language: TemplateLanguage) => Promise<string | null>;

const FORMAT_VERSION = "3.0.0-jsonld";
const IN_MEMORY = "<benchmark>";

interface Entry {
  element: DataFeedItem;
  record: QuestionRecord;
  registry: QuestionRegistryEntry;
}

interface LoadedState {
  readonly doc: DataFeed;
  readonly file: string;
  readonly workspaceRoot: string | null;
  readonly isolation: TemplateIsolation;
}

/** Where an in-memory question is, for error messages. */
function inMemory(id: string): ItemLocation {
  return { file: IN_MEMORY, path: `$.dataFeedElement[?(@["@id"]==${JSON.stringify(id)})]` };
}

function isLoadedState(value: BenchmarkOptions | LoadedState): value is LoadedState {
  return "doc" in value;
}

/** Traits given as a rubric or a list, validated; null gives none. */
function traitsOf(rubric: RubricInput | readonly RubricTraitInput[] | null): RubricTrait[] {
  if (rubric === null) return [];
  const traits = Array.isArray(rubric)
    ? rubric.map((trait) => parseRubricTrait(trait))
    : rubricTraits(parseRubric(rubric));
  rubricFromTraits(traits);
  return traits;
}

/** Options of {@link Benchmark.runVerification}: the run's, and which questions it verifies. */
export type BenchmarkRunOptions = RunVerificationOptions & {
  /** Only these questions (finished ones); default every finished question. */
  questionIds?: readonly string[];
  /** The questions to verify, as `selectQuestions` chose them; `questionIds` is then not used. */
  questions?: readonly PipelineQuestion[];
};

/**
 * A benchmark: questions with their templates and rubric traits, plus metadata, kept as a JSON-LD checkpoint
 * that the original Python Karenina reads and writes too.
 *
 * Methods mirror the original's API in camelCase; records (questions, reports) keep its snake_case keys so
 * they serialize to the same JSON.
 *
 * @example
 * const bench = Benchmark.create({ name: "Drug targets", version: "1.0.0" });
 * const id = bench.addQuestion("What is the putative target of venetoclax?", "BCL2 (B-cell lymphoma 2)");
 * bench.size; // 1
 * bench.hasTemplate(id); // false: the question holds the default placeholder
 */
export class Benchmark implements Iterable<QuestionRecord> {
  readonly #doc: DataFeed;
  readonly #entries = new Map<string, Entry>();
  #workspaceRoot: string | null;
  #globalRubric: Rubric | null | undefined;
  readonly #isolation: TemplateIsolation;
  #pythonSandbox: PythonSandbox | null = null;

  constructor(options: BenchmarkOptions);
  constructor(options: BenchmarkOptions | LoadedState) {
    this.#isolation = options.isolation ?? "checkpoint";
    if (isLoadedState(options)) {
      this.#doc = options.doc;
      this.#workspaceRoot = options.workspaceRoot;
      this.#indexQuestions(options.file);
      this.#globalRubric = this.#readGlobalRubric(options.file);
      return;
    }
    const now = new Date();
    const stamp = pythonIsoTimestamp(now);
    this.#doc = {
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
    this.#workspaceRoot = options.workspaceRoot ?? null;
    this.#globalRubric = null;
  }

  /** Same as `new Benchmark(options)`. */
  static create(options: BenchmarkOptions): Benchmark {
    return new Benchmark(options);
  }

  /**
   * Loads a checkpoint written by this project or by the original Python framework.
   * @throws {CheckpointError} naming the file, the JSON path and what was expected.
   * @example
   * const bench = await Benchmark.load("drug-targets.jsonld", { workspaceRoot: "./workspaces" });
   */
  static async load(path: string, options: LoadOptions = {}): Promise<Benchmark> {
    const doc = await readCheckpointFile(path);
    return Benchmark.fromCheckpoint(doc, { ...options, file: path });
  }

  /** Builds a benchmark from checkpoint text already in memory (`file` names it in errors). */
  static parse(text: string, options: LoadOptions & { file?: string } = {}): Benchmark {
    const file = options.file ?? IN_MEMORY;
    return Benchmark.fromCheckpoint(parseCheckpoint(text, file), { ...options, file });
  }

  /** Wraps a validated checkpoint document; the benchmark owns it from then on. */
  static fromCheckpoint(doc: DataFeed, options: LoadOptions & { file?: string } = {}): Benchmark {
    const state: LoadedState = {
      doc,
      file: options.file ?? IN_MEMORY,
      workspaceRoot: options.workspaceRoot ?? null,
      isolation: options.isolation ?? "checkpoint",
    };
    return new (Benchmark as unknown as new (state: LoadedState) => Benchmark)(state);
  }

  /**
   * Saves atomically (temporary file, then rename): a failed save leaves the previous file as it was.
   * An extension other than `.jsonld` or `.json` becomes `.jsonld`, as in the original. Returns the path written.
   */
  async save(path: string, options: SaveOptions = {}): Promise<string> {
    this.#doc.dateModified = pythonIsoTimestamp();
    return writeCheckpointFile(path, this.#savedDocument(options));
  }

  /** The checkpoint text `save` would write. */
  serialize(options: SaveOptions = {}): string {
    return serializeCheckpoint(this.#savedDocument(options));
  }

  /** A deep copy of the checkpoint document as it would be saved. */
  toCheckpoint(options: SaveOptions = {}): DataFeed {
    const doc = this.#savedDocument(options);
    checkNesting(doc, IN_MEMORY, "copy"); // structuredClone would overflow the stack on a too-deep value
    return structuredClone(doc);
  }

  /** A deep, independent copy (deep-judgment settings included; workspace root kept). */
  clone(): Benchmark {
    checkNesting(this.#doc, IN_MEMORY, "copy");
    return Benchmark.fromCheckpoint(structuredClone(this.#doc), {
      workspaceRoot: this.#workspaceRoot,
      isolation: this.#isolation,
    });
  }

  #savedDocument(options: SaveOptions): DataFeed {
    if (options.saveDeepJudgmentConfig) return this.#doc;
    const strip = (ratings: Rating[] | undefined) => ratings?.map(stripDeepJudgment);
    return {
      ...this.#doc,
      rating: strip(this.#doc.rating),
      dataFeedElement: this.#doc.dataFeedElement.map((element) =>
        element.item.rating
          ? { ...element, item: { ...element.item, rating: strip(element.item.rating) } }
          : element,
      ),
    };
  }

  // ── indexing ────────────────────────────────────────────────────────────────────────────────────────

  #indexQuestions(file: string): void {
    this.#doc.dataFeedElement.forEach((element, index) => {
      const id = element["@id"] ?? questionUrn(element.item.text);
      if (this.#entries.has(id)) {
        throw CheckpointError.expected(
          file,
          `$.dataFeedElement[${index}]`,
          "a question with a unique id",
          id,
        );
      }
      this.#entries.set(id, this.#entryFor(id, element, { file, path: `$.dataFeedElement[${index}]` }));
    });
  }

  #entryFor(id: string, element: DataFeedItem, at: ItemLocation): Entry {
    const { record, finished } = readQuestion(id, element, at);
    return {
      element,
      record,
      registry: { finished, date_added: element.dateCreated, date_modified: element.dateModified },
    };
  }

  /** Rebuilds a question's record after its item changed. */
  #refresh(id: string, entry: Entry): void {
    entry.record = readQuestion(id, entry.element, inMemory(id)).record;
  }

  #entry(id: string): Entry {
    const entry = this.#entries.get(id);
    if (!entry) throw new QuestionNotFoundError(id);
    return entry;
  }

  #touch(now = pythonIsoTimestamp()): void {
    this.#doc.dateModified = now;
  }

  #touchQuestion(entry: Entry, now = pythonIsoTimestamp()): void {
    entry.element.dateModified = now;
    this.#touch(now);
  }

  #rows(): QueryRow[] {
    const rows: QueryRow[] = [];
    for (const entry of this.#entries.values()) rows.push(this.#row(entry));
    return rows;
  }

  #row(entry: Entry): QueryRow {
    return {
      record: entry.record,
      finished: entry.registry.finished,
      hasTemplate: isRealTemplate(entry.record.answer_template, entry.record.question),
    };
  }

  // ── metadata ────────────────────────────────────────────────────────────────────────────────────────

  get name(): string {
    return this.#doc.name;
  }
  set name(value: string) {
    this.#doc.name = value;
    this.#touch();
  }
  get description(): string {
    return this.#doc.description ?? "";
  }
  set description(value: string) {
    this.#doc.description = value;
    this.#touch();
  }
  get version(): string {
    return this.#doc.version ?? "0.1.0";
  }
  set version(value: string) {
    this.#doc.version = value;
    this.#touch();
  }
  /** The creator's name (a Person object's `name` when the file holds one). */
  get creator(): string {
    const creator = this.#doc.creator;
    if (creator === undefined) return "Unknown";
    return typeof creator === "string" ? creator : creator.name;
  }
  set creator(value: string) {
    this.#doc.creator = value;
    this.#touch();
  }
  get id(): string | null {
    return this.#doc["@id"] ?? null;
  }
  set id(value: string) {
    this.#doc["@id"] = value;
    this.#touch();
  }
  get createdAt(): string {
    return this.#doc.dateCreated;
  }
  get modifiedAt(): string {
    return this.#doc.dateModified;
  }

  /** Sets several metadata fields at once and bumps the modification date. */
  setMetadata(
    metadata: Partial<Pick<BenchmarkOptions, "name" | "description" | "version" | "creator">>,
  ): void {
    for (const key of ["name", "description", "version", "creator"] as const) {
      const value = metadata[key];
      if (value !== undefined) this.#doc[key] = value;
    }
    this.#touch();
  }

  get workspaceRoot(): string | null {
    return this.#workspaceRoot;
  }
  set workspaceRoot(root: string | null) {
    this.#workspaceRoot = root;
  }

  /** The absolute workspace directory of a question, or null when it has no `workspace_path` or no root is set. */
  resolveWorkspace(questionId: string): string | null {
    const path = this.#entry(questionId).record.workspace_path;
    if (path === null || this.#workspaceRoot === null) return null;
    return resolve(this.#workspaceRoot, path);
  }

  get questionCount(): number {
    return this.#entries.size;
  }
  get finishedCount(): number {
    let count = 0;
    for (const entry of this.#entries.values()) if (entry.registry.finished) count++;
    return count;
  }
  get isEmpty(): boolean {
    return this.#entries.size === 0 && (this.#doc.hasPart?.length ?? 0) === 0;
  }
  /** Not empty, and every question is finished with a non-empty template (the placeholder counts, as in the original). */
  get isComplete(): boolean {
    if (this.#entries.size === 0) return false;
    for (const entry of this.#entries.values()) {
      if (!entry.registry.finished || entry.record.answer_template === "") return false;
    }
    return true;
  }
  /** Percentage of finished questions (0 when empty). */
  getProgress(): number {
    return this.#entries.size === 0 ? 0 : (this.finishedCount / this.#entries.size) * 100;
  }

  // ── custom properties (benchmark level) ─────────────────────────────────────────────────────────────

  #rootProperties(): PropertyValue[] {
    this.#doc.additionalProperty ??= [];
    return this.#doc.additionalProperty;
  }
  getCustomProperty(name: string): unknown {
    return this.#doc.additionalProperty?.find((p) => p.name === name)?.value ?? null;
  }
  setCustomProperty(name: string, value: unknown): void {
    upsertProperty(this.#rootProperties(), name, value);
    this.#touch();
  }
  removeCustomProperty(name: string): boolean {
    const removed = removeProperty(this.#rootProperties(), name);
    if (removed) this.#touch();
    return removed;
  }
  /** Every benchmark-level property, `benchmark_format_version` included (as in the original). */
  getAllCustomProperties(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of this.#doc.additionalProperty ?? []) setOwn(out, p.name, p.value ?? null);
    return out;
  }
  setMultipleCustomProperties(properties: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(properties))
      upsertProperty(this.#rootProperties(), name, value);
    this.#touch();
  }

  // ── adding and removing questions ───────────────────────────────────────────────────────────────────

  /**
   * Adds a question and returns its id. Forms:
   * - `addQuestion(text, rawAnswer, options?)`: id `urn:uuid:question-<slug>-<md5[:8]>`, made unique;
   * - `addQuestion(question: Question, options?)`: id = `question.id` (the MD5 of its text);
   * - `addQuestion(record, options?)`: the original's dict form (`{ question, raw_answer, ... }`).
   * `options.questionId` sets a custom id (refused when taken). Without a template the question gets the default
   * placeholder. As in the original, a Question's own template, rubric and dates are not copied.
   * @example
   * const bench = Benchmark.create({ name: "demo" });
   * bench.addQuestion("What is 2+2?", "4"); // "urn:uuid:question-what-is-2+2-936dbc87"
   */
  addQuestion(text: string, rawAnswer: string, options?: AddQuestionOptions): string;
  addQuestion(question: Question | QuestionRecordInput, options?: AddQuestionOptions): string;
  addQuestion(
    first: string | Question | QuestionRecordInput,
    second?: string | AddQuestionOptions,
    third?: AddQuestionOptions,
  ): string {
    if ((this.#doc.hasPart?.length ?? 0) > 0) {
      throw new BenchmarkUsageError(
        "This benchmark holds scenarios; standalone questions cannot be added to it",
      );
    }
    if (typeof first === "string") {
      if (typeof second !== "string" || second === "") {
        throw new BenchmarkUsageError("raw_answer is required when question is a string");
      }
      return this.#insert(first, second, third ?? {});
    }
    const options = (typeof second === "object" ? second : undefined) ?? {};
    if (first instanceof Question) {
      return this.#insert(first.question, first.raw_answer, {
        keywords: first.keywords,
        fewShotExamples: first.few_shot_examples,
        answerNotes: first.answer_notes,
        author: first.author,
        sources: first.sources,
        customMetadata: first.custom_metadata,
        workspacePath: first.workspace_path,
        questionId: first.id,
        ...options,
      });
    }
    if (first === null || typeof first !== "object" || typeof first.question !== "string") {
      throw new BenchmarkUsageError(
        "addQuestion takes a question text, a Question or a record with a `question` field",
      );
    }
    const record = first;
    const fromRecord: AddQuestionOptions = {};
    if (record.answer_template != null) fromRecord.answerTemplate = record.answer_template;
    if (record.question_id != null) fromRecord.questionId = record.question_id;
    if (record.finished !== undefined) fromRecord.finished = record.finished;
    if (record.author !== undefined) fromRecord.author = record.author;
    if (record.sources !== undefined) fromRecord.sources = record.sources;
    if (record.custom_metadata !== undefined) fromRecord.customMetadata = record.custom_metadata;
    if (record.few_shot_examples !== undefined) fromRecord.fewShotExamples = record.few_shot_examples;
    if (record.answer_notes !== undefined) fromRecord.answerNotes = record.answer_notes;
    if (typeof record.raw_answer !== "string" || record.raw_answer === "") {
      throw new BenchmarkUsageError("raw_answer is required when question is a record");
    }
    return this.#insert(record.question, record.raw_answer, { ...options, ...fromRecord });
  }

  /** Adds each question (texts as records, or Question objects) and returns their ids in order. */
  addQuestions(
    questions: readonly (Question | QuestionRecordInput)[],
    options: { finished?: boolean } = {},
  ): string[] {
    return questions.map((question) => this.addQuestion(question, options));
  }

  /** Adds a Question under its content id; refused when that id is already used. */
  addQuestionFromObject(question: Question, options: AddQuestionOptions = {}): string {
    if (!(question instanceof Question))
      throw new BenchmarkUsageError("question_obj must be a Question instance");
    return this.addQuestion(question, options);
  }

  #insert(text: string, rawAnswer: string, options: AddQuestionOptions): string {
    let id: string;
    if (options.questionId != null) {
      id = options.questionId;
      if (this.#entries.has(id)) throw new DuplicateQuestionError(id);
    } else {
      id = uniqueId(questionUrn(text), this.#entries);
    }
    if (options.workspacePath != null) {
      const problem = workspacePathProblem(options.workspacePath);
      if (problem)
        throw new BenchmarkUsageError(
          `workspace_path ${JSON.stringify(options.workspacePath)}: expected ${problem}`,
        );
    }
    const template = options.answerTemplate === undefined ? null : templateCode(options.answerTemplate);
    const now = pythonIsoTimestamp();
    const finished = options.finished ?? true;
    const element = newItem({
      id,
      text,
      rawAnswer,
      template: template?.code ?? defaultTemplate(text),
      language: template?.language ?? "Python",
      finished,
      now,
      keywords: options.keywords,
      author: options.author,
      sources: options.sources,
      customMetadata: options.customMetadata,
      fewShotExamples: options.fewShotExamples,
      answerNotes: options.answerNotes,
      workspacePath: options.workspacePath,
    });
    this.#doc.dataFeedElement.push(element);
    this.#entries.set(id, this.#entryFor(id, element, inMemory(id)));
    this.#touch(now);
    return id;
  }

  /** Removes a question; false when the id is unknown. */
  removeQuestion(id: string): boolean {
    if (!this.#entries.delete(id)) return false;
    this.#doc.dataFeedElement = this.#doc.dataFeedElement.filter(
      (element) => (element["@id"] ?? questionUrn(element.item.text)) !== id,
    );
    this.#touch();
    return true;
  }

  /** Removes every question; returns how many there were. */
  clearQuestions(): number {
    const count = this.#entries.size;
    this.#entries.clear();
    this.#doc.dataFeedElement = [];
    this.#touch();
    return count;
  }

  // ── reading questions ───────────────────────────────────────────────────────────────────────────────

  getQuestionIds(): string[] {
    return [...this.#entries.keys()];
  }

  /** The question record (intrinsic data only; the finished flag is in {@link getQuestionMetadata}). */
  getQuestion(id: string): Readonly<QuestionRecord> {
    return this.#entry(id).record;
  }

  getAllQuestions(): QuestionRecord[] {
    return [...this.#entries.values()].map((entry) => entry.record);
  }

  /** The question as a {@link Question} object (its `workspace_path` included, which the original drops). */
  getQuestionAsObject(id: string): Question {
    const record = this.#entry(id).record;
    return new Question({
      question: record.question,
      raw_answer: record.raw_answer,
      keywords: record.keywords ?? [],
      few_shot_examples: record.few_shot_examples as Record<string, string>[] | null,
      date_created: record.date_created,
      date_modified: record.date_modified,
      answer_template: record.answer_template,
      answer_notes: record.answer_notes,
      author: record.author as Record<string, unknown> | null,
      sources: record.sources as Record<string, unknown>[] | null,
      custom_metadata: record.custom_metadata,
      question_rubric: record.question_rubric ? toPythonRubricDump(record.question_rubric) : null,
      workspace_path: record.workspace_path,
    });
  }

  getAllQuestionsAsObjects(): Question[] {
    return this.getQuestionIds().map((id) => this.getQuestionAsObject(id));
  }

  /** Intrinsic data and benchmark state of one question, keys in the original's order. */
  getQuestionMetadata(id: string): QuestionMetadata {
    const entry = this.#entry(id);
    const record = entry.record;
    return {
      id,
      question: record.question,
      raw_answer: record.raw_answer,
      date_created: record.date_created,
      date_modified: record.date_modified,
      finished: entry.registry.finished,
      author: record.author,
      sources: record.sources,
      custom_metadata: record.custom_metadata,
      has_template: this.hasTemplate(id),
      has_rubric: record.question_rubric !== null,
    };
  }

  getQuestionTimestamps(id: string): {
    created: string;
    modified: string;
    date_added: string;
    registry_modified: string;
  } {
    const entry = this.#entry(id);
    return {
      created: entry.record.date_created,
      modified: entry.record.date_modified,
      date_added: entry.registry.date_added,
      registry_modified: entry.registry.date_modified,
    };
  }

  getQuestionAuthor(id: string): unknown {
    return this.#entry(id).record.author;
  }

  getQuestionSources(id: string): unknown {
    return this.#entry(id).record.sources;
  }

  // ── updating question metadata ──────────────────────────────────────────────────────────────────────

  #questionProperties(entry: Entry): PropertyValue[] {
    entry.element.item.additionalProperty ??= [];
    return entry.element.item.additionalProperty;
  }

  /**
   * Updates a question's text, reference answer, author, sources or custom metadata. The id does not change
   * with the text. Custom keys not named are kept.
   */
  updateQuestionMetadata(id: string, update: QuestionMetadataUpdate): void {
    const entry = this.#entry(id);
    const q = entry.element.item;
    if (update.question !== undefined) q.text = update.question;
    if (update.raw_answer !== undefined) q.acceptedAnswer.text = update.raw_answer;
    const properties = this.#questionProperties(entry);
    if (update.author !== undefined) upsertProperty(properties, "author", update.author);
    if (update.sources !== undefined) upsertProperty(properties, "sources", update.sources);
    for (const [key, value] of Object.entries(update.custom_metadata ?? {})) {
      upsertProperty(properties, customPropertyName(key), value);
    }
    this.#touchQuestion(entry);
    this.#refresh(id, entry);
  }

  setQuestionAuthor(id: string, author: unknown): void {
    this.updateQuestionMetadata(id, { author });
  }

  setQuestionSources(id: string, sources: unknown): void {
    this.updateQuestionMetadata(id, { sources });
  }

  /** A question's custom property, or null (also when it has no custom metadata at all). */
  getQuestionCustomProperty(id: string, name: string): unknown {
    return ownValue(this.#entry(id).record.custom_metadata, name) ?? null;
  }

  setQuestionCustomProperty(id: string, name: string, value: unknown): void {
    this.updateQuestionMetadata(id, { custom_metadata: { [name]: value } });
  }

  removeQuestionCustomProperty(id: string, name: string): boolean {
    const entry = this.#entry(id);
    const removed = removeProperty(this.#questionProperties(entry), customPropertyName(name));
    if (removed) {
      this.#touchQuestion(entry);
      this.#refresh(id, entry);
    }
    return removed;
  }

  // ── finished flag ───────────────────────────────────────────────────────────────────────────────────

  #setFinished(id: string, finished: boolean): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    const now = pythonIsoTimestamp();
    entry.registry.finished = finished;
    entry.registry.date_modified = now;
    upsertProperty(this.#questionProperties(entry), "finished", finished);
    this.#touchQuestion(entry, now);
  }

  /** Marks a question finished (an unknown id is ignored, as in the original). */
  markFinished(id: string): void {
    this.#setFinished(id, true);
  }
  markUnfinished(id: string): void {
    this.#setFinished(id, false);
  }
  markFinishedBatch(ids: Iterable<string>): void {
    for (const id of ids) this.#setFinished(id, true);
  }
  markUnfinishedBatch(ids: Iterable<string>): void {
    for (const id of ids) this.#setFinished(id, false);
  }
  /** Flips the flag and returns the new value. */
  toggleFinished(id: string): boolean {
    const finished = !this.#entry(id).registry.finished;
    this.#setFinished(id, finished);
    return finished;
  }
  isFinished(id: string): boolean {
    return this.#entry(id).registry.finished;
  }
  getFinishedQuestions(): QuestionRecord[] {
    return this.#rows()
      .filter((row) => row.finished)
      .map((row) => row.record);
  }
  getUnfinishedQuestions(): QuestionRecord[] {
    return this.#rows()
      .filter((row) => !row.finished)
      .map((row) => row.record);
  }

  // ── queries ─────────────────────────────────────────────────────────────────────────────────────────

  /** Questions meeting every given criterion. */
  filterQuestions(filter: QuestionFilter = {}): QuestionRecord[] {
    return filterRows(this.#rows(), filter).map((row) => row.record);
  }

  /** Questions whose field at a dot path (`custom_metadata.category`, `finished`) matches a value. */
  filterByMetadata(fieldPath: string, value: unknown, matchMode: MatchMode = "exact"): QuestionRecord[] {
    return filterByField(this.#rows(), fieldPath, value, matchMode).map((row) => row.record);
  }

  /** Questions whose custom metadata holds all (or any, with `matchAll: false`) of the pairs. */
  filterByCustomMetadata(
    criteria: Record<string, unknown>,
    options: { matchAll?: boolean } = {},
  ): QuestionRecord[] {
    return filterByCustomMetadata(this.#rows(), criteria, options.matchAll ?? true).map((row) => row.record);
  }

  /** Text search over question fields (the question text by default), case-insensitive unless asked. */
  searchQuestions(query: string | readonly string[], options: SearchOptions = {}): QuestionRecord[] {
    return searchRows(this.#rows(), query, options).map((row) => row.record);
  }

  getQuestionsByAuthor(author: string): QuestionRecord[] {
    return this.filterQuestions({ author });
  }

  getQuestionsWithRubric(): QuestionRecord[] {
    return this.filterQuestions({ hasRubric: true });
  }

  /** Counts questions by the value at a dot path; non-string values are keyed by their JSON text. */
  countByField(fieldPath: string, questionIds?: readonly string[]): Record<string, number> {
    const rows = questionIds ? questionIds.map((id) => this.#row(this.#entry(id))) : this.#rows();
    return countByField(rows, fieldPath);
  }

  // ── templates ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * Sets a question's template, replacing the placeholder or a previous one, after validating it in its sandbox.
   * A string is Python code, as in the original; a TemplateSpec is stored as VerifiedField Python; a template
   * from `defineAnswerTemplate` as its JavaScript source. The finished flag does not change.
   * @throws {TemplateError} `Invalid template: <what to fix>` (checked before the id, as in the original).
   * @throws {QuestionNotFoundError} for an unknown id.
   */
  async addAnswerTemplate(id: string, template: TemplateInput): Promise<void> {
    const { code, language } = templateCode(template);
    await loadTemplate(code, language, { pythonSandbox: this.pythonSandbox });
    this.#setTemplate(this.#entry(id), id, code, language);
  }

  #setTemplate(entry: Entry, id: string, code: string, language: TemplateLanguage): void {
    entry.element.item.hasPart.text = code;
    entry.element.item.hasPart.programmingLanguage = language;
    this.#touchQuestion(entry);
    this.#refresh(id, entry);
  }

  updateTemplate(id: string, template: TemplateInput): Promise<void> {
    return this.addAnswerTemplate(id, template);
  }

  /** True when the question holds a real template: not empty and not the default placeholder. */
  hasTemplate(id: string): boolean {
    const entry = this.#entries.get(id);
    return entry !== undefined && isRealTemplate(entry.record.answer_template, entry.record.question);
  }

  /** The template code. @throws {MissingTemplateError} when the question holds only the placeholder. */
  getTemplate(id: string): string {
    const entry = this.#entry(id);
    if (!this.hasTemplate(id)) throw new MissingTemplateError(id);
    return entry.record.answer_template;
  }

  /** The language of a question's template code (`Python` unless authored in TypeScript/JavaScript). */
  getTemplateLanguage(id: string): TemplateLanguage {
    return this.#entry(id).element.item.hasPart.programmingLanguage;
  }

  copyTemplate(fromId: string, toId: string): Promise<void> {
    return this.addAnswerTemplate(toId, {
      code: this.getTemplate(fromId),
      language: this.getTemplateLanguage(fromId),
    });
  }

  getMissingTemplates(): QuestionRecord[] {
    return this.filterQuestions({ hasTemplate: false });
  }

  /**
   * Gives the template to every question that has none at all and returns their ids. As seed 004 says, a question
   * on the default placeholder counts as having one and is skipped; use {@link addAnswerTemplate} to replace it.
   */
  async applyGlobalTemplate(template: TemplateInput): Promise<string[]> {
    const { code, language } = templateCode(template);
    await loadTemplate(code, language, { pythonSandbox: this.pythonSandbox });
    const applied: string[] = [];
    for (const [id, entry] of this.#entries) {
      if (entry.record.answer_template.trim() !== "") continue;
      this.#setTemplate(entry, id, code, language);
      applied.push(id);
    }
    return applied;
  }

  /**
   * The question's template, loaded and ready to verify parsed answers (the placeholder too, whose `verify` is
   * always false). Loads are cached by code.
   * @throws {TemplateError} when the stored template is invalid.
   */
  getAnswerTemplate(id: string): Promise<AnswerTemplate> {
    const entry = this.#entry(id);
    return loadTemplate(entry.record.answer_template, entry.element.item.hasPart.programmingLanguage, {
      pythonSandbox: this.pythonSandbox,
    });
  }

  /**
   * Validates every non-empty template by loading it in its sandbox (unless another `check` is given); returns
   * the problems, one per bad template.
   */
  async validateTemplates(check?: TemplateValidator): Promise<TemplateProblem[]> {
    const problems: TemplateProblem[] = [];
    const validate: TemplateValidator =
      check ?? ((code, language) => templateProblem(code, language, { pythonSandbox: this.pythonSandbox }));
    for (const [id, entry] of this.#entries) {
      const code = entry.record.answer_template;
      if (code === "") continue;
      const error = await validate(code, entry.element.item.hasPart.programmingLanguage);
      if (error !== null) problems.push({ question_id: id, error });
    }
    return problems;
  }

  /** One entry per finished question (or per id in `questionIds`), as the verification pipeline takes them. */
  getFinishedTemplates(questionIds?: ReadonlySet<string>): FinishedTemplate[] {
    const out: FinishedTemplate[] = [];
    for (const [id, entry] of this.#entries) {
      if (!entry.registry.finished || (questionIds && !questionIds.has(id))) continue;
      const record = entry.record;
      const preview = Array.from(record.question);
      out.push({
        question_id: id,
        question_text: record.question,
        question_preview: preview.length > 100 ? `${preview.slice(0, 100).join("")}...` : record.question,
        raw_answer: record.raw_answer,
        template_code: record.answer_template,
        template_language: entry.element.item.hasPart.programmingLanguage,
        last_modified: record.date_modified,
        finished: true,
        question_rubric: record.question_rubric ? toPythonRubricDump(record.question_rubric) : null,
        keywords: record.keywords,
        few_shot_examples: record.few_shot_examples,
        workspace_path: record.workspace_path,
      });
    }
    return out;
  }

  /**
   * Verifies the finished questions (or `options.questionIds`) against the config's models (spec 04 §1):
   * templates are checked before any LLM call, then every task runs through the pipeline with the global
   * rubric. Resolves to the results and a summary; `onProgress` streams them as they finish, and
   * `options.output` appends each to a JSONL run log. Agents work under the benchmark's `workspaceRoot`
   * unless `options.workspaceRoot` gives another (seed 002 §8). `options.questions` runs questions already
   * chosen by `selectQuestions` (drafts included, unusable ones skipped) instead.
   */
  async runVerification(
    config: VerificationConfig,
    options: BenchmarkRunOptions = {},
  ): Promise<VerificationRun> {
    const { questionIds, questions: selected, ...runOptions } = options;
    const questions = selected ?? (await pipelineQuestions(this, config, questionIds));
    // The pipeline (model clients, the AI SDK) loads at the first run, not with the benchmark: a command that
    // only reads a checkpoint starts without it.
    const { runVerification } = await import("../pipeline/index.js");
    return runVerification(questions, config, {
      globalRubric: this.getGlobalRubric(),
      workspaceRoot: this.#workspaceRoot,
      pythonSandbox: this.pythonSandbox,
      ...runOptions,
    });
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

  // ── rubrics ─────────────────────────────────────────────────────────────────────────────────────────

  #readGlobalRubric(file: string): Rubric | null {
    const traits: RubricTrait[] = [];
    this.#doc.rating?.forEach((rating, index) => {
      if (isGlobalTraitRating(rating))
        traits.push(ratingToTrait(rating, { file, jsonPath: `$.rating[${index}]` }).trait);
    });
    traits.push(...readLegacyGlobalTraits(this.#doc.additionalProperty ?? [], file));
    return traits.length > 0 ? rubricFromTraits(traits) : null;
  }

  /** The benchmark-level rubric, or null when there are no global traits. */
  getGlobalRubric(): Rubric | null {
    this.#globalRubric ??= this.#readGlobalRubric(IN_MEMORY);
    return this.#globalRubric;
  }

  /** Replaces the global rubric (dynamic-rubric ratings are kept, unlike the original). */
  setGlobalRubric(rubric: RubricInput | readonly RubricTraitInput[] | null): void {
    const traits = traitsOf(rubric);
    const kept = (this.#doc.rating ?? []).filter((rating) => !isGlobalTraitRating(rating));
    const ratings = [...traits.map((trait) => traitToRating(trait, "global")), ...kept];
    this.#doc.rating = ratings.length > 0 ? ratings : undefined;
    this.#globalRubric = undefined;
    this.#touch();
  }

  /** Appends a global trait; the traits already there are kept as they are in the file. */
  addGlobalRubricTrait(trait: RubricTraitInput): void {
    const parsed = parseRubricTrait(trait);
    rubricFromTraits([...rubricTraits(this.getGlobalRubric()), parsed]);
    this.#doc.rating = [...(this.#doc.rating ?? []), traitToRating(parsed, "global")];
    this.#globalRubric = undefined;
    this.#touch();
  }

  /** Removes every global trait; true when there was one. */
  clearGlobalRubric(): boolean {
    const had = (this.#doc.rating?.length ?? 0) > 0;
    this.#doc.rating = undefined;
    this.#globalRubric = undefined;
    if (had) this.#touch();
    return had;
  }

  getQuestionRubric(id: string): Rubric | null {
    return this.#entry(id).record.question_rubric;
  }

  /** Appends a question-specific trait (name clashes surface when the rubric is built, as in the original). */
  addQuestionRubricTrait(id: string, trait: RubricTraitInput): void {
    const entry = this.#entry(id);
    const q = entry.element.item;
    q.rating = [...(q.rating ?? []), traitToRating(parseRubricTrait(trait), "question")];
    this.#touchQuestion(entry);
    this.#refresh(id, entry);
  }

  /** Replaces a question's traits (null or an empty list removes them). */
  setQuestionRubric(id: string, rubric: RubricInput | readonly RubricTraitInput[] | null): void {
    const entry = this.#entry(id);
    const traits = traitsOf(rubric);
    entry.element.item.rating =
      traits.length > 0 ? traits.map((trait) => traitToRating(trait, "question")) : undefined;
    this.#touchQuestion(entry);
    this.#refresh(id, entry);
  }

  removeQuestionRubric(id: string): boolean {
    const entry = this.#entry(id);
    const had = (entry.element.item.rating?.length ?? 0) > 0;
    if (had) this.setQuestionRubric(id, null);
    return had;
  }

  /** Removes all rubrics; returns 1 for the global one (if any) plus 1 per question that had traits. */
  clearAllRubrics(): number {
    let count = this.clearGlobalRubric() ? 1 : 0;
    for (const id of this.#entries.keys()) if (this.removeQuestionRubric(id)) count++;
    return count;
  }

  /**
   * The rubric that applies to a question: global traits plus its own. A question trait with a global trait's
   * name replaces it for this question (seed 004), and the merge says so in `warnings`.
   */
  getMergedRubricForQuestion(id: string): MergedRubric {
    return mergeRubrics(this.getGlobalRubric(), this.getQuestionRubric(id));
  }

  /** Rubric traits missing what they need (spec 01 §4.9). */
  validateRubrics(): RubricProblem[] {
    const problems: RubricProblem[] = validateRubricForReadiness(this.getGlobalRubric(), "global");
    for (const [id, entry] of this.#entries) {
      problems.push(...validateRubricForReadiness(entry.record.question_rubric, `question:${id}`));
    }
    return problems;
  }

  // ── readiness and health ────────────────────────────────────────────────────────────────────────────

  /** Whether the benchmark is ready to verify, with the reasons when it is not. */
  async checkReadiness(check?: TemplateValidator): Promise<ReadinessReport> {
    return readinessReport(this.#rows(), await this.validateTemplates(check), this.validateRubrics());
  }

  /** A score from 0 to 100 with a status and recommendations (seed 004's table). */
  async getHealthReport(check?: TemplateValidator): Promise<HealthReport> {
    const readiness = await this.checkReadiness(check);
    const score = healthScore(readiness, this.getProgress());
    return {
      health_score: score,
      health_status: healthStatus(score),
      timestamp: pythonIsoTimestamp(),
      readiness,
      statistics: this.getStatistics(),
      recommendations: healthRecommendations(readiness, this.questionCount, this.getGlobalRubric() !== null),
    };
  }

  getSummary(): BenchmarkSummary {
    const rows = this.#rows();
    const global = this.getGlobalRubric();
    return {
      name: this.name,
      version: this.version,
      creator: this.creator,
      created_at: this.createdAt,
      modified_at: this.modifiedAt,
      question_count: rows.length,
      finished_count: rows.filter((row) => row.finished).length,
      has_template_count: rows.filter((row) => row.hasTemplate).length,
      has_rubric_count: rows.filter((row) => row.record.question_rubric !== null).length,
      progress_percentage: this.getProgress(),
      is_complete: this.isComplete,
      has_global_rubric: global !== null,
      global_rubric_traits: global?.llm_traits.length ?? 0,
    };
  }

  getStatistics(): BenchmarkStatistics {
    const rows = this.#rows();
    const lengths = rows.filter((row) => row.hasTemplate).map((row) => row.record.answer_template.length);
    const total = lengths.reduce((sum, n) => sum + n, 0);
    return {
      ...this.getSummary(),
      avg_template_length: lengths.length > 0 ? Math.trunc(total / lengths.length) : 0,
      min_template_length: lengths.length > 0 ? Math.min(...lengths) : 0,
      max_template_length: lengths.length > 0 ? Math.max(...lengths) : 0,
      questions_with_custom_metadata: rows.filter(
        ({ record }) => record.custom_metadata !== null || record.author != null || record.sources != null,
      ).length,
    };
  }

  // ── collection protocol ─────────────────────────────────────────────────────────────────────────────

  /** Number of questions. */
  get size(): number {
    return this.#entries.size;
  }

  /** Whether a question id is in the benchmark. */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** Iterates over question records in order. */
  [Symbol.iterator](): Iterator<QuestionRecord> {
    return this.getAllQuestions()[Symbol.iterator]();
  }

  /** The question with this id, as a schema.org Question (spec 01 §4.11). */
  get(id: string): SchemaOrgQuestion {
    return this.#schemaOrgView(id, this.#entry(id));
  }

  /**
   * The question at a position, as a schema.org Question; negative positions count from the end.
   * @throws {RangeError} out of range.
   */
  at(index: number): SchemaOrgQuestion {
    const ids = this.getQuestionIds();
    const position = index < 0 ? ids.length + index : index;
    const id = ids[position];
    if (!Number.isInteger(index) || id === undefined) {
      throw new RangeError(`Question index ${index} out of range (0-${ids.length - 1})`);
    }
    return this.get(id);
  }

  /** Questions in a range of positions (as `Array.prototype.slice`), as schema.org Questions. */
  slice(start?: number, end?: number): SchemaOrgQuestion[] {
    return this.getQuestionIds()
      .slice(start, end)
      .map((id) => this.get(id));
  }

  /** Same name, version, question count and equal question records. */
  equals(other: Benchmark): boolean {
    if (this.name !== other.name || this.version !== other.version || this.size !== other.size) return false;
    const theirs = other.getAllQuestions();
    return this.getAllQuestions().every((record, i) => JSON.stringify(record) === JSON.stringify(theirs[i]));
  }

  #schemaOrgView(id: string, entry: Entry): SchemaOrgQuestion {
    const record = entry.record;
    const additionalProperty = [property("finished", entry.registry.finished)];
    for (const [key, value] of Object.entries(record.custom_metadata ?? {})) {
      additionalProperty.push(property(customPropertyName(key), value));
    }
    const view: SchemaOrgQuestion = {
      "@type": "Question",
      "@id": id,
      text: record.question,
      acceptedAnswer: { "@type": "Answer", "@id": `${id}-answer`, text: record.raw_answer },
      hasPart: {
        "@type": "SoftwareSourceCode",
        "@id": `${id}-template`,
        name: templateName(record.question),
        text: record.answer_template,
        programmingLanguage: entry.element.item.hasPart.programmingLanguage,
      },
      additionalProperty,
    };
    if (record.question_rubric)
      view.rating = rubricTraits(record.question_rubric).map((t) => traitToRating(t, "question"));
    return view;
  }
}
