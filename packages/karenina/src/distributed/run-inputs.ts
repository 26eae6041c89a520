import { Benchmark, selectQuestions } from "../benchmark/index.js";
import {
  dumpVerificationConfig,
  type Env,
  type PipelineQuestion,
  parseVerificationConfig,
  type VerificationConfig,
  withEndpointKey,
} from "../pipeline/index.js";
import { FleetError } from "./errors.js";
import type { FleetRun } from "./fleet-runs.js";

const SECRET_MODEL_KEYS = ["endpoint_api_key", "anthropic_api_key"] as const;

/**
 * A config as a fleet stores it: its JSON form with the models' API keys left out. Keys never go into the
 * database; each worker reads its own from its environment, as a preset does.
 */
export function storedFleetConfig(config: VerificationConfig): Record<string, unknown> {
  const dump = dumpVerificationConfig(config);
  for (const role of ["answering_models", "parsing_models"]) {
    const models = dump[role];
    if (!Array.isArray(models)) continue;
    for (const model of models as Record<string, unknown>[])
      for (const key of SECRET_MODEL_KEYS) delete model[key];
  }
  return dump;
}

/** The key of a run's `openai_endpoint` models on this machine. */
function endpointKey(run: FleetRun, env: Env): string {
  const variable = run.settings.endpointKeyEnv;
  if (variable === null) return "not-needed";
  const key = env[variable];
  if (!key)
    throw new FleetError(
      `run ${run.runId}: its openai_endpoint models read their key from ${variable}, which is not set here; set it in this worker's environment`,
    );
  return key;
}

/** What a worker (or a resume) rebuilds from a stored run: the benchmark, the config and its questions. */
export interface FleetRunInputs {
  benchmark: Benchmark;
  config: VerificationConfig;
  /** The run's questions by id (templates not loaded yet: a question whose template fails fails its tasks). */
  questions: Map<string, PipelineQuestion>;
}

/**
 * Rebuilds a stored run's inputs. The checkpoint is the one planned (hostile as ever: its code runs only in the
 * benchmark's sandbox, with the run's isolation); API keys come from `env`.
 */
export async function fleetRunInputs(
  run: FleetRun,
  options: { env: Env; workspaceRoot?: string | null },
): Promise<FleetRunInputs> {
  const { settings } = run;
  const workspaceRoot = options.workspaceRoot ?? settings.workspaceRoot;
  const benchmark = Benchmark.parse(run.checkpoint, {
    file: `distributed run ${run.runId}`,
    isolation: settings.isolation,
    workspaceRoot,
  });
  const config = parseVerificationConfig(withEndpointKey(run.config, endpointKey(run, options.env)), {
    env: options.env,
  });
  const selection = await selectQuestions(benchmark, config, {
    questionIds: settings.questionIds,
    includeDrafts: true,
    unusable: "fail",
  });
  return { benchmark, config, questions: new Map(selection.questions.map((q) => [q.id, q])) };
}
