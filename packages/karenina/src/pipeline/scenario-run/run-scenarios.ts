import type { Rubric } from "../../model/index.js";
import type { ScenarioExecutionSummary, VerificationResult } from "../../results/index.js";
import type { ScenarioDefinition } from "../../scenario/index.js";
import {
  SandboxScenarioCallables,
  type ScenarioCallables,
  type ScenarioExecutionResult,
} from "../../scenario-runtime/index.js";
import { dumpVerificationConfig, type VerificationConfig } from "../config/index.js";
import { RunLogWriter } from "../run-log/index.js";
import { openRunServices, type RunServiceOptions } from "../run-services.js";
import { RUN_STATE_FORMAT, type RunState, runStatePath, writeRunState } from "../run-state.js";
import type { RunStatsSnapshot } from "../run-stats.js";
import { ScenarioAnswerCache } from "./answer-cache.js";
import { comboDescription, type ScenarioCombo, scenarioCombos } from "./scenario-combos.js";
import { runScenarioExecution, type TurnProgress } from "./scenario-execution.js";
import { finishedExecutions, readScenarioRunLog, type ScenarioRunLog } from "./scenario-run-log.js";
import { ignoredScenarioSettings, TurnConfigs } from "./turn-config.js";

/** What a scenario run reports as it goes. */
export type ScenarioProgressEvent =
  | { type: "warning"; message: string }
  | { type: "start"; total: number; resumed: number; runName: string | null }
  | { type: "combo-start"; description: string; key: string }
  | ({ type: "turn"; key: string } & TurnProgress)
  | {
      type: "execution";
      execution: ScenarioExecutionSummary;
      /** The execution's turn rows, in turn order. */
      rows: VerificationResult[];
      done: number;
      total: number;
    }
  | { type: "end"; summary: ScenarioRunSummary };

/** Options of {@link runScenarioVerification}. */
export interface ScenarioRunOptions extends RunServiceOptions {
  globalRubric?: Rubric | null;
  /** `metadata.run_name` of every row; none by default (the original's rows then carry null, quirk Q30). */
  runName?: string | null;
  onProgress?: (event: ScenarioProgressEvent) => void;
  /** A JSONL run log: each execution's turn rows, then its summary line, appended when it finishes. */
  output?: string;
  /** Skip the combos whose executions are already in `output`. */
  resume?: boolean;
  startedAt?: number;
}

/** An error of the run: a combo that raised, or an execution that stopped with status `error` (spec 08 §5.2). */
export interface ScenarioRunError {
  description: string;
  error: unknown;
}

/** A scenario execution stopped on a failure: an entry of {@link ScenarioRun.errors}. */
export class ScenarioExecutionFailure extends Error {
  override readonly name = "ScenarioExecutionFailure";
}

export interface ScenarioRunSummary {
  runName: string | null;
  /** LLM calls, tokens and cost of this run (resumed executions not counted). */
  stats: RunStatsSnapshot;
  /** Combos in the run, resumed ones included. */
  total: number;
  resumed: number;
  completed: number;
  limitReached: number;
  errored: number;
  turns: number;
  aborted: boolean;
  seconds: number;
}

/** A finished (or cancelled) scenario run. */
export interface ScenarioRun {
  /** Every turn row: the resumed ones first, then each new execution's in execution order. */
  results: VerificationResult[];
  /** One summary per execution (resumed ones first), as the run log keeps them. */
  executions: ScenarioExecutionSummary[];
  /** The executions of this run, with their live state. */
  live: ScenarioExecutionResult[];
  errors: ScenarioRunError[];
  summary: ScenarioRunSummary;
}

/** The summary line kept for an execution (see `ScenarioExecutionSummarySchema`). */
export function executionSummary(
  combo: ScenarioCombo,
  execution: ScenarioExecutionResult,
): ScenarioExecutionSummary {
  return {
    combo_key: combo.key,
    scenario_id: execution.scenario_id,
    status: execution.status,
    replicate: execution.replicate,
    path: [...execution.path],
    turn_count: execution.turn_count,
    outcome_results: { ...execution.outcome_results },
    terminal_failure: execution.terminal_failure,
    result_ids: execution.turn_results.map((row) => row.metadata.result_id),
  };
}

/** The executions a resumed run already has (see `finishedExecutions`), in combo order. */
async function priorExecutions(
  options: ScenarioRunOptions,
  combos: readonly ScenarioCombo[],
): Promise<ScenarioRunLog> {
  if (!options.resume || options.output === undefined) return { rows: [], executions: [] };
  const finished = finishedExecutions(await readScenarioRunLog(options.output));
  const position = new Map(combos.map((combo, index) => [combo.key, index]));
  const rank = (summary: ScenarioExecutionSummary) => position.get(summary.combo_key) ?? combos.length;
  const executions = [...finished.executions].sort((a, b) => rank(a) - rank(b));
  const rowsById = new Map(finished.rows.map((row) => [row.metadata.result_id, row]));
  const rows = executions.flatMap((summary) =>
    summary.result_ids.map((id) => rowsById.get(id) as VerificationResult),
  );
  return { rows, executions };
}

function errorEntry(execution: ScenarioExecutionResult): ScenarioRunError | null {
  const failure = execution.terminal_failure;
  if (execution.status !== "error" || failure === null) return null;
  const description = `Scenario '${execution.scenario_id}' stopped at node '${failure.node_id}' (${failure.category} in stage '${failure.stage || "unknown"}'): ${failure.reason}`;
  return { description, error: new ScenarioExecutionFailure(description) };
}

function needsCallables(scenarios: readonly ScenarioDefinition[]): boolean {
  return scenarios.some(
    (scenario) =>
      Object.values(scenario.nodes).some((node) => node.state_update_source !== null) ||
      scenario.edges.some((edge) => edge.condition_source !== null) ||
      scenario.outcome_criteria.some((criterion) => criterion.evaluate_source !== null),
  );
}

