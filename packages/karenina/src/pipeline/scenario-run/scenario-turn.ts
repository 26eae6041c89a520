import type { Message } from "../../llm/index.js";
import { parseRubric, questionUrn, type Rubric, rubricTraits, templateId } from "../../model/index.js";
import type { VerificationResult } from "../../results/index.js";
import type { ScenarioNode } from "../../scenario/index.js";
import type { SharedAnswer } from "../answer-share.js";
import { canonicalKey, modelIdentity, type VerificationConfig } from "../config/index.js";
import { VerificationContext } from "../context.js";
import { runStages } from "../orchestrator.js";
import type { RunServices } from "../services.js";
import { stagesFor } from "../stage-list.js";
import { type PipelineQuestion, type ScenarioTurnFields, taskKey, type VerificationTask } from "../task.js";
import type { TurnConfigs } from "./turn-config.js";
import type { TurnModels } from "./turn-models.js";

/** Everything one turn runs with (spec 08 §4.3 steps 7–9, §4.4). */
export interface TurnInput {
  node: ScenarioNode;
  /** The text sent: the node's, or the one a handover built. */
  questionText: string;
  models: TurnModels;
  replicate: number | null;
  /** The global rubric, used when the node's question has none (quirk Q16: a node rubric replaces it). */
  globalRubric: Rubric | null;
  scenario: ScenarioTurnFields;
  /** An answer of the node-level cache, used instead of generating one. */
  cachedAnswer: SharedAnswer | null;
  /** The turn's directory under the workspace root, where its agents work; else the node question's own. */
  workspacePath?: string | null;
}

/** What a turn yields: its result row and what the execution's state takes from it. */
export interface TurnOutput {
  result: VerificationResult;
  /** The parsed answer with `id` and `correct` (quirk Q14); `{}` when nothing was parsed. */
  parsedFields: Record<string, unknown>;
  parsedAnswer: Record<string, unknown> | null;
  traceMessages: Message[];
  rawResponse: string;
  /** The answer as the node-level cache keeps it; null when the turn has none. */
  answer: SharedAnswer | null;
  /** Trait name → score of the turn's rubric; `{}` when none was evaluated. */
  rubricScores: Record<string, unknown>;
}

function nodeRubric(node: ScenarioNode, globalRubric: Rubric | null): Rubric | null {
  const own = node.question.question_rubric;
  const rubric = own === null ? globalRubric : parseRubric(own);
  return rubric !== null && rubricTraits(rubric).length > 0 ? rubric : null;
}

function pipelineQuestion(
  node: ScenarioNode,
  id: string,
  text: string,
  workspacePath: string | null,
): PipelineQuestion {
  const question = node.question;
  const code = question.answer_template ?? "";
  return {
    id,
    text,
    rawAnswer: question.raw_answer,
    template: code.trim() === "" ? null : { code, language: "Python" },
    keywords: question.keywords,
    fewShotExamples: (question.few_shot_examples ?? []).filter(
      (example): example is { question: string; answer: string } =>
        typeof example.question === "string" && typeof example.answer === "string",
    ),
    rubric: null,
    dynamicRubric: null,
    workspacePath: workspacePath ?? question.workspace_path,
  };
}

/** The turn as a pipeline task: one answering and one parsing model, its own answer (spec 08 §4.4). */
export function turnTask(input: TurnInput): VerificationTask {
  const { node, models, replicate, scenario } = input;
  const id = questionUrn(node.question.question);
  const question = pipelineQuestion(node, id, input.questionText, input.workspacePath ?? null);
  const answeringKey = canonicalKey(modelIdentity(models.answering, "answering"));
  const parsingKey = canonicalKey(modelIdentity(models.parsing, "parsing"));
  const fewShot = question.fewShotExamples;
  const rubric = nodeRubric(node, input.globalRubric);
  return {
    question,
    answering: models.answering,
    parsing: models.parsing,
    replicate,
    runName: scenario.runName ?? "",
    rubric,
    dynamicRubric: null,
    traitProvenance: {},
    fewShotExamples: fewShot,
    fewShotEnabled: fewShot.length > 0,
    templateId: templateId(question.template?.code),
    key: taskKey(id, answeringKey, parsingKey, replicate),
    // One answer per turn: sharing across executions goes through the node-level cache instead.
    answerKey: `${scenario.scenarioId}\t${scenario.node}\t${scenario.turn}\t${answeringKey}`,
    answerSharers: 1,
    planWarnings: [],
    ...(input.cachedAnswer === null ? {} : { cachedAnswer: input.cachedAnswer }),
    scenario,
  };
}

/** The parsed answer as the original's scenario state sees it: `id`, the fields, then `correct`. */
function parsedFieldsOf(ctx: VerificationContext): Record<string, unknown> {
  const parsed = ctx.artifacts.parsedAnswer;
  if (parsed === undefined) return {};
  const groundTruth = ctx.artifacts.template?.groundTruth ?? null;
  const fields: Record<string, unknown> = { id: ctx.task.question.id, ...parsed };
  if (groundTruth !== null && Object.keys(groundTruth).length > 0) fields.correct = groundTruth;
  return fields;
}

function answerOf(ctx: VerificationContext, result: VerificationResult): SharedAnswer | null {
  const { artifacts } = ctx;
  if (artifacts.rawLlmResponse === undefined || artifacts.rawLlmResponse === "") return null;
  if (ctx.error !== null && ctx.error.stage === "GenerateAnswer") return null;
  const usage = ctx.usage.summary() as Record<string, Record<string, number> | undefined>;
  const generation = usage.answer_generation;
  return {
    rawLlmResponse: artifacts.rawLlmResponse,
    traceMessages: artifacts.traceMessages ?? null,
    conversationContext: artifacts.conversationContext ?? [],
    recursionLimitReached: artifacts.recursionLimitReached ?? false,
    responseTimeoutPartial: artifacts.responseTimeoutPartial ?? false,
    usage:
      generation === undefined
        ? null
        : {
            input_tokens: generation.input_tokens ?? 0,
            output_tokens: generation.output_tokens ?? 0,
            total_tokens: generation.total_tokens ?? 0,
          },
    usageUnavailable: result.template?.usage_unavailable ?? false,
    agentMetrics: result.template?.agent_metrics ?? null,
    answeringMcpServers: result.template?.answering_mcp_servers ?? null,
  };
}

/** Runs one turn through the pipeline's stages (spec 08 §4.3 step 9). */
export async function runTurn(
  input: TurnInput,
  configs: TurnConfigs,
  services: RunServices,
): Promise<TurnOutput> {
  const task = turnTask(input);
  const config: VerificationConfig = configs.for(task.rubric !== null);
  const ctx = new VerificationContext(task, config, services);
  const result = await runStages(ctx, stagesFor(config, task));
  const traceMessages = ctx.artifacts.traceMessages ?? [];
  return {
    result,
    parsedFields: parsedFieldsOf(ctx),
    parsedAnswer: ctx.artifacts.parsedAnswer ?? null,
    traceMessages,
    rawResponse: result.template?.raw_llm_response ?? "",
    answer: answerOf(ctx, result),
    rubricScores: ctx.artifacts.verifyRubric ?? {},
  };
}
