import { PyFloat } from "../../python-repr/index.js";
import { type StrategyNode, StrategyNodeSchema, strategyToSpec } from "./composition.js";
import { NotDeclarativeError } from "./errors.js";
import type { FieldType } from "./primitives/primitive.js";
import { createPrimitive, primitiveDefinition } from "./primitives/registry.js";
import { type Expr, type FieldDeclaration, parseTemplateModule } from "./python-source/parse-module.js";
import { pyStr, pyStrip } from "./python-values.js";
import type { TemplateFieldSpec, TemplateSpec } from "./template-spec.js";

/** What {@link pythonToSpec} read. */
export interface PythonSpec {
  spec: TemplateSpec;
  /** The `VerificationStrategy.verify_strategy` tree, or null (also kept as `spec.verify_strategy`). */
  strategy: StrategyNode | null;
  /**
   * What the spec cannot express and was dropped or approximated (e.g. an `Optional[int]` annotation read
   * as `str`, extra Field arguments); empty when the spec reproduces the class exactly.
   */
  lossy: string[];
}

const refuse = (reason: string, expr: { line: number }): never => {
  throw new NotDeclarativeError(reason, expr.line);
};

/** A call's callee as a plain name, or null. */
const calleeName = (expr: Expr): string | null =>
  expr.kind === "call" && expr.callee.kind === "name" ? expr.callee.name : null;

/** A Python literal (constant, list, tuple, dict with string keys, negated number) as a JSON-shaped value. */
function literalValue(
  expr: Expr,
  convertCall: (call: Expr & { kind: "call" }) => unknown = notALiteral,
): unknown {
  switch (expr.kind) {
    case "constant":
      return expr.value;
    case "negate": {
      const operand = literalValue(expr.operand, convertCall);
      if (operand instanceof PyFloat) return new PyFloat(-operand.value);
      if (typeof operand === "number") return -operand;
      if (typeof operand === "boolean") return -Number(operand);
      return refuse("unary minus on a non-number", expr);
    }
    case "list":
      return expr.items.map((item) => literalValue(item, convertCall));
    case "dict":
      return Object.fromEntries(
        expr.entries.map(([key, value]) => {
          const k = literalValue(key, convertCall);
          if (typeof k !== "string") refuse("dict keys must be strings", key);
          return [k, literalValue(value, convertCall)];
        }),
      );
    case "call":
      return convertCall(expr);
    default:
      return refuse("only Python literals are supported here", expr);
  }
}

function notALiteral(call: Expr & { kind: "call" }): never {
  return refuse(`call to '${calleeName(call) ?? "an expression"}' where a literal is expected`, call);
}

function keywordArguments(call: Expr & { kind: "call" }, name: string): Map<string, Expr> {
  if (call.args.length > 0) refuse(`${name}() takes keyword arguments only`, call);
  return new Map(call.kwargs);
}

/** A normalize-list item or other parameter value: literals, plus `SynonymMap(mapping=…)` as `{"mapping": …}`. */
function parameterValue(expr: Expr): unknown {
  return literalValue(expr, (call) => {
    if (calleeName(call) !== "SynonymMap") return notALiteral(call);
    const kwargs = keywordArguments(call, "SynonymMap");
    const mapping = kwargs.get("mapping");
    if (!mapping || kwargs.size !== 1) return refuse("SynonymMap takes exactly the 'mapping' argument", call);
    return { mapping: parameterValue(mapping) };
  });
}

/** `Primitive(k=v, …)` as its serialized form (all parameters, defaults filled, `"type"` last). */
function primitiveValue(expr: Expr): Record<string, unknown> {
  const name = calleeName(expr);
  if (expr.kind !== "call" || name === null || !primitiveDefinition(name)) {
    return refuse("verify_with must be a call to one of the 23 primitives", expr);
  }
  const kwargs = keywordArguments(expr, name);
  const params = Object.fromEntries([...kwargs].map(([key, value]) => [key, parameterValue(value)]));
  try {
    return createPrimitive(name, params).toJSON();
  } catch (error) {
    return refuse((error as Error).message, expr);
  }
}

function groundTruthCase(expr: Expr): Record<string, unknown> {
  if (calleeName(expr) !== "GroundTruthCase") return refuse("a case must be GroundTruthCase(...)", expr);
  const kwargs = keywordArguments(expr as Expr & { kind: "call" }, "GroundTruthCase");
  const value = kwargs.get("value");
  if (!value) return refuse("GroundTruthCase needs 'value'", expr);
  const verifyWith = kwargs.get("verify_with");
  if ([...kwargs.keys()].some((key) => key !== "value" && key !== "verify_with")) {
    refuse("GroundTruthCase takes only 'value' and 'verify_with'", expr);
  }
  const primitive =
    !verifyWith || (verifyWith.kind === "constant" && verifyWith.value === null)
      ? null
      : verifyWith.kind === "dict"
        ? primitiveFromDict(verifyWith)
        : primitiveValue(verifyWith);
  return { value: literalValue(value), verify_with: primitive };
}

