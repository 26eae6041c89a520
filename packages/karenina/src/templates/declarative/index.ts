export { floatRepr, PyFloat, pyRepr, stringRepr } from "../../python-repr/index.js";
export {
  compositionLabel,
  evaluateStrategy,
  granularScore,
  type StrategyNode,
  StrategyNodeSchema,
  strategyFromSpec,
  strategyToSpec,
  type WeightedScore,
} from "./composition.js";
export {
  type ConditionalGroundTruth,
  ConditionalGroundTruthSchema,
  compileConditional,
  GroundTruthCaseSchema,
  isConditional,
  resolveSource,
} from "./conditional.js";
export { parseDateutil } from "./dates/dateutil-parse.js";
export { DateParseError, type PyDateTime } from "./dates/py-datetime.js";
export { strptime } from "./dates/strptime.js";
export { type DeclarativeEvaluation, DeclarativeTemplate } from "./declarative-template.js";
export {
  NotDeclarativeError,
  PrimitiveError,
  type PythonExceptionKind,
  TemplateSpecError,
  TemplateSplitError,
  VerificationError,
} from "./errors.js";
export { loadDeclarativeTemplate } from "./load-declarative-template.js";
export {
  joinMixedTemplate,
  type MixedTemplate,
  splitMixedTemplate,
  type TemplateRemainder,
  TemplateRemainderSchema,
} from "./mixed-template.js";
export {
  compileNormalizers,
  type Normalizer,
  type SynonymMap,
  SynonymMapSchema,
} from "./primitives/normalizers.js";
export {
  FIELD_TYPES,
  type FieldType,
  type Primitive,
  type PrimitiveDefinition,
  parametersJsonSchema,
  type SerializedPrimitive,
  type TracePrimitive,
  type ValuePrimitive,
} from "./primitives/primitive.js";
export {
  createPrimitive,
  PRIMITIVE_NAMES,
  PRIMITIVES,
  primitiveDefinition,
  primitiveFloatParameters,
  primitiveFromJson,
} from "./primitives/registry.js";
export {
  INJECTED_TEMPLATE_NAMES,
  importResolves,
  KARENINA_MODULES,
  type PublicModule,
  TEMPLATE_PRIMITIVES,
} from "./python-source/module-tree.js";
export { isDeclarativePython, type PythonSpec, pythonToSpec } from "./python-to-spec.js";
export {
  PYTHON_PUNCTUATION,
  PYTHON_WHITESPACE,
  parsePyFloat,
  plainJson,
  pyCollapseWhitespace,
  pyEquals,
  pyFloat,
  pySplit,
  pyStr,
  pyStrip,
  pyTruthy,
  removePunctuation,
} from "./python-values.js";
export { specToPython } from "./spec-to-python.js";
export {
  type TemplateFieldSpec,
  type TemplateFieldSpecInput,
  TemplateFieldSpecSchema,
  type TemplateSpec,
  type TemplateSpecInput,
  TemplateSpecSchema,
  type VerifyStrategySpec,
  VerifyStrategySpecSchema,
} from "./template-spec.js";
export { validateSpec } from "./validate-spec.js";
