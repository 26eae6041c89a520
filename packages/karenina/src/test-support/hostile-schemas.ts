/**
 * JSON Schemas whose expansion would not stay small, as a hostile checkpoint or template would give them.
 * Hand-written test data.
 */

type Schema = Record<string, unknown>;

/** `$defs` L0..Ln, each an object of two fields referring to the one before: 2^n leaves once expanded. */
export function billionLaughsSchema(levels: number): Schema {
  const $defs: Schema = { L0: { type: "string" } };
  for (let level = 1; level <= levels; level++) {
    const previous = { $ref: `#/$defs/L${level - 1}` };
    $defs[`L${level}`] = { type: "object", properties: { a: previous, b: previous }, required: ["a", "b"] };
  }
  return { type: "object", properties: { x: { $ref: `#/$defs/L${levels}` } }, required: ["x"], $defs };
}

/** `depth` objects nested through `properties.a`. */
export function nestedSchema(depth: number): Schema {
  let schema: Schema = { type: "string" };
  for (let level = 0; level < depth; level++) {
    schema = { type: "object", properties: { a: schema }, required: ["a"] };
  }
  return schema;
}

/**
 * JSON text of {@link nestedSchema}: built as text, because a value nested 10,000 levels deep cannot go
 * through JSON.stringify.
 */
export const nestedSchemaJson = (depth: number): string =>
  `${'{"type": "object", "properties": {"a": '.repeat(depth)}{"type": "string"}${"}}".repeat(depth)}`;

/** A field `head` whose definition `A` refers to itself, through `where`: a property of A, or a branch of its `anyOf`. */
export function cyclicSchema(where: "property" | "anyOf"): Schema {
  const A =
    where === "property"
      ? { type: "object", properties: { next: { $ref: "#/$defs/A" } } }
      : { anyOf: [{ $ref: "#/$defs/A" }, { type: "integer" }] };
  return { type: "object", properties: { head: { $ref: "#/$defs/A" } }, $defs: { A } };
}
