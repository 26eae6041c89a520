/**
 * The public module tree of the original Karenina that templates import from (spec 02 §1.1; the original's
 * `karenina.schemas.entities`, `karenina.schemas.primitives` and their submodules). One table serves both
 * runtimes: the Pyodide compatibility layer builds these modules from it, and the declarative reader accepts an
 * import line only when it names a module and names listed here, so both accept the same imports.
 */

const TRACE_PRIMITIVES = ["TraceContains", "TraceLength", "TraceRegex"] as const;

/** The parsed (non-trace) primitives, as `karenina.schemas.primitives.comparisons` defines them. */
const PARSED_PRIMITIVES = [
  "BooleanMatch",
  "ContainsAll",
  "ContainsAny",
  "DateMatch",
  "DateRange",
  "DateTolerance",
  "ExactMatch",
  "LiteralMatch",
  "NumericExact",
  "NumericGraded",
  "NumericMaximum",
  "NumericMinimum",
  "NumericRange",
  "NumericRangeGraded",
  "NumericThresholdGraded",
  "NumericTolerance",
  "OrderedMatch",
  "RegexMatch",
  "SemanticMatch",
  "SetContainment",
] as const;

/** The 23 primitives of spec 02 §1.1. */
export const TEMPLATE_PRIMITIVES: readonly string[] = [...PARSED_PRIMITIVES, ...TRACE_PRIMITIVES];

const NORMALIZERS = ["Normalizer", "SynonymMap", "apply_normalizer", "apply_normalizers"] as const;
const COMPOSITION = ["AllOf", "AnyOf", "AtLeastN"] as const;
const SCOPES = ["AllTurns", "AnyTurn", "FirstTurn", "LastTurn", "TurnAt", "TurnScope"] as const;
const CONDITIONAL = ["ConditionalGroundTruth", "GroundTruthCase"] as const;
const ANSWER = ["BaseAnswer", "capture_answer_source"] as const;

/**
 * The names the original puts in every template's global namespace (spec 02 §1.1), besides the typing names and
 * `Field`: what a class body and its methods can use without importing anything.
 */
export const INJECTED_TEMPLATE_NAMES: readonly string[] = [
  "BaseAnswer",
  "VerifiedField",
  ...TEMPLATE_PRIMITIVES,
  ...COMPOSITION,
  "FieldCheck",
  "SynonymMap",
  ...CONDITIONAL,
];

/** A module of the tree: whether it is a package, and the names it exports. */
export interface PublicModule {
  readonly package: boolean;
  readonly names: readonly string[];
}

/**
 * Every module path templates may import from, with its names. Every name denotes one object whichever path it
 * is imported from (`karenina.schemas.primitives.ExactMatch is karenina.schemas.entities.ExactMatch`).
 */
export const KARENINA_MODULES: Readonly<Record<string, PublicModule>> = {
  karenina: { package: true, names: [] },
  // Ours also re-exports the injected names here, as earlier versions of this layer did.
  "karenina.schemas": {
    package: true,
    names: [...ANSWER, ...INJECTED_TEMPLATE_NAMES.filter((n) => n !== "BaseAnswer")],
  },
  "karenina.schemas.entities": {
    package: true,
    names: [
      ...ANSWER,
      "VerifiedField",
      "VerificationMeta",
      "VerificationPrimitive",
      "TracePrimitive",
      ...TEMPLATE_PRIMITIVES,
      ...COMPOSITION,
      "FieldCheck",
      "evaluate_strategy",
      ...NORMALIZERS,
      ...CONDITIONAL,
    ],
  },
  "karenina.schemas.entities.answer": { package: false, names: ANSWER },
  "karenina.schemas.entities.verified_field": {
    package: false,
    names: ["VerifiedField", "VerificationMeta"],
  },
  "karenina.schemas.entities.composition": {
    package: false,
    names: [...COMPOSITION, "FieldCheck", "StrategyNode", "evaluate_strategy"],
  },
  "karenina.schemas.entities.conditional": { package: false, names: CONDITIONAL },
  "karenina.schemas.primitives": {
    package: true,
    names: [
      "VerificationPrimitive",
      "TracePrimitive",
      ...TEMPLATE_PRIMITIVES,
      ...COMPOSITION,
      "evaluate_composition",
      ...SCOPES,
      ...NORMALIZERS,
    ],
  },
  "karenina.schemas.primitives.comparisons": {
    package: false,
    names: ["VerificationPrimitive", ...PARSED_PRIMITIVES],
  },
  "karenina.schemas.primitives.trace": { package: false, names: ["TracePrimitive", ...TRACE_PRIMITIVES] },
  "karenina.schemas.primitives.normalizers": { package: false, names: NORMALIZERS },
  "karenina.schemas.primitives.composition": {
    package: false,
    names: [...COMPOSITION, "evaluate_composition"],
  },
  "karenina.schemas.primitives.scope": { package: false, names: SCOPES },
  "karenina.schemas.primitives.registry": {
    package: false,
    names: ["_register_primitive", "_reconstruct_primitive"],
  },
  // The original's deprecated path, kept there for backward compatibility.
  "karenina.schemas.domain": { package: true, names: ANSWER },
};

/** What the compatibility layer's `pydantic` exports. */
const PYDANTIC_NAMES = [
  "BaseModel",
  "ConfigDict",
  "Field",
  "FieldInfo",
  "PydanticSchemaGenerationError",
  "ValidationError",
];

/** The typing names a declarative template may import (all exist in `typing` and `typing_extensions`). */
const TYPING_NAMES = [
  "Annotated",
  "Any",
  "ClassVar",
  "Dict",
  "FrozenSet",
  "List",
  "Literal",
  "Optional",
  "Sequence",
  "Set",
  "Tuple",
  "Union",
];

/** `from __future__ import …` features Python knows and that do not change how a declarative template reads. */
const FUTURE_FEATURES = [
  "absolute_import",
  "annotations",
  "division",
  "generator_stop",
  "generators",
  "nested_scopes",
  "print_function",
  "unicode_literals",
  "with_statement",
];

/** The importable modules besides the tree, and their names. */
const OTHER_MODULES: Readonly<Record<string, readonly string[]>> = {
  pydantic: PYDANTIC_NAMES,
  typing: TYPING_NAMES,
  typing_extensions: TYPING_NAMES,
  __future__: FUTURE_FEATURES,
};

function exportsOf(module: string): readonly string[] | undefined {
  if (Object.hasOwn(KARENINA_MODULES, module)) return KARENINA_MODULES[module]?.names;
  return Object.hasOwn(OTHER_MODULES, module) ? OTHER_MODULES[module] : undefined;
}

/** Whether `import <module>` succeeds in both runtimes. */
export function moduleExists(module: string): boolean {
  return exportsOf(module) !== undefined;
}

/**
 * Whether `from <module> import <name>` succeeds in both runtimes: the module exports the name, or the name is
 * one of its submodules (`from karenina.schemas import entities`).
 */
export function importResolves(module: string, name: string): boolean {
  const names = exportsOf(module);
  if (names === undefined) return false;
  return names.includes(name) || Object.hasOwn(KARENINA_MODULES, `${module}.${name}`);
}
