import { KareninaError } from "../errors/index.js";

/** Path segments shown at each end of a long path; the middle is counted instead. */
const PATH_ENDS = 6;

/** Where a value is in a schema: keys and indexes from the root, the root's own label first. */
export type SchemaPath = readonly (string | number)[];

/**
 * A JSON Schema whose expansion would not stay small (too many nodes, too deep, or a `$ref` leading back to
 * itself), refused before anything walks it. The message names the path (shortened when long), the limit and
 * the `$ref`s being expanded there.
 */
export class SchemaLimitError extends KareninaError {
  override readonly name = "SchemaLimitError";

  constructor(
    /** Where the limit was crossed, in full. */
    readonly path: SchemaPath,
    /** What is wrong, without the path: `the fields schema nests deeper than 64 levels`. */
    readonly problem: string,
  ) {
    super(`${schemaPathText(path)}: ${problem}: refused`);
  }
}

/** `fields.properties.a.anyOf[0]`, its middle left out when long. */
export function schemaPathText(path: SchemaPath): string {
  const text = (part: SchemaPath) =>
    part.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
  if (path.length <= 2 * PATH_ENDS) return text(path).slice(1);
  const hidden = path.length - 2 * PATH_ENDS;
  return `${text(path.slice(0, PATH_ENDS)).slice(1)}…(${hidden} more)…${text(path.slice(-PATH_ENDS))}`;
}
