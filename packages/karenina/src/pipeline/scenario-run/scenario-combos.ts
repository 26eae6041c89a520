import type { ScenarioDefinition } from "../../scenario/index.js";
import { canonicalKey, type ModelConfig, modelIdentity, type VerificationConfig } from "../config/index.js";
import { taskKey } from "../task.js";

/** One execution to run: a scenario × an answering model × a parsing model × a replicate (spec 08 §5.1). */
export interface ScenarioCombo {
  scenario: ScenarioDefinition;
  answering: ModelConfig;
  parsing: ModelConfig;
  replicate: number | null;
  /** `<scenario>\t<ansKey>\t<parseKey>[\trep<N>]`: the resume key, the scenario in the question slot. */
  key: string;
  answeringKey: string;
}

function sortName(model: ModelConfig): string {
  return model.id ?? model.model_name ?? "";
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Null first, then ascending. */
function compareReplicates(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a - b;
}

function byScenarioParserReplicate(a: ScenarioCombo, b: ScenarioCombo): number {
  return (
    compare(a.scenario.name, b.scenario.name) ||
    compare(sortName(a.parsing), sortName(b.parsing)) ||
    compareReplicates(a.replicate, b.replicate)
  );
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Answerers round-robin, each group sorted by scenario, parser and replicate (spec 08 §5.1 step 4). */
function distributeAnswerers(combos: readonly ScenarioCombo[]): ScenarioCombo[] {
  const groups = new Map<string, ScenarioCombo[]>();
  for (const combo of combos) {
    const group = groups.get(combo.answeringKey) ?? [];
    group.push(combo);
    groups.set(combo.answeringKey, group);
  }
  const sorted = [...groups.values()].map((group) => group.sort(byScenarioParserReplicate));
  const out: ScenarioCombo[] = [];
  for (let i = 0; out.length < combos.length; i++) {
    for (const group of sorted) if (i < group.length) out.push(group[i] as ScenarioCombo);
  }
  return out;
}

/**
 * The combos of a scenario run in queue order (spec 08 §5.1 steps 3–4): generated scenario × answerer × parser
 * × replicate (`null` with one replicate, else 1…N), then ordered by `task_ordering` (`auto`: distribute the
 * answerers when there are several distinct ones, else group by answerer).
 */
export function scenarioCombos(
  scenarios: readonly ScenarioDefinition[],
  config: VerificationConfig,
): ScenarioCombo[] {
  const replicates =
    config.replicate_count === 1 ? [null] : Array.from({ length: config.replicate_count }, (_, i) => i + 1);
  const combos: ScenarioCombo[] = [];
  for (const scenario of scenarios)
    for (const answering of config.answering_models)
      for (const parsing of config.parsing_models)
        for (const replicate of replicates) {
          const answeringKey = canonicalKey(modelIdentity(answering, "answering"));
          const parsingKey = canonicalKey(modelIdentity(parsing, "parsing"));
          const key = taskKey(scenario.name, answeringKey, parsingKey, replicate);
          combos.push({ scenario, answering, parsing, replicate, key, answeringKey });
        }
  let ordering = config.task_ordering;
  if (ordering === "auto") {
    ordering = new Set(combos.map((c) => c.answeringKey)).size > 1 ? "distribute_answerers" : "prefix_cache";
  }
  if (ordering === "prefix_cache") {
    return [...combos].sort(
      (a, b) => compare(sortName(a.answering), sortName(b.answering)) || byScenarioParserReplicate(a, b),
    );
  }
  if (ordering === "distribute_answerers") return distributeAnswerers(combos);
  if (ordering === "random") return shuffle([...combos]);
  return combos;
}

/** The description of a combo in error entries (spec 08 §5.2). */
export function comboDescription(combo: ScenarioCombo): string {
  const models = `${combo.answering.model_name ?? "unknown"}/${combo.parsing.model_name ?? "unknown"}`;
  const replicate = combo.replicate === null ? "" : ` rep=${combo.replicate}`;
  return `Scenario '${combo.scenario.name}' with ${models}${replicate}`;
}
