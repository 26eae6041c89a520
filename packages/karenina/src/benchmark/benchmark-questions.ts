import {
  checkNesting,
  customPropertyName,
  type PropertyValue,
  property,
  removeProperty,
  upsertProperty,
  workspacePathProblem,
} from "../checkpoint/index.js";
import {
  defaultTemplate,
  isRealTemplate,
  pythonIsoTimestamp,
  Question,
  type QuestionRecord,
  questionUrn,
  toPythonRubricDump,
  uniqueId,
} from "../model/index.js";
import { ownValue } from "../plain-data/index.js";
import { templateCode } from "../templates/index.js";
import { BenchmarkCore, type Entry, inMemory } from "./benchmark-core.js";
import { BenchmarkUsageError, DuplicateQuestionError } from "./errors.js";
import {
  countByField,
  filterByCustomMetadata,
  filterByField,
  filterRows,
  type MatchMode,
  type QuestionFilter,
  type SearchOptions,
  searchRows,
} from "./queries.js";
import { newItem, templateName } from "./question-items.js";
import type {
  AddQuestionOptions,
  QuestionMetadata,
  QuestionMetadataUpdate,
  QuestionRecordInput,
  QuestionUpdate,
} from "./types.js";

/** The questions of a benchmark: adding, reading, updating, the finished flag, and queries (spec 01 §4.3–4.7). */
export abstract class BenchmarkQuestions extends BenchmarkCore {
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
    if ((this.doc.hasPart?.length ?? 0) > 0) {
      throw new BenchmarkUsageError(
        "Cannot add standalone questions to a scenario benchmark: it holds scenarios (a benchmark holds questions or scenarios, never both)",
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
      if (this.entries.has(id)) throw new DuplicateQuestionError(id);
    } else {
      id = uniqueId(questionUrn(text), this.entries);
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
    this.doc.dataFeedElement.push(element);
    this.entries.set(id, this.entryFor(id, element, inMemory(id)));
    this.touch(now);
    return id;
  }

  /** Removes a question; false when the id is unknown. */
  removeQuestion(id: string): boolean {
    if (!this.entries.delete(id)) return false;
    this.doc.dataFeedElement = this.doc.dataFeedElement.filter(
      (element) => (element["@id"] ?? questionUrn(element.item.text)) !== id,
    );
    this.touch();
    return true;
  }

  /**
   * Puts the questions in this order (a curator's drag and drop, a clone placed after its source).
   * @throws {BenchmarkUsageError} unless `ids` holds every question id exactly once.
   */
  reorderQuestions(ids: readonly string[]): void {
    const unknown = ids.filter((id) => !this.entries.has(id));
    const missing = [...this.entries.keys()].filter((id) => !ids.includes(id));
    if (unknown.length > 0 || missing.length > 0 || new Set(ids).size !== ids.length) {
      throw new BenchmarkUsageError(
        `the new order must list every question id once (unknown: ${JSON.stringify(unknown)}, missing: ${JSON.stringify(missing)})`,
      );
    }
    const entries = ids.map((id) => [id, this.entry(id)] as const);
    this.entries.clear();
    for (const [id, entry] of entries) this.entries.set(id, entry);
    this.doc.dataFeedElement = entries.map(([, entry]) => entry.element);
    this.touch();
  }

  /** Removes every question; returns how many there were. */
  clearQuestions(): number {
    const count = this.entries.size;
    this.entries.clear();
    this.doc.dataFeedElement = [];
    this.touch();
    return count;
  }

  // ── reading questions ───────────────────────────────────────────────────────────────────────────────

  getQuestionIds(): string[] {
    return [...this.entries.keys()];
  }

  /** The question record (intrinsic data only; the finished flag is in {@link getQuestionMetadata}). */
  getQuestion(id: string): Readonly<QuestionRecord> {
    return this.entry(id).record;
  }

  getAllQuestions(): QuestionRecord[] {
    return [...this.entries.values()].map((entry) => entry.record);
  }

  /** The question as a {@link Question} object (its `workspace_path` included, which the original drops). */
  getQuestionAsObject(id: string): Question {
    const record = this.entry(id).record;
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
    const entry = this.entry(id);
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
      has_template: isRealTemplate(record.answer_template, record.question),
      has_rubric: record.question_rubric !== null,
    };
  }

  getQuestionTimestamps(id: string): {
    created: string;
    modified: string;
    date_added: string;
    registry_modified: string;
  } {
    const entry = this.entry(id);
    return {
      created: entry.record.date_created,
      modified: entry.record.date_modified,
      date_added: entry.registry.date_added,
      registry_modified: entry.registry.date_modified,
    };
  }

  getQuestionAuthor(id: string): unknown {
    return this.entry(id).record.author;
  }

  getQuestionSources(id: string): unknown {
    return this.entry(id).record.sources;
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
    const entry = this.entry(id);
    const q = entry.element.item;
    if (update.question !== undefined) q.text = update.question;
    if (update.raw_answer !== undefined) q.acceptedAnswer.text = update.raw_answer;
    const properties = this.#questionProperties(entry);
    if (update.author !== undefined) upsertProperty(properties, "author", update.author);
    if (update.sources !== undefined) upsertProperty(properties, "sources", update.sources);
    for (const [key, value] of Object.entries(update.custom_metadata ?? {})) {
      upsertProperty(properties, customPropertyName(key), value);
    }
    this.touchQuestion(entry);
    this.refresh(id, entry);
  }