/**
 * Runs a scenario benchmark (spec 08 §5): every scenario × answering model × parsing model × replicate is one
 * execution; executions run side by side (`async_max_workers` of them when `async_enabled`, quirk Q4 fixed),
 * their turns one after another. Each finished execution's turn rows and its summary line are appended to the
 * run log together, so an interrupted run resumes with the executions not yet finished, from their first turn.
 * Nothing is thrown for a failing execution: it is in `errors` (quirk Q46).
 */
export async function runScenarioVerification(
  scenarios: readonly ScenarioDefinition[],
  config: VerificationConfig,
  options: ScenarioRunOptions = {},
): Promise<ScenarioRun> {
  const started = options.startedAt ?? Date.now();
  const combos = scenarioCombos(scenarios, config);
  const prior = await priorExecutions(options, combos);
  // A resumed run keeps its name; a run given none has none (quirk Q30).
  const runName =
    options.runName ?? prior.rows.find((row) => row.metadata.run_name)?.metadata.run_name ?? null;
  const done = new Set(prior.executions.map((summary) => summary.combo_key));
  const remaining = combos.filter((combo) => !done.has(combo.key));
  const { services, close } = await openRunServices(config, options);
  const callables: ScenarioCallables | null = needsCallables(scenarios)
    ? new SandboxScenarioCallables(services.pythonSandbox)
    : null;
  const configs = new TurnConfigs(config);
  const cache = new ScenarioAnswerCache((config.request_timeout ?? 120) * 1000);
  const order = new Map(remaining.map((combo, index) => [combo.key, index]));
  const finished: { order: number; execution: ScenarioExecutionResult; summary: ScenarioExecutionSummary }[] =
    [];
  const errors: ScenarioRunError[] = [];
  const progress = (event: ScenarioProgressEvent) => options.onProgress?.(event);
  const warn = (message: string) => progress({ type: "warning", message });
  const writer =
    options.output === undefined
      ? null
      : await RunLogWriter.open(options.output).catch(async (error: unknown) => {
          await close();
          throw error;
        });
  const statePath = options.output === undefined ? null : runStatePath(options.output);
  const state: RunState = {
    format: RUN_STATE_FORMAT,
    run_name: runName ?? "",
    total_tasks: combos.length,
    resumed: prior.executions.length,
    started_at: new Date(started).toISOString(),
    updated_at: new Date().toISOString(),
    finished: false,
    aborted: false,
    config: statePath === null ? {} : dumpVerificationConfig(config),
  };
  const queue = remaining[Symbol.iterator]();
  let aborted = false;
  const runCombo = async (combo: ScenarioCombo) => {
    progress({ type: "combo-start", description: comboDescription(combo), key: combo.key });
    const execution = await runScenarioExecution({
      scenario: combo.scenario,
      base: { answering: combo.answering, parsing: combo.parsing },
      replicate: combo.replicate,
      runName,
      globalRubric: options.globalRubric ?? null,
      config,
      configs,
      services,
      callables,
      cache,
      workspaceRoot: options.workspaceRoot ?? null,
      onTurn: (turn) => progress({ type: "turn", key: combo.key, ...turn }),
      warn,
    });
    const summary = executionSummary(combo, execution);
    if (writer !== null) {
      const lines = [...execution.turn_results, { scenario_execution: summary }];
      await Promise.all(lines.map((line) => writer.append(line)));
    }
    finished.push({ order: order.get(combo.key) ?? 0, execution, summary });
    const entry = errorEntry(execution);
    if (entry !== null) errors.push(entry);
    const done = prior.executions.length + finished.length;
    progress({
      type: "execution",
      execution: summary,
      rows: execution.turn_results,
      done,
      total: combos.length,
    });
  };
  const worker = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      if (services.signal?.aborted) {
        aborted = true;
        return;
      }
      try {
        await runCombo(next.value);
      } catch (error) {
        if (services.signal?.aborted) {
          aborted = true;
          return;
        }
        errors.push({ description: comboDescription(next.value), error });
      }
    }
  };
  try {
    if (statePath !== null) await writeRunState(statePath, state);
    const ignored = ignoredScenarioSettings(config);
    if (ignored.length > 0) warn(`scenario turns ignore these settings: ${ignored.join(", ")}`);
    progress({ type: "start", total: combos.length, resumed: prior.executions.length, runName });
    const workers = config.async_enabled ? Math.max(1, config.async_max_workers) : 1;
    await Promise.all(Array.from({ length: Math.min(workers, Math.max(1, remaining.length)) }, worker));
  } finally {
    await writer?.close();
    await close();
  }
  if (statePath !== null) {
    await writeRunState(statePath, {
      ...state,
      updated_at: new Date().toISOString(),
      finished: !aborted,
      aborted,
    });
  }
  // Executions in combo order, whichever finished first (spec 08 §5.2).
  finished.sort((a, b) => a.order - b.order);
  const live = finished.map((entry) => entry.execution);
  const executions = [...prior.executions, ...finished.map((entry) => entry.summary)];
  const results = [...prior.rows, ...live.flatMap((execution) => execution.turn_results)];
  const count = (status: string) => executions.filter((summary) => summary.status === status).length;
  const summary: ScenarioRunSummary = {
    runName,
    stats: services.stats.snapshot(),
    total: combos.length,
    resumed: prior.executions.length,
    completed: count("completed"),
    limitReached: count("limit_reached"),
    errored: count("error"),
    turns: results.length,
    aborted,
    seconds: (Date.now() - started) / 1000,
  };
  progress({ type: "end", summary });
  return { results, executions, live, errors, summary };
}
