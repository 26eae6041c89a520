/**
 * What the extension helpers read from a prior run's rows (spec 08 §10.1 "common steps"): its tuples, its
 * answering and parsing identities, its replicate fan-out, its run name, and the replay store of its answers.
 */
import { captureReplayStore } from "../../agentic/index.js";
import { ReplayStore } from "../../llm/index.js";
import { canonicalKey, type VerificationResult } from "../../results/index.js";
import { modelIdentity, type VerificationConfig } from "../config/index.js";
import { taskKey } from "../task.js";
import { ExtendRunError } from "./errors.js";

/** Which helper is checking, for the messages. */
export type ExtendKind = "extendTemplate" | "extendRubric";

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();
const listed = (values: readonly string[]): string => `[${values.join(", ")}]`;

/** The canonical keys of a config's answering or parsing models. */
export function configuredKeys(config: VerificationConfig, role: "answering" | "parsing"): string[] {
  const models = role === "answering" ? config.answering_models : config.parsing_models;
  return sorted(models.map((model) => canonicalKey(modelIdentity(model, role))));
}

/** The canonical keys of the prior rows' answering or parsing models. */
export function priorKeys(prior: readonly VerificationResult[], role: "answering" | "parsing"): string[] {
  return sorted(prior.map((row) => canonicalKey(row.metadata[role])));
}

/**
 * The largest number of distinct `replicate` values (null counts as one) over the prior rows' (question,
 * answering model, parsing model) groups.
 */
export function observedFanOut(prior: readonly VerificationResult[]): number {
  const groups = new Map<string, Set<number | null>>();
  for (const { metadata } of prior) {
    const group = JSON.stringify([
      metadata.question_id,
      canonicalKey(metadata.answering),
      canonicalKey(metadata.parsing),
    ]);
    const replicates = groups.get(group) ?? new Set<number | null>();
    replicates.add(metadata.replicate);
    groups.set(group, replicates);
  }
  return Math.max(0, ...[...groups.values()].map((replicates) => replicates.size));
}

/**
 * The replicate a prior row stands for in a run of `replicateCount` replicates: its own, or 1 for a row of a
 * single-replicate run (replicate null) extended to several replicates.
 */
export function effectiveReplicate(row: VerificationResult, replicateCount: number): number | null {
  return row.metadata.replicate ?? (replicateCount > 1 ? 1 : null);
}

/** The task key (`resultTaskKey` form) a prior row occupies in a run of `replicateCount` replicates. */
export function priorTaskKey(row: VerificationResult, replicateCount: number): string {
  const { metadata } = row;
  return taskKey(
    metadata.question_id,
    canonicalKey(metadata.answering),
    canonicalKey(metadata.parsing),
    effectiveReplicate(row, replicateCount),
  );
}

/** The sorted distinct question ids of the prior rows. */
export function priorQuestionIds(prior: readonly VerificationResult[]): string[] {
  return sorted(prior.map((row) => row.metadata.question_id));
}

/**
 * The run name of the extended run: `override`, else the one distinct non-null `run_name` of the prior rows.
 * @throws {ExtendRunError} when the rows have none, or several.
 */
export function resolveRunName(
  kind: ExtendKind,
  prior: readonly VerificationResult[],
  override: string | undefined,
): string {
  if (override !== undefined) return override;
  const names = sorted(
    prior.map((row) => row.metadata.run_name).filter((name): name is string => name !== null),
  );
  if (names.length === 1) return names[0] as string;
  if (names.length === 0)
    throw new ExtendRunError(
      `${kind}: the prior rows have no run_name; pass runName to name the extended run`,
    );
  throw new ExtendRunError(
    `${kind}: the prior rows have inconsistent run_names (${listed(names)}); pass runName to name the extended run`,
  );
}

/** The checks both helpers run first, in the original's order (prior rows, models, replay store). */
export function checkCommon(
  kind: ExtendKind,
  prior: readonly VerificationResult[],
  config: VerificationConfig,
  replay: ReplayStore | null | undefined,
  isScenarioBenchmark: boolean,
): void {
  if (prior.length === 0)
    throw new ExtendRunError(`${kind}: prior_results must contain at least one VerificationResult`);
  // Scenario rows are keyed by combo, not by question: extending them would re-run and duplicate every combo.
  if (isScenarioBenchmark || prior.some((row) => row.metadata.scenario_id !== null))
    throw new ExtendRunError(
      `${kind}: scenario benchmarks and scenario results cannot be extended yet (their rows are keyed by scenario combo, not by question); re-run the scenarios with --replay instead`,
    );
  if (config.parsing_models.length === 0)
    throw new ExtendRunError(
      `${kind}: config.parsing_models is empty (supply the new judges${kind === "extendRubric" ? ": the prior run's parsing models" : ""})`,
    );
  if (config.answering_models.length === 0)
    throw new ExtendRunError(
      `${kind}: config.answering_models is empty (list every answering model of the prior run)`,
    );
  if (replay != null)
    throw new ExtendRunError(
      `${kind}: a replay store was given, but the helper owns the replay store (it replays the prior rows' answers); leave replay unset`,
    );
}

/** @throws {ExtendRunError} unless every prior answering model is configured (new ones may be added). */
export function checkAnswerersKept(
  kind: ExtendKind,
  prior: readonly VerificationResult[],
  config: VerificationConfig,
): void {
  const configured = configuredKeys(config, "answering");
  const missing = priorKeys(prior, "answering").filter((key) => !configured.includes(key));
  if (missing.length === 0) return;
  throw new ExtendRunError(
    `${kind}: the config's answering models must include every answering model of the prior run (their answers are reused; new ones may be added). Missing keys: ${listed(missing)}. Configured keys: ${listed(configured)}.`,
  );
}

/**
 * The replay store of the prior rows' answers (spec 08 §10.1: every row captured, failed ones included (Q50),
 * trace messages kept, parsed fields dropped, policy `fall_through`). The captured verdict is dropped too: a
 * verdict is a judge's output, and a replayed verdict without parsed fields would skip the new judges' parsing
 * (04 §5.7). Rows of a single-replicate run are registered for replicate 1 when the run has several replicates,
 * so replicates 2..N are answered live instead of replaying the one answer.
 */
export function priorAnswers(prior: readonly VerificationResult[], replicateCount: number): ReplayStore {
  const captured = captureReplayStore(prior, {
    includeParsed: false,
    includeAgentTraces: true,
    onlySuccessful: false,
    replicateSelector: "all",
    missPolicy: "fall_through",
  });
  const store = new ReplayStore({ missPolicy: "fall_through" });
  for (const { key, entry } of captured.entries()) {
    const replicate = key.replicate ?? (replicateCount > 1 ? 1 : null);
    store.register({ ...key, replicate }, { ...entry, verify_result: null });
  }
  return store;
}
