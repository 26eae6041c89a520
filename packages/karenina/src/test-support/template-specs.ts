/** TemplateSpec pieces shared by the builder's tests (library, routes, browser). */
import type { TemplateFieldSpec } from "../templates/index.js";

/** `target: str`, ExactMatch (lowercase, strip) against BCL2: the field most builder tests start from. */
export const BCL2_TARGET_FIELD: TemplateFieldSpec = {
  name: "target",
  type: "str",
  description: "Target protein named in the response",
  extraction_hint: null,
  ground_truth: "BCL2",
  literal_values: null,
  verify_with: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
  weight: 1,
  is_trace: false,
};
