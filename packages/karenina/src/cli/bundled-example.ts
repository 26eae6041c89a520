import { fileURLToPath } from "node:url";
import type { VerificationConfigInput } from "../pipeline/index.js";

/** The recorded example responses of the bundled example benchmark (answers and judge replies). */
export const BUNDLED_RECORDINGS = fileURLToPath(
  new URL("../../examples/drug-targets.recordings", import.meta.url),
);

/** The placeholder endpoint of the example models: never contacted, every call is served from the recordings. */
const EXAMPLE_ENDPOINT = "http://recorded-example.invalid/v1";

/**
 * The run `karenina verify` makes when given no checkpoint: the bundled example benchmark, answered and judged by
 * two example "models" whose every reply was written by hand for the demo and recorded (see
 * `examples/drug-targets.recordings/README.md`). The model names say so; no model produced these texts.
 */
export const BUNDLED_EXAMPLE_CONFIG: VerificationConfigInput = {
  answering_models: [
    {
      id: "handwritten-example-answers",
      model_name: "handwritten-example-answers",
      interface: "openai_endpoint",
      endpoint_base_url: EXAMPLE_ENDPOINT,
      endpoint_api_key: "not-needed",
    },
  ],
  parsing_models: [
    {
      id: "handwritten-example-judge",
      model_name: "handwritten-example-judge",
      interface: "openai_endpoint",
      endpoint_base_url: EXAMPLE_ENDPOINT,
      endpoint_api_key: "not-needed",
    },
  ],
  evaluation_mode: "template_and_rubric",
};