function primitiveFromDict(expr: Expr): Record<string, unknown> {
  const { type, ...params } = literalValue(expr) as Record<string, unknown>;
  try {
    return createPrimitive(pyStr(type), params).toJSON();
  } catch (error) {
    return refuse((error as Error).message, expr);
  }
}

/** A ground truth: a literal, or `ConditionalGroundTruth(...)` in its serialized form (spec 02 §5.2). */
function groundTruthValue(expr: Expr): unknown {
  if (calleeName(expr) !== "ConditionalGroundTruth") return literalValue(expr);
  const kwargs = keywordArguments(expr as Expr & { kind: "call" }, "ConditionalGroundTruth");
  const source = kwargs.get("source");
  const cases = kwargs.get("cases");
  const fallback = kwargs.get("default");
  if (!source || !cases || !fallback || kwargs.size !== 3) {
    return refuse("ConditionalGroundTruth takes exactly 'source', 'cases' and 'default'", expr);
  }
  if (cases.kind !== "dict") return refuse("ConditionalGroundTruth cases must be a dict literal", cases);
  const sourceText = literalValue(source);
  if (typeof sourceText !== "string") return refuse("ConditionalGroundTruth source must be a string", source);
  return {
    source: sourceText,
    cases: Object.fromEntries(
      cases.entries.map(([key, value]) => {
        const k = literalValue(key);
        if (typeof k !== "string") refuse("case keys must be strings", key);
        return [k, groundTruthCase(value)];
      }),
    ),
    default: groundTruthCase(fallback),
    __conditional__: true,
  };
}

/** The field type an annotation maps to (spec 02 §9.2), and whether the mapping is exact. */
function fieldType(annotation: Expr): { type: FieldType; literalValues: string[] | null; exact: boolean } {
  if (annotation.kind === "name" && ["bool", "int", "float", "str"].includes(annotation.name)) {
    return { type: annotation.name as FieldType, literalValues: null, exact: true };
  }
  if (annotation.kind === "subscript" && annotation.base.kind === "name") {
    const { name } = annotation.base;
    const index = annotation.index;
    if (name === "list" || name === "List") {
      return { type: "list_str", literalValues: null, exact: index.kind === "name" && index.name === "str" };
    }
    if (name === "Literal") {
      const items = index.kind === "list" && index.tuple ? index.items : [index];
      const values = items.map((item) => {
        if (item.kind !== "constant" && item.kind !== "negate")
          return refuse("Literal values must be literals", item);
        return literalValue(item);
      });
      return {
        type: "literal",
        literalValues: values.map(pyStr),
        exact: values.every((value) => typeof value === "string"),
      };
    }
  }
  return { type: "str", literalValues: null, exact: false };
}

const VERIFIED_FIELD_POSITIONAL = ["description", "ground_truth", "verify_with", "weight", "extraction_hint"];

