import { randomBytes } from "node:crypto";
import {
  type DynamicRubric,
  mergeRubrics,
  type Rubric,
  rubricFromTraits,
  rubricTraits,
  templateId,
} from "../model/index.js";
import { canonicalKey } from "../results/index.js";
import { type ModelConfig, modelIdentity, type VerificationConfig } from "./config/index.js";
import { resolveFewShotExamples } from "./prompts/index.js";
import { type PipelineQuestion, taskKey, type VerificationTask } from "./task.js";

/** What planning needs besides the questions and the config. */
export interface PlanOptions {
  globalRubric?: Rubric | null;
  globalDynamicRubric?: DynamicRubric | null;
  /** Default `run_<8 hex>`. */
  runName?: string;
  /** Task keys to leave out: the finished tasks of a resumed run. */
  skipKeys?: ReadonlySet<string>;
}

/** A run name like the original's: `run_` and 8 random hex digits. */
export function defaultRunName(): string {
  return `run_${randomBytes(4).toString("hex")}`;
}

function filterTraits(rubric: Rubric | null, names: readonly string[] | null): Rubric | null {
  if (rubric === null || names === null) return rubric;
  const wanted = new Set(names);
  return rubricFromTraits(rubricTraits(rubric).filter((trait) => wanted.has(trait.name)));
}

interface QuestionPlan {
  rubric: Rubric | null;
  dynamicRubric: DynamicRubric | null;
  provenance: VerificationTask["traitProvenance"];
  fewShot: { question: string; answer: string }[];
  warnings: string[];
  templateId: string;
}

function planQuestion(
  question: PipelineQuestion,
  config: VerificationConfig,
  options: PlanOptions,
): QuestionPlan {
  const id = templateId(question.template?.code);
  const fewShotOn = config.few_shot_config !== null && config.few_shot_config.source !== "disabled";
  const fewShot = fewShotOn
    ? resolveFewShotExamples(config.few_shot_config, question.id, question.fewShotExamples)
    : [];
  if (config.evaluation_mode === "template_only") {
    return { rubric: null, dynamicRubric: null, provenance: {}, fewShot, warnings: [], templateId: id };
  }
  const merged = mergeRubrics(options.globalRubric ?? null, question.rubric);
  const rubric = filterTraits(merged.rubric, config.rubric_trait_names);
  const dynamicRubric = question.dynamicRubric ?? options.globalDynamicRubric ?? null;
  return {
    rubric,
    dynamicRubric,
    provenance: merged.provenance,
    fewShot,
    warnings: merged.warnings,
    templateId: id,
  };
}

/** A run's tasks, produced one at a time in queue order, and how many there are. */
export interface TaskPlan extends Iterable<VerificationTask> {
  /** The number of tasks the plan yields (skipped tasks not counted). */
  readonly total: number;
  readonly runName: string;
}

interface Axis<T> {
  item: T;
  key: string;
  index: number;
}

