import type { VerificationConfig } from "../config/index.js";

type TurnMode = "template_only" | "template_and_rubric";

/**
 * The config a scenario turn runs with (spec 08 §4.4): the mode comes from the node's rubric; template deep
 * judgment, rubric deep judgment, the embedding check, dynamic rubrics, `prompt_config`, the few-shot config
 * and the rubric strategy settings keep their defaults (quirk Q17, mirrored). Abstention and sufficiency are
 * honoured when the run enables them (a fix: the original inserts their stages but leaves them inert).
 * Made once per run and mode, so a run's turns share their stage lists.
 */
export class TurnConfigs {
  readonly #byMode = new Map<TurnMode, VerificationConfig>();

  constructor(readonly run: VerificationConfig) {}

  /** The config of a turn whose rubric has traits (`withRubric`) or not. */
  for(withRubric: boolean): VerificationConfig {
    const mode: TurnMode = withRubric ? "template_and_rubric" : "template_only";
    let config = this.#byMode.get(mode);
    if (config === undefined) {
      config = {
        ...this.run,
        evaluation_mode: mode,
        parsing_only: false,
        deep_judgment_mode: "disabled",
        deep_judgment_rubric_mode: "disabled",
        embedding_check_enabled: false,
        rubric_evaluation_strategy: "batch",
        rubric_trait_names: null,
        agentic_rubric_strategy: "individual",
        agentic_rubric_parallel: false,
        few_shot_config: null,
        prompt_config: null,
      };
      this.#byMode.set(mode, config);
    }
    return config;
  }
}

/** The run settings a scenario turn does not honour (quirk Q17), named for a warning when a run sets them. */
export function ignoredScenarioSettings(config: VerificationConfig): string[] {
  const ignored: string[] = [];
  if (config.evaluation_mode === "rubric_only") ignored.push("evaluation_mode rubric_only");
  if (config.deep_judgment_mode !== "disabled") ignored.push("deep_judgment_mode");
  if (config.deep_judgment_rubric_mode !== "disabled") ignored.push("deep_judgment_rubric_mode");
  if (config.embedding_check_enabled) ignored.push("embedding_check_enabled");
  if (config.few_shot_config !== null) ignored.push("few_shot_config");
  if (config.prompt_config !== null) ignored.push("prompt_config");
  if (config.rubric_trait_names !== null) ignored.push("rubric_trait_names");
  if (config.parsing_only) ignored.push("parsing_only");
  return ignored;
}