function fieldSpec(declaration: FieldDeclaration, lossy: string[]): TemplateFieldSpec {
  const { name, value } = declaration;
  if (name === "correct" || name === "id" || name.startsWith("_")) {
    refuse(`field name '${name}' is reserved`, declaration);
  }
  if (calleeName(value) !== "VerifiedField")
    return refuse(`field '${name}' is not a VerifiedField`, declaration);
  const call = value as Expr & { kind: "call" };
  if (call.args.length > VERIFIED_FIELD_POSITIONAL.length)
    refuse("VerifiedField takes at most 5 positional arguments", call);
  const args = new Map<string, Expr>(
    call.args.map((arg, i) => [VERIFIED_FIELD_POSITIONAL[i] as string, arg]),
  );
  for (const [key, arg] of call.kwargs) {
    if (args.has(key)) refuse(`VerifiedField got multiple values for '${key}'`, arg);
    args.set(key, arg);
  }
  const description = args.get("description");
  const groundTruth = args.get("ground_truth");
  const verifyWith = args.get("verify_with");
  if (!description || !groundTruth || !verifyWith) {
    return refuse(`VerifiedField '${name}' needs description, ground_truth and verify_with`, call);
  }
  const descriptionText = literalValue(description);
  if (typeof descriptionText !== "string" || pyStrip(descriptionText) === "") {
    return refuse(`VerifiedField '${name}' needs a non-empty description`, description);
  }
  const hintExpr = args.get("extraction_hint");
  const hint = hintExpr ? literalValue(hintExpr) : null;
  if (hint !== null && typeof hint !== "string")
    return refuse("extraction_hint must be a string or None", call);
  const weightExpr = args.get("weight");
  const weight = weightExpr ? literalValue(weightExpr) : 1;
  const weightValue = weight instanceof PyFloat ? weight.value : weight;
  if (typeof weightValue !== "number") return refuse("weight must be a number", call);
  const primitive = primitiveValue(verifyWith);
  const isTrace = primitiveDefinition(primitive.type as string)?.isTrace ?? false;
  const { type, literalValues, exact } = fieldType(declaration.annotation);
  if (!exact) lossy.push(`field '${name}': annotation read as '${type}'`);
  for (const key of args.keys()) {
    if (VERIFIED_FIELD_POSITIONAL.includes(key) || (key === "default" && isTrace)) continue;
    lossy.push(`field '${name}': VerifiedField argument '${key}' dropped`);
  }
  return {
    name,
    type,
    description: descriptionText,
    extraction_hint: hint as string | null,
    ground_truth: groundTruthValue(groundTruth),
    literal_values: literalValues,
    verify_with: primitive,
    weight: weightValue,
    is_trace: isTrace,
  };
}

const NODE_TYPES: Record<string, StrategyNode["type"]> = {
  AllOf: "all_of",
  AnyOf: "any_of",
  AtLeastN: "at_least_n",
  FieldCheck: "field_check",
};

/** `AllOf(conditions=[FieldCheck(field="x"), …])` as a runtime strategy node. */
function strategyNode(expr: Expr): StrategyNode {
  const name = calleeName(expr);
  const type = name && Object.hasOwn(NODE_TYPES, name) ? NODE_TYPES[name] : undefined;
  if (!type || !name)
    return refuse("verify_strategy must be built from AllOf, AnyOf, AtLeastN and FieldCheck", expr);
  const kwargs = keywordArguments(expr as Expr & { kind: "call" }, name);
  const data: Record<string, unknown> = { type };
  for (const [key, value] of kwargs) {
    data[key] =
      key === "conditions"
        ? value.kind === "list"
          ? value.items.map(strategyNode)
          : refuse("conditions must be a list", value)
        : literalValue(value);
  }
  const parsed = StrategyNodeSchema.safeParse(data);
  if (!parsed.success) return refuse(`invalid ${name}: ${parsed.error.issues[0]?.message}`, expr);
  return parsed.data;
}

/**
 * Reads a VerifiedField template's Python source into a TemplateSpec without running Python (spec 02 §9.2,
 * §10.2 tier A), keeping the inner `VerificationStrategy` (the original drops it). Annotations map as in
 * §9.2; what the spec cannot express is listed in `lossy`.
 * @throws NotDeclarativeError when the code is not a declarative template: methods, classic `Field`s, other
 *   statements, non-literal values, or code Python itself would reject. Run such code with the Python runtime.
 * @example
 * const { spec } = pythonToSpec("class Answer(BaseAnswer):\n    ok: bool = VerifiedField(description='Says yes', ground_truth=True, verify_with=BooleanMatch())\n");
 * spec.fields[0].verify_with; // { type: "BooleanMatch" }
 */
export function pythonToSpec(code: string): PythonSpec {
  const module = parseTemplateModule(code);
  if (module.fields.length === 0)
    throw new NotDeclarativeError(`class ${module.className} has no VerifiedField`);
  const lossy: string[] = [];
  const names = new Set<string>();
  const fields = module.fields.map((declaration) => {
    if (names.has(declaration.name)) refuse(`field '${declaration.name}' is declared twice`, declaration);
    names.add(declaration.name);
    return fieldSpec(declaration, lossy);
  });
  const strategy = module.strategy ? strategyNode(module.strategy) : null;
  return {
    spec: {
      fields,
      verify_strategy: strategy ? strategyToSpec(strategy) : null,
      class_name: module.className,
    },
    strategy,
    lossy,
  };
}

/**
 * Whether Python source is a declarative template that runs natively with the same meaning: it reads as a
 * TemplateSpec and nothing is lost on the way.
 * @example
 * isDeclarativePython("class Answer(BaseAnswer):\n    x: str = Field(description='X')\n"); // false
 */
export function isDeclarativePython(code: string): boolean {
  try {
    return pythonToSpec(code).lossy.length === 0;
  } catch (error) {
    if (error instanceof NotDeclarativeError) return false;
    throw error;
  }
}
