import { stringRepr } from "../../templates/index.js";

/**
 * The attribute types a generated template may use (spec 06 §7): `bool`, `int`, `float`, `str`, `List[str]` and
 * `Literal[...]` of quoted strings, as the generator's LLM writes them.
 */
export type AttributeType =
  | { kind: "bool" | "int" | "float" | "str" | "list_str" }
  | { kind: "literal"; values: string[] };

const SIMPLE: Record<string, AttributeType> = {
  bool: { kind: "bool" },
  int: { kind: "int" },
  float: { kind: "float" },
  str: { kind: "str" },
  "list[str]": { kind: "list_str" },
};

const ALLOWED = "bool, int, float, str, List[str] or Literal['a', 'b', ...]";

/** One quoted Python string at the start of `text`, and the rest after an optional comma. */
const QUOTED = /^\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*(?:,|$)/;

function literalValues(inner: string): string[] | null {
  const values: string[] = [];
  let rest = inner.trim();
  while (rest !== "") {
    const match = QUOTED.exec(rest);
    if (match === null) return null;
    values.push((match[1] ?? match[2] ?? "").replace(/\\(.)/g, "$1"));
    rest = rest.slice(match[0].length).trim();
  }
  return values.length > 0 && new Set(values).size === values.length ? values : null;
}

/**
 * Reads an attribute type; the problem in words when it is not one of the allowed types (Dict types are
 * refused by name: the original's generator forbids them).
 * @example
 * parseAttributeType("List[str]"); // { ok: true, type: { kind: "list_str" } }
 * parseAttributeType("Literal['I', 'II']"); // { ok: true, type: { kind: "literal", values: ["I", "II"] } }
 * parseAttributeType("Dict[str, str]").ok; // false
 */
export function parseAttributeType(
  text: string,
): { ok: true; type: AttributeType } | { ok: false; problem: string } {
  const compact = text.trim().replace(/^typing\./, "");
  const simple = SIMPLE[compact.replace(/\s+/g, "").replace(/^List\[/, "list[")];
  if (simple !== undefined) return { ok: true, type: simple };
  if (/^dict\b/i.test(compact)) {
    return {
      ok: false,
      problem: `Dict types are not allowed (found ${JSON.stringify(text)}); use ${ALLOWED}`,
    };
  }
  const literal = /^Literal\[(.*)\]$/s.exec(compact);
  if (literal !== null) {
    const values = literalValues(literal[1] ?? "");
    if (values !== null) return { ok: true, type: { kind: "literal", values } };
    return {
      ok: false,
      problem: `expected Literal[...] of distinct quoted strings, e.g. Literal['yes', 'no'], found ${JSON.stringify(text)}`,
    };
  }
  return { ok: false, problem: `expected one of ${ALLOWED}, found ${JSON.stringify(text)}` };
}

/** The type as the generator's prompts and the spec JSON write it. */
export function attributeTypeText(type: AttributeType): string {
  switch (type.kind) {
    case "list_str":
      return "List[str]";
    case "literal":
      return `Literal[${type.values.map(stringRepr).join(", ")}]`;
    default:
      return type.kind;
  }
}

/** Null when `value` is a ground truth of `type`, else what was expected. */
export function groundTruthProblem(type: AttributeType, value: unknown): string | null {
  switch (type.kind) {
    case "bool":
      return typeof value === "boolean" ? null : "true or false";
    case "int":
      return Number.isInteger(value) ? null : "an integer";
    case "float":
      return typeof value === "number" && Number.isFinite(value) ? null : "a number";
    case "str":
      return typeof value === "string" && value.trim() !== "" ? null : "a non-empty string";
    case "list_str":
      return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string")
        ? null
        : "a non-empty list of strings";
    case "literal":
      return typeof value === "string" && type.values.includes(value)
        ? null
        : `one of ${type.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
}
