import { describeValue, KareninaError } from "../errors/index.js";

/** A checkpoint file could not be read: it names the file, the JSON path and what was expected. */
export class CheckpointError extends KareninaError {
  override readonly name: string = "CheckpointError";

  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly expected: string,
    readonly found?: unknown,
    detail?: string,
  ) {
    super(
      `${file}: ${jsonPath}: expected ${expected}${found === undefined && detail === undefined ? "" : `, found ${detail ?? describeValue(found)}`}`,
    );
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
    super(file, "$", `valid JSON (line ${line}, column ${column})`, undefined, reason);
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