/** A model list with its canonical keys, in the order a queue ordering visits it. */
function modelAxis(
  models: readonly ModelConfig[],
  role: "answering" | "parsing",
  sorted: boolean,
): Axis<ModelConfig>[] {
  const axis = models.map((item, index) => ({ item, key: canonicalKey(modelIdentity(item, role)), index }));
  return sorted ? axis.sort((a, b) => compareNames(modelSortName(a.item), modelSortName(b.item))) : axis;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The tasks sharing one answer (spec 04 §15.3): one per parsing model of `parsers`, in their order. */
function answerTasks(
  question: PipelineQuestion,
  answerer: Axis<ModelConfig>,
  parsers: readonly Axis<ModelConfig>[],
  replicate: number | null,
  runName: string,
  plan: QuestionPlan,
): VerificationTask[] {
  const answerKey = `${question.id}\t${answerer.key}${replicate === null ? "" : `\trep${replicate}`}`;
  return parsers.map((parser) => ({
    question,
    answering: answerer.item,
    parsing: parser.item,
    replicate,
    runName,
    rubric: plan.rubric,
    dynamicRubric: plan.dynamicRubric,
    traitProvenance: plan.provenance,
    fewShotExamples: plan.fewShot,
    fewShotEnabled: plan.fewShot.length > 0,
    templateId: plan.templateId,
    key: taskKey(question.id, answerer.key, parser.key, replicate),
    answerKey,
    answerSharers: parsers.length,
    planWarnings: plan.warnings,
  }));
}

/**
 * One answer of a run and the judges that read it: a question × an answering model × a replicate, with the
 * positions (in the config's model lists) of the answering model and of the parsing models still to run.
 * A fleet worker runs one group as one job, so the answer is generated once for all its judges.
 */
export interface AnswerGroup {
  questionId: string;
  /** Index in `config.answering_models`. */
  answerer: number;
  /** Indexes in `config.parsing_models`. */
  parsers: number[];
  /** Null when the run has one replicate, else 1-based. */
  replicate: number | null;
  /** The tasks' shared answer key (`VerificationTask.answerKey`): the group's identity in its run. */
  key: string;
}

/**
 * The answer groups of a plan, in the order of their first task. Orderings that interleave answerers
 * (`distribute_answerers`, `random`) spread a group's tasks apart, so the plan is read whole first.
 */
export function answerGroups(plan: Iterable<VerificationTask>, config: VerificationConfig): AnswerGroup[] {
  const groups = new Map<string, AnswerGroup>();
  for (const task of plan) {
    let group = groups.get(task.answerKey);
    if (group === undefined) {
      group = {
        questionId: task.question.id,
        answerer: config.answering_models.indexOf(task.answering),
        parsers: [],
        replicate: task.replicate,
        key: task.answerKey,
      };
      groups.set(task.answerKey, group);
    }
    group.parsers.push(config.parsing_models.indexOf(task.parsing));
  }
  return [...groups.values()];
}

/**
 * The tasks of an answer group (see {@link answerGroups}), planned as {@link taskPlan} plans them.
 * @throws {RangeError} when the group names a model position the config does not have.
 */
export function answerGroupTasks(
  question: PipelineQuestion,
  config: VerificationConfig,
  group: Omit<AnswerGroup, "key" | "questionId">,
  options: PlanOptions & { runName: string },
): VerificationTask[] {
  const axisItem = (models: readonly ModelConfig[], role: "answering" | "parsing", index: number) => {
    const item = models[index];
    if (item === undefined)
      throw new RangeError(`${role} model ${index} is not in the config (${models.length} models)`);
    return { item, key: canonicalKey(modelIdentity(item, role)), index };
  };
  const answerer = axisItem(config.answering_models, "answering", group.answerer);
  const parsers = group.parsers.map((index) => axisItem(config.parsing_models, "parsing", index));
  const plan = planQuestion(question, config, options);
  return answerTasks(question, answerer, parsers, group.replicate, options.runName, plan);
}

/**
 * The task queue of a run (spec 04 §15.1–15.2), built lazily so that a run of 100,000 questions never holds
 * its tasks in memory: questions × answering models × parsing models × replicates, minus `skipKeys`, in the
 * order of `config.task_ordering` (`random` is the one ordering that materializes the queue). Rubrics are
 * merged only when the mode evaluates them; `rubric_trait_names` filters the merged rubric (the spec's
 * recommended fix).
 */
export function taskPlan(
  questions: readonly PipelineQuestion[],
  config: VerificationConfig,
  options: PlanOptions = {},
): TaskPlan {
  const runName = options.runName ?? defaultRunName();
  const skip = options.skipKeys ?? new Set<string>();
  const replicates = config.replicate_count;
  const ordering = effectiveOrdering(config);
  const sorted = ordering === "prefix_cache" || ordering === "distribute_answerers";
  const answerers = modelAxis(config.answering_models, "answering", sorted);
  const parsers = modelAxis(config.parsing_models, "parsing", sorted);
  const questionOrder = sorted ? [...questions].sort((a, b) => compareNames(a.id, b.id)) : questions;

  function* forAnswerer(
    answerer: Axis<ModelConfig>,
    question: PipelineQuestion,
  ): Generator<VerificationTask> {
    let plan: QuestionPlan | undefined;
    for (let r = 1; r <= replicates; r++) {
      const replicate = replicates === 1 ? null : r;
      const wanted = parsers.filter(
        (parser) => !skip.has(taskKey(question.id, answerer.key, parser.key, replicate)),
      );
      if (wanted.length === 0) continue;
      plan ??= planQuestion(question, config, options);
      yield* answerTasks(question, answerer, wanted, replicate, runName, plan);
    }
  }

  function* ofAnswerer(answerer: Axis<ModelConfig>): Generator<VerificationTask> {
    for (const question of questionOrder) yield* forAnswerer(answerer, question);
  }

  function* inOrder(): Generator<VerificationTask> {
    if (ordering === "generation_order") {
      for (const question of questionOrder)
        for (const answerer of answerers) yield* forAnswerer(answerer, question);
    } else if (ordering === "prefix_cache") {
      for (const answerer of answerers) yield* ofAnswerer(answerer);
    } else {
      const streams = answerers.map(ofAnswerer);
      while (streams.length > 0) {
        for (let i = 0; i < streams.length; ) {
          const next = (streams[i] as Generator<VerificationTask>).next();
          if (next.done) streams.splice(i, 1);
          else {
            yield next.value;
            i++;
          }
        }
      }
    }
  }

  const full = questions.length * answerers.length * parsers.length * replicates;
  let skipped = 0;
  if (skip.size > 0) {
    for (const question of questions)
      for (const answerer of answerers)
        for (const parser of parsers)
          for (let r = 1; r <= replicates; r++)
            if (skip.has(taskKey(question.id, answerer.key, parser.key, replicates === 1 ? null : r)))
              skipped++;
  }
  const randomized = ordering === "random" ? shuffle([...inOrder()]) : null;
  return {
    total: full - skipped,
    runName,
    [Symbol.iterator]: () => (randomized ?? inOrder())[Symbol.iterator](),
  };
}

/** The task queue of a run as an array (see {@link taskPlan}); for small runs and tests. */
export function planTasks(
  questions: readonly PipelineQuestion[],
  config: VerificationConfig,
  options: PlanOptions = {},
): VerificationTask[] {
  return [...taskPlan(questions, config, options)];
}

/** `auto` is `distribute_answerers` with several answering models, else `prefix_cache` (spec 04 §15.2). */
function effectiveOrdering(config: VerificationConfig): Exclude<VerificationConfig["task_ordering"], "auto"> {
  if (config.task_ordering !== "auto") return config.task_ordering;
  const answerers = new Set(config.answering_models.map((m) => canonicalKey(modelIdentity(m, "answering"))));
  return answerers.size > 1 ? "distribute_answerers" : "prefix_cache";
}

function modelSortName(model: ModelConfig): string {
  return model.id ?? model.model_name ?? "";
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
