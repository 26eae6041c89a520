import type { z } from "zod";
import { describeValue } from "./karenina-error.js";

/** One readable problem found by a schema: where (a JSON path) and what was wrong. */
export interface SchemaProblem {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * Turns Zod issues into problems a person can act on: `field "tagz" is not allowed (allowed: ...)`,
 * `expected string, found the number 3`. `input` is the value that was parsed, used to show what was found.
 */
export function schemaProblems(
  error: z.ZodError,
  input: unknown,
  allowedKeys?: (path: readonly PropertyKey[]) => readonly string[] | undefined,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      const allowed = allowedKeys?.(issue.path);
      for (const key of issue.keys) {
        problems.push({
          path: [...issue.path, key],
          message: `unknown field ${JSON.stringify(key)}${allowed ? ` (allowed: ${allowed.join(", ")})` : ""}`,
        });
      }
      continue;
    }
    if (issue.code === "invalid_union" && "errors" in issue && issue.errors.length > 0) {
      problems.push({ path: issue.path, message: issue.message });
      continue;
    }
    const found = valueAt(input, issue.path);
    const message =
      issue.code === "invalid_type" && found === undefined
        ? `missing required field (expected ${issue.expected})`
        : issue.code === "invalid_type"
          ? `expected ${issue.expected}, found ${describeValue(found)}`
          : `${issue.message}${found === undefined ? "" : `, found ${describeValue(found)}`}`;
    problems.push({ path: issue.path, message });
  }
  return problems;
}

/** The value at a path inside a parsed JSON value, or undefined. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** `a.b[2].c` for a path inside an object (no `$`). */
export function dottedPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}
