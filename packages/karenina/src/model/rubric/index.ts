export type { AgenticTrait, AgenticTraitInput } from "./agentic-trait.js";
export { AgenticTraitSchema, CONTEXT_MODES } from "./agentic-trait.js";
export type { CallableTrait, CallableTraitInput } from "./callable-trait.js";
export { CallableTraitSchema, isDecodableBase64 } from "./callable-trait.js";
export type { RubricIssue } from "./errors.js";
export { RubricError, zodErrorMessage } from "./errors.js";
export type { LlmTrait, LlmTraitInput } from "./llm-trait.js";
export { LlmTraitSchema } from "./llm-trait.js";
export type { MergedRubric, TraitProvenance } from "./merge.js";
export { mergeRubrics } from "./merge.js";
export type { MetricName, MetricTrait, MetricTraitInput } from "./metric-trait.js";
export { METRIC_NAMES, MetricTraitSchema } from "./metric-trait.js";
export type { RubricReadinessError } from "./readiness.js";
export { validateRubricForReadiness } from "./readiness.js";
export type { RegexTrait, RegexTraitInput } from "./regex-trait.js";
export { RegexTraitSchema } from "./regex-trait.js";
export type { DynamicRubric, PythonRubricDump, Rubric, RubricInput } from "./rubric.js";
export {
  DynamicRubricSchema,
  isEmptyRubric,
  parseDynamicRubric,
  parseRubric,
  RubricSchema,
  rubricFromTraits,
  rubricTraitNames,
  rubricTraits,
  toPythonRubricDump,
  toPythonTraitDump,
  traitListKey,
} from "./rubric.js";
export type { RubricTrait, RubricTraitInput, TraitKindLabel, TraitType } from "./rubric-trait.js";
export {
  parseRubricTrait,
  RubricTraitSchema,
  TRAIT_FIELDS,
  TRAIT_SCHEMAS,
  TRAIT_TYPES,
  traitKindLabel,
} from "./rubric-trait.js";
export type { Classes, ScalarKind, TemplateKind, TraitKind } from "./trait-fields.js";
export { isTemplateKind, ScalarKindSchema, TemplateKindSchema, TraitKindSchema } from "./trait-fields.js";
