import { extractJsonText } from "../../llm/index.js";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A judge reply as a JSON object: a structured-output object as it is, or the object in a text (the text
 * itself, a fenced block, or the last balanced `{...}`; spec 05 §6). Null when there is none. No repair is
 * attempted: a reply that needs one counts as unusable.
 */
export function readJsonObject(reply: unknown): Record<string, unknown> | null {
  if (isPlainObject(reply)) return reply;
  if (typeof reply !== "string") return null;
  try {
    const value: unknown = JSON.parse(extractJsonText(reply));
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}
