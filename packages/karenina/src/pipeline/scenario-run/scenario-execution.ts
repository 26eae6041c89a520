import { mkdir, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import {
  AI_MESSAGE_HEADER,
  assistantMessage,
  type Message,
  systemMessage,
  userMessage,
} from "../../llm/index.js";
import type { Rubric } from "../../model/index.js";
import { displayString, type VerificationResult } from "../../results/index.js";
import { END, type ScenarioDefinition, type ScenarioEdge, USER_AGENT_ID } from "../../scenario/index.js";
import {
  applyHandover,
  applyStateUpdate,
  evaluateOutcomeCriteria,
  historyKeyStrings,
  initialScenarioState,
  resolveNextNode,
  type ScenarioCallables,
  type ScenarioExecutionResult,
  ScenarioRuntimeError,
  type ScenarioState,
  type ScenarioTerminalFailure,
  scenarioCacheKey,
  type TaggedMessage,
  type TurnRecord,
} from "../../scenario-runtime/index.js";
import { modelIdentity, type VerificationConfig } from "../config/index.js";
import { TaskAbortedError } from "../orchestrator.js";
import type { RunServices } from "../services.js";
import type { ScenarioAnswerCache } from "./answer-cache.js";
import { runTurn, type TurnOutput } from "./scenario-turn.js";
import type { TurnConfigs } from "./turn-config.js";
import { type TurnModels, turnModels } from "./turn-models.js";

/** Reported after each turn (spec 08 §4.15): `nextNode` is a node id, `__end__`, or null when the run stops. */
export interface TurnProgress {
  scenarioId: string;
  turn: number;
  node: string;
  verifyResult: boolean | null;
  nextNode: string | null;
  result: VerificationResult;
}

/** One execution: a scenario with base models and a replicate (spec 08 §4.1). */
export interface ExecutionInput {
  scenario: ScenarioDefinition;
  base: TurnModels;
  replicate: number | null;
  /** `metadata.run_name` of the rows; null when the run was given none (quirk Q30). */
  runName: string | null;
  globalRubric: Rubric | null;
  config: VerificationConfig;
  configs: TurnConfigs;
  services: RunServices;
  /** Runs the scenario's Python callables; null when it has none. */
  callables: ScenarioCallables | null;
  cache: ScenarioAnswerCache | null;
  /** Where turn directories (and handover trace files) go; none by default. */
  workspaceRoot: string | null;
  onTurn?(progress: TurnProgress): void;
  warn(message: string): void;
}

/** Every character outside `[A-Za-z0-9_-]` replaced by `_` (spec 08 §4.2 step 5). */
export function safeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, "_");
}

function baseIdentity(input: ExecutionInput): string {
  const entry = input.scenario.nodes[input.scenario.entry_node];
  return entry?.agent_identity ?? input.base.answering.id ?? input.base.answering.model_name ?? "unknown";
}

