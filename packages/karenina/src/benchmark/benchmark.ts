import {
  customPropertyName,
  type DataFeed,
  parseCheckpoint,
  property,
  readCheckpointFile,
  type SchemaOrgQuestion,
  traitToRating,
} from "../checkpoint/index.js";
import { type QuestionRecord, rubricTraits } from "../model/index.js";
import type {
  ExtendedRun,
  ExtendOptions,
  ExtendSource,
  PipelineQuestion,
  RunVerificationOptions,
  ScenarioRun,
  ScenarioRunOptions,
  VerificationConfig,
  VerificationRun,
} from "../pipeline/index.js";
import type { VerificationResult } from "../results/index.js";
import { type Entry, IN_MEMORY, type LoadedState } from "./benchmark-core.js";
import { BenchmarkScenarios } from "./benchmark-scenarios.js";
import { BenchmarkUsageError } from "./errors.js";
import { pipelineQuestions } from "./pipeline-questions.js";
import { templateName } from "./question-items.js";
import type { BenchmarkOptions, LoadOptions } from "./types.js";

export type { TemplateValidator } from "./benchmark-templates.js";

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
 * they serialize to the same JSON. The class is built in layers, one concern each (`benchmark-core.ts`,
 * `-questions`, `-templates`, `-rubrics`, `-reports`); this last one adds loading, verification and the
 * collection protocol.
 *
 * @example
 * const bench = Benchmark.create({ name: "Drug targets", version: "1.0.0" });
 * const id = bench.addQuestion("What is the putative target of venetoclax?", "BCL2 (B-cell lymphoma 2)");
 * bench.size; // 1
 * bench.hasTemplate(id); // false: the question holds the default placeholder
 */
export class Benchmark extends BenchmarkScenarios implements Iterable<QuestionRecord> {
  constructor(options: BenchmarkOptions);
  constructor(options: BenchmarkOptions | LoadedState) {
    super(options);
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

  /** A deep, independent copy (deep-judgment settings included; workspace root kept). */
  clone(): Benchmark {
    return Benchmark.fromCheckpoint(this.toCheckpoint({ saveDeepJudgmentConfig: true }), {
      workspaceRoot: this.root,
      isolation: this.isolation,
    });
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
    if (this.isScenarioBenchmark) {
      throw new BenchmarkUsageError(
        `"${this.name}" holds scenarios, not questions: run them with runScenarios(config)`,
      );
    }
    const { questionIds, questions: selected, ...runOptions } = options;
    const questions = selected ?? (await pipelineQuestions(this, config, questionIds));
    // The pipeline (model clients, the AI SDK) loads at the first run, not with the benchmark: a command that
    // only reads a checkpoint starts without it.
    const { runVerification } = await import("../pipeline/index.js");
    return runVerification(questions, config, {
      globalRubric: this.getGlobalRubric(),
      workspaceRoot: this.root,
      pythonSandbox: this.pythonSandbox,
      ...runOptions,
    });
  }

  /**
   * Runs the benchmark's scenarios (spec 08 §5): each scenario × answering model × parsing model × replicate
   * is one execution, whose turns run one after another through the pipeline; executions run side by side.
   * Resolves to every turn row, one summary per execution and the errors (a failing execution never throws).
   * `options.output` appends each finished execution to a JSONL run log, which `options.resume` continues.
   * @throws {BenchmarkUsageError} when the benchmark holds questions, not scenarios.
   */
  async runScenarios(config: VerificationConfig, options: ScenarioRunOptions = {}): Promise<ScenarioRun> {
    if (!this.isScenarioBenchmark) {
      throw new BenchmarkUsageError(
        `"${this.name}" holds questions, not scenarios: run them with runVerification(config)`,
      );
    }
    const { runScenarioVerification } = await import("../pipeline/index.js");
    return runScenarioVerification(this.getScenarios(), config, {
      globalRubric: this.getGlobalRubric(),
      workspaceRoot: this.root,
      pythonSandbox: this.pythonSandbox,
      ...options,
    });
  }

  /**
   * Extends a prior run of this benchmark with new judges, answering models or replicates, replaying its
   * answers (spec 04 §17): see `extendTemplate` in the pipeline. Resolves to the prior rows, then the new ones.
   */
  async extendTemplate(
    prior: readonly VerificationResult[],
    config: VerificationConfig,
    options: ExtendOptions = {},
  ): Promise<ExtendedRun> {
    const { extendTemplate } = await import("../pipeline/index.js");
    return extendTemplate(this.#extendSource(), prior, config, this.#extendRunOptions(options));
  }

  /**
   * Scores this benchmark's rubric traits on a prior run's answers and merges them onto copies of its rows
   * (spec 04 §17): see `extendRubric` in the pipeline. Same rows, same `result_id`s, new trait scores.
   */
  async extendRubric(
    prior: readonly VerificationResult[],
    config: VerificationConfig,
    options: ExtendOptions = {},
  ): Promise<ExtendedRun> {
    const { extendRubric } = await import("../pipeline/index.js");
    return extendRubric(this.#extendSource(), prior, config, this.#extendRunOptions(options));
  }

  #extendSource(): ExtendSource {
    return {
      isScenarioBenchmark: this.isScenarioBenchmark,
      globalRubric: this.getGlobalRubric(),
      questions: (ids, config) => pipelineQuestions(this, config, ids),
    };
  }

  #extendRunOptions(options: ExtendOptions): ExtendOptions {
    return { workspaceRoot: this.root, pythonSandbox: this.pythonSandbox, ...options };
  }

  // ── collection protocol ─────────────────────────────────────────────────────────────────────────────

  /** Number of questions. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether a question id is in the benchmark. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Iterates over question records in order. */
  [Symbol.iterator](): Iterator<QuestionRecord> {
    return this.getAllQuestions()[Symbol.iterator]();
  }

  /** The question with this id, as a schema.org Question (spec 01 §4.11). */
  get(id: string): SchemaOrgQuestion {
    return this.#schemaOrgView(id, this.entry(id));
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