  /**
   * Sets any of a question's own fields at once (the curator's save), stamping its `dateModified`. The id does
   * not change with the text; the template is stored as given, not run.
   * @throws {QuestionNotFoundError} for an unknown id.
   * @throws {CheckpointNestingError} when a value nests deeper than a checkpoint may.
   */
  updateQuestion(id: string, update: QuestionUpdate): void {
    const entry = this.entry(id);
    for (const name of ["author", "sources", "custom_metadata", "few_shot_examples"] as const) {
      checkNesting(update[name], inMemory(id).file, "save", name);
    }
    const q = entry.element.item;
    if (update.question !== undefined) {
      q.text = update.question;
      q.hasPart.name = templateName(update.question);
    }
    if (update.raw_answer !== undefined) q.acceptedAnswer.text = update.raw_answer;
    if (update.answer_template !== undefined) q.hasPart.text = update.answer_template;
    if (update.template_language !== undefined) q.hasPart.programmingLanguage = update.template_language;
    if (update.keywords !== undefined) {
      delete entry.element.keywords;
      if (update.keywords && update.keywords.length > 0) q.keywords = [...update.keywords];
      else delete q.keywords;
    }
    const properties = this.#questionProperties(entry);
    for (const name of ["author", "sources", "few_shot_examples", "answer_notes"] as const) {
      const value = update[name];
      if (value === undefined) continue;
      if (value === null) removeProperty(properties, name);
      else upsertProperty(properties, name, value);
    }
    if (update.custom_metadata !== undefined) {
      const custom = properties.filter((p) => p.name.startsWith(customPropertyName("")));
      for (const p of custom) removeProperty(properties, p.name);
      for (const [key, value] of Object.entries(update.custom_metadata ?? {})) {
        properties.push(property(customPropertyName(key), value));
      }
    }
    if (update.finished !== undefined) {
      entry.registry.finished = update.finished;
      upsertProperty(properties, "finished", update.finished);
    }
    const now = pythonIsoTimestamp();
    entry.registry.date_modified = now;
    this.touchQuestion(entry, now);
    this.refresh(id, entry);
  }

  setQuestionAuthor(id: string, author: unknown): void {
    this.updateQuestionMetadata(id, { author });
  }

  setQuestionSources(id: string, sources: unknown): void {
    this.updateQuestionMetadata(id, { sources });
  }

  /** A question's custom property, or null (also when it has no custom metadata at all). */
  getQuestionCustomProperty(id: string, name: string): unknown {
    return ownValue(this.entry(id).record.custom_metadata, name) ?? null;
  }

  setQuestionCustomProperty(id: string, name: string, value: unknown): void {
    this.updateQuestionMetadata(id, { custom_metadata: { [name]: value } });
  }

  removeQuestionCustomProperty(id: string, name: string): boolean {
    const entry = this.entry(id);
    const removed = removeProperty(this.#questionProperties(entry), customPropertyName(name));
    if (removed) {
      this.touchQuestion(entry);
      this.refresh(id, entry);
    }
    return removed;
  }

  // ── finished flag ───────────────────────────────────────────────────────────────────────────────────

  #setFinished(id: string, finished: boolean): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    const now = pythonIsoTimestamp();
    entry.registry.finished = finished;
    entry.registry.date_modified = now;
    upsertProperty(this.#questionProperties(entry), "finished", finished);
    this.touchQuestion(entry, now);
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
    const finished = !this.entry(id).registry.finished;
    this.#setFinished(id, finished);
    return finished;
  }
  isFinished(id: string): boolean {
    return this.entry(id).registry.finished;
  }
  getFinishedQuestions(): QuestionRecord[] {
    return this.rows()
      .filter((row) => row.finished)
      .map((row) => row.record);
  }
  getUnfinishedQuestions(): QuestionRecord[] {
    return this.rows()
      .filter((row) => !row.finished)
      .map((row) => row.record);
  }

  // ── queries ─────────────────────────────────────────────────────────────────────────────────────────

  /** Questions meeting every given criterion. */
  filterQuestions(filter: QuestionFilter = {}): QuestionRecord[] {
    return filterRows(this.rows(), filter).map((row) => row.record);
  }

  /** Questions whose field at a dot path (`custom_metadata.category`, `finished`) matches a value. */
  filterByMetadata(fieldPath: string, value: unknown, matchMode: MatchMode = "exact"): QuestionRecord[] {
    return filterByField(this.rows(), fieldPath, value, matchMode).map((row) => row.record);
  }

  /** Questions whose custom metadata holds all (or any, with `matchAll: false`) of the pairs. */
  filterByCustomMetadata(
    criteria: Record<string, unknown>,
    options: { matchAll?: boolean } = {},
  ): QuestionRecord[] {
    return filterByCustomMetadata(this.rows(), criteria, options.matchAll ?? true).map((row) => row.record);
  }

  /** Text search over question fields (the question text by default), case-insensitive unless asked. */
  searchQuestions(query: string | readonly string[], options: SearchOptions = {}): QuestionRecord[] {
    return searchRows(this.rows(), query, options).map((row) => row.record);
  }

  getQuestionsByAuthor(author: string): QuestionRecord[] {
    return this.filterQuestions({ author });
  }

  getQuestionsWithRubric(): QuestionRecord[] {
    return this.filterQuestions({ hasRubric: true });
  }

  /** Counts questions by the value at a dot path; non-string values are keyed by their JSON text. */
  countByField(fieldPath: string, questionIds?: readonly string[]): Record<string, number> {
    const rows = questionIds ? questionIds.map((id) => this.row(this.entry(id))) : this.rows();
    return countByField(rows, fieldPath);
  }
}
