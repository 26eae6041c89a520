import { describeValue, KareninaError } from "../errors/index.js";

/**
 * A checkpoint could not be read or holds bad data. The message names the file, the JSON path and the
 * problem: `bench.jsonld: $.dataFeedElement[3].item.text: expected a non-empty question text, found ""`.
 */
export class CheckpointError extends KareninaError {
  override readonly name: string = "CheckpointError";

  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly problem: string,
  ) {
    super(`${file}: ${jsonPath}: ${problem}`);
  }

  /** An error of the form `expected <what>, found <value>`. */
  static expected(file: string, jsonPath: string, expected: string, found: unknown): CheckpointError {
    return new CheckpointError(file, jsonPath, `expected ${expected}, found ${describeValue(found)}`);
  }
}

/** How many problems of an invalid checkpoint a message lists; the others are counted. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * A checkpoint that breaks its schema in more than one place. `jsonPath` and `problem` are the first; the
 * message lists them all, one a line, up to {@link MAX_LISTED_PROBLEMS}, then how many more there are.
 */
export class CheckpointProblemsError extends CheckpointError {
  override readonly name = "CheckpointProblemsError";

  constructor(
    file: string,
    readonly problems: readonly { jsonPath: string; problem: string }[],
  ) {
    super(file, problems[0]?.jsonPath ?? "$", problems[0]?.problem ?? "invalid checkpoint");
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  ${p.jsonPath}: ${p.problem}`);
    const more = problems.length - listed.length;
    if (more > 0) listed.push(`  ... and ${more} more problem${more === 1 ? "" : "s"}`);
    this.message = `${file}: ${problems.length} problems:\n${listed.join("\n")}`;
  }
}

/** The file is not JSON at all; `line` and `column` are 1-based. */
export class CheckpointSyntaxError extends CheckpointError {
  override readonly name = "CheckpointSyntaxError";

  constructor(
    file: string,
    readonly line: number,
    readonly column: number,
    reason: string,
  ) {
    super(file, "$", `not valid JSON at line ${line}, column ${column}: ${reason}`);
  }
}

/**
 * The checkpoint nests objects and arrays deeper than `MAX_CHECKPOINT_NESTING` levels (or, built in
 * memory, contains itself), so it is refused before anything recursive overflows the call stack on it.
 */
export class CheckpointNestingError extends CheckpointError {
  override readonly name = "CheckpointNestingError";

  constructor(
    file: string,
    jsonPath: string,
    readonly depth: number,
    readonly limit: number,
    readonly action: "load" | "save" | "copy",
  ) {
    const verb = `cannot ${action}`;
    super(
      file,
      jsonPath,
      Number.isFinite(depth)
        ? `${verb}: objects and arrays nested ${depth.toLocaleString("en-US")} levels deep; a checkpoint may nest at most ${limit} levels (flatten this value)`
        : `${verb}: this object contains itself, so its nesting has no end; a checkpoint must be a tree of JSON values`,
    );
  }
}

/** The file does not exist or cannot be read or written. */
export class CheckpointFileError extends KareninaError {
  override readonly name = "CheckpointFileError";

  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${message}`, options);
  }
}

/** Renders a JSON path such as `$.dataFeedElement[3].item.text` from path segments. */
export function jsonPath(segments: readonly PropertyKey[]): string {
  let path = "$";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path;
}
