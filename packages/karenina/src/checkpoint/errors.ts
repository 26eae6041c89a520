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