async function scenarioDir(input: ExecutionInput): Promise<string | null> {
  if (input.workspaceRoot === null) return null;
  const model = input.base.answering.id ?? input.base.answering.model_name ?? "unknown";
  const parts = [input.workspaceRoot, safeSegment(input.scenario.name), safeSegment(model)];
  if (input.replicate !== null) parts.push(`rep_${input.replicate}`);
  const dir = join(...parts);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The text of a raw trace without its `--- AI Message ---` header, for a turn that came without messages. */
function answerText(raw: string): string {
  const header = `${AI_MESSAGE_HEADER}\n`;
  return raw.startsWith(header) ? raw.slice(header.length) : raw;
}

/** The messages a turn leaves in the log: its trace, or (quirk Q26, fixed) an answer built from its raw text. */
function loggedMessages(output: TurnOutput): Message[] {
  if (output.traceMessages.length > 0) return output.traceMessages;
  return output.rawResponse === "" ? [] : [assistantMessage(answerText(output.rawResponse))];
}

/**
 * The history a turn receives without a handover: the log's messages without system prompts (quirk Q5,
 * fixed): the answering call then sends the current node's own system prompt, so a turn whose agent changed
 * speaks with its own voice rather than the previous agent's.
 */
function rawHistory(log: readonly TaggedMessage[]): Message[] {
  return log.filter((entry) => entry.message.role !== "system").map((entry) => entry.message);
}

/** The execution loop's own bookkeeping around the state (spec 08 §4.2 step 6). */
interface Loop {
  state: ScenarioState;
  log: TaggedMessage[];
  path: string[];
  turnResults: VerificationResult[];
  pendingEdge: ScenarioEdge | null;
  previousAgent: string | null;
  previousSystemPrompt: string | null;
}

/** Does the turn's answer come from the replay store? Then it bypasses the node cache (spec 08 §5.6, Q25 fixed). */
function replayAnswers(input: ExecutionInput, node: string, visit: number, models: TurnModels): boolean {
  const store = input.services.replay;
  if (store === null || !store.hasAnyFor({ scenario_id: input.scenario.name, scenario_node: node }))
    return false;
  try {
    const found = store.lookup({
      question_id: "",
      scenario_id: input.scenario.name,
      scenario_node: node,
      answering_model_id: displayString(modelIdentity(models.answering, "answering")),
      visit_index: visit,
      replicate: input.replicate,
    });
    return found !== null;
  } catch {
    // A strict miss: the turn fails in GenerateAnswer without calling the model, so no cache slot either.
    return true;
  }
}

/**
 * Runs one execution of a scenario (spec 08 §4): the turn loop, edge selection, `state_update`, handover,
 * limits and terminal failures, then the outcome criteria. Turn-loop errors (an unknown node, an unknown
 * handover strategy, a callable that cannot run) end the execution with status `error` and keep the rows of
 * the turns already made (quirk Q7, fixed); a content failure (a wrong answer) is ordinary state.
 */
export async function runScenarioExecution(input: ExecutionInput): Promise<ScenarioExecutionResult> {
  const { scenario, config } = input;
  const loop: Loop = {
    state: initialScenarioState(scenario.entry_node),
    log: [],
    path: [],
    turnResults: [],
    pendingEdge: null,
    previousAgent: null,
    previousSystemPrompt: null,
  };
  const identity = baseIdentity(input);
  const dir = await scenarioDir(input);
  let status: ScenarioExecutionResult["status"] = "completed";
  let terminalFailure: ScenarioTerminalFailure | null = null;
  const { state } = loop;
  try {
    for (;;) {
      const nodeId = state.current_node;
      const node = scenario.nodes[nodeId];
      if (node === undefined) {
        throw new ScenarioRuntimeError(`Unknown node '${nodeId}'`, scenario.name, nodeId);
      }
      const agentId = node.agent_identity ?? identity;
      const models = turnModels(node, input.base, input.warn);
      const turnDir = dir === null ? null : join(dir, `turn_${state.turn}`);
      // A directory that was there before the turn is not ours: it is used, never removed.
      const ownTurnDir = turnDir !== null && (await mkdir(turnDir, { recursive: true })) !== undefined;
      let questionText = node.question.question;
      let history: Message[] = rawHistory(loop.log);
      if (loop.pendingEdge !== null) {
        const handed = await applyHandover(loop.pendingEdge, loop.log, state, questionText, turnDir);
        if (handed !== null) ({ questionText, history } = handed);
      }
      const systemPrompt = models.answering.system_prompt ?? "";
      const changed = loop.previousAgent !== agentId || systemPrompt !== (loop.previousSystemPrompt ?? "");
      if (changed && systemPrompt !== "")
        loop.log.push({ message: systemMessage(systemPrompt), agent_id: agentId });
      loop.log.push({ message: userMessage(questionText), agent_id: USER_AGENT_ID });
      loop.path.push(nodeId);
      const visit = state.node_visits[nodeId] ?? 0;

      const useCache = input.cache !== null && !replayAnswers(input, nodeId, visit, models);
      const model = models.answering.id ?? models.answering.model_name ?? "unknown";
      const slot = useCache
        ? await (input.cache as ScenarioAnswerCache).reserve(
            scenarioCacheKey(scenario.name, nodeId, model, historyKeyStrings(history), input.replicate),
          )
        : null;
      let output: TurnOutput | undefined;
      try {
        output = await runTurn(
          {
            node,
            questionText,
            models,
            replicate: input.replicate,
            globalRubric: input.globalRubric,
            cachedAnswer: slot?.hit ?? null,
            workspacePath:
              turnDir === null || input.workspaceRoot === null
                ? null
                : relative(input.workspaceRoot, turnDir),
            scenario: {
              scenarioId: scenario.name,
              node: nodeId,
              turn: state.turn,
              path: [...loop.path],
              visitIndex: visit,
              history,
              nodeResults: structuredClone(state.node_results) as Record<string, unknown>,
              runName: input.runName,
            },
          },
          input.configs,
          input.services,
        );
      } finally {
        // Settled once: with the answer, or with null when the turn threw (the next turn of the key then generates).
        if (slot !== null && slot.hit === null) slot.complete(output?.answer ?? null);
      }
      // The turn's directory goes with its turn when the run cleans workspaces up (quirk Q18, mirrored).
      if (ownTurnDir && config.workspace_cleanup)
        await rm(turnDir as string, { recursive: true, force: true });
      for (const message of loggedMessages(output)) loop.log.push({ message, agent_id: agentId });
      const result = output.result;
      loop.turnResults.push(result);
      const verifyResult = result.template?.verify_result ?? null;
      const record: TurnRecord = {
        node_id: nodeId,
        question_text: node.question.question,
        question_messages: [userMessage(node.question.question)],
        trace_messages: output.traceMessages,
        raw_response: output.rawResponse,
        parsed_answer: output.parsedAnswer,
        parsed_fields: output.parsedFields,
        verify_result: verifyResult,
        verification_result_id: result.metadata.result_id,
      };
      state.node_results[nodeId] = {
        verify_result: verifyResult,
        parsed: output.parsedFields,
        rubric: output.rubricScores,
      };
      state.accumulated = await applyStateUpdate(node, state.accumulated, output.parsedFields, {
        callables: input.callables,
        warn: input.warn,
      });
      state.turn += 1;
      state.node_visits[nodeId] = visit + 1;
      state.history.push(record);
      state.verify_result = verifyResult;
      state.parsed = output.parsedFields;

      const report = (nextNode: string | null) => {
        try {
          input.onTurn?.({
            scenarioId: scenario.name,
            turn: state.turn - 1,
            node: nodeId,
            verifyResult,
            nextNode,
            result,
          });
        } catch {
          // A progress callback never stops the execution (spec 08 §4.15).
        }
      };
      const failure = result.metadata.failure;
      if (failure !== null && failure.category !== "content") {
        terminalFailure = {
          node_id: nodeId,
          category: failure.category,
          stage: failure.stage,
          reason: failure.reason,
        };
        input.warn(
          `scenario '${scenario.name}' stopped at node '${nodeId}' (${failure.category} in stage '${failure.stage}'): ${failure.reason}`,
        );
        report(null);
        status = "error";
        break;
      }
      if (state.turn >= config.scenario_turn_limit) {
        report(null);
        status = "limit_reached";
        break;
      }
      const outgoing = scenario.edges.filter((edge) => edge.source === nodeId);
      const { target, edge } = await resolveNextNode(outgoing, state, {
        callables: input.callables,
        warn: input.warn,
      });
      report(target);
      if (target === null || target === END) break;
      loop.pendingEdge = edge;
      state.current_node = target;
      loop.previousAgent = agentId;
      loop.previousSystemPrompt = systemPrompt;
    }
  } catch (error) {
    if (error instanceof TaskAbortedError || input.services.signal?.aborted) throw error;
    const node = loop.path.at(-1) ?? state.current_node;
    terminalFailure = {
      node_id: error instanceof ScenarioRuntimeError && error.node !== null ? error.node : node,
      category: "unexpected_error",
      stage: "ScenarioRuntime",
      reason: error instanceof Error ? error.message : String(error),
    };
    input.warn(
      `scenario '${scenario.name}' stopped at node '${terminalFailure.node_id}': ${terminalFailure.reason}`,
    );
    status = "error";
  }
  const result: ScenarioExecutionResult = {
    scenario_id: scenario.name,
    status,
    path: loop.path,
    turn_count: state.turn,
    history: state.history,
    turn_results: loop.turnResults,
    final_state: state,
    outcome_results: {},
    terminal_failure: terminalFailure,
    replicate: input.replicate,
  };
  result.outcome_results = await evaluateOutcomeCriteria(scenario.outcome_criteria, result, {
    callables: input.callables,
    warn: input.warn,
  });
  return result;
}
