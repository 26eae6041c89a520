import { randomBytes } from "node:crypto";
import {
  type DynamicRubric,
  mergeRubrics,
  type Rubric,
  rubricFromTraits,
  rubricTraits,
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
}

function planQuestion(
  question: PipelineQuestion,
  config: VerificationConfig,
  options: PlanOptions,
): QuestionPlan {
  const fewShotOn = config.few_shot_config !== null && config.few_shot_config.source !== "disabled";
  const fewShot = fewShotOn
    ? resolveFewShotExamples(config.few_shot_config, question.id, question.fewShotExamples)
    : [];
  if (config.evaluation_mode === "template_only") {
    return { rubric: null, dynamicRubric: null, provenance: {}, fewShot, warnings: [] };
  }
  const merged = mergeRubrics(options.globalRubric ?? null, question.rubric);
  const rubric = filterTraits(merged.rubric, config.rubric_trait_names);
  const dynamicRubric = question.dynamicRubric ?? options.globalDynamicRubric ?? null;
  return { rubric, dynamicRubric, provenance: merged.provenance, fewShot, warnings: merged.warnings };
}

/**
 * The task queue of a run (spec 04 §15.1): questions × answering models × parsing models × replicates,
 * minus `skipKeys`, ordered by `config.task_ordering` (§15.2). Rubrics are merged only when the mode
 * evaluates them; `rubric_trait_names` filters the merged rubric (the spec's recommended fix).
 */
export function planTasks(
  questions: readonly PipelineQuestion[],
  config: VerificationConfig,
  options: PlanOptions = {},
): VerificationTask[] {
  const runName = options.runName ?? defaultRunName();
  const replicates = config.replicate_count;
  const answeringKeys = config.answering_models.map((m) => canonicalKey(modelIdentity(m, "answering")));
  const parsingKeys = config.parsing_models.map((m) => canonicalKey(modelIdentity(m, "parsing")));
  const tasks: VerificationTask[] = [];
  for (const question of questions) {
    const plan = planQuestion(question, config, options);
    config.answering_models.forEach((answering, a) => {
      config.parsing_models.forEach((parsing, p) => {
        for (let r = 1; r <= replicates; r++) {
          const replicate = replicates === 1 ? null : r;
          const ansKey = answeringKeys[a] as string;
          const key = taskKey(question.id, ansKey, parsingKeys[p] as string, replicate);
          if (options.skipKeys?.has(key)) continue;
          tasks.push({
            question,
            answering,
            parsing,
            replicate,
            runName,
            rubric: plan.rubric,
            dynamicRubric: plan.dynamicRubric,
            traitProvenance: plan.provenance,
            fewShotExamples: plan.fewShot,
            fewShotEnabled: plan.fewShot.length > 0,
            key,
            answerKey:
              replicate === null ? `${question.id}\t${ansKey}` : `${question.id}\t${ansKey}\trep${replicate}`,
            planWarnings: plan.warnings,
          });
        }
      });
    });
  }
  return orderTasks(tasks, config.task_ordering);
}

function modelSortName(model: ModelConfig): string {
  return model.id ?? model.model_name ?? "";
}

function compareBy(a: VerificationTask, b: VerificationTask, answerer: boolean): number {
  const keys = (t: VerificationTask) => [
    ...(answerer ? [modelSortName(t.answering)] : []),
    t.question.id,
    modelSortName(t.parsing),
  ];
  const [ka, kb] = [keys(a), keys(b)];
  for (let i = 0; i < ka.length; i++) {
    const order = (ka[i] as string).localeCompare(kb[i] as string);
    if (order !== 0) return order;
  }
  return (a.replicate ?? 0) - (b.replicate ?? 0);
}

/**
 * Orders a task queue (spec 04 §15.2). `auto` is `distribute_answerers` with several answering models, else
 * `prefix_cache`: grouped by answerer and question so one endpoint sees shared prompt prefixes together.
 */
export function orderTasks(
  tasks: VerificationTask[],
  ordering: VerificationConfig["task_ordering"],
): VerificationTask[] {
  const answerers = new Set(tasks.map((t) => t.answerKey.split("\t")[1]));
  const effective =
    ordering === "auto" ? (answerers.size > 1 ? "distribute_answerers" : "prefix_cache") : ordering;
  switch (effective) {
    case "generation_order":
      return tasks;
    case "random":
      return shuffle(tasks);
    case "prefix_cache":
      return [...tasks].sort((a, b) => compareBy(a, b, true));
    case "distribute_answerers":
      return roundRobin(tasks);
  }
}

function roundRobin(tasks: VerificationTask[]): VerificationTask[] {
  const groups = new Map<string, VerificationTask[]>();
  for (const task of tasks) {
    const answerer = task.answerKey.split("\t")[1] as string;
    const group = groups.get(answerer) ?? [];
    if (group.length === 0) groups.set(answerer, group);
    group.push(task);
  }
  const sorted = [...groups.values()].map((group) => group.sort((a, b) => compareBy(a, b, false)));
  const out: VerificationTask[] = [];
  for (let i = 0; out.length < tasks.length; i++) {
    for (const group of sorted) if (i < group.length) out.push(group[i] as VerificationTask);
  }
  return out;
}

function shuffle<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
