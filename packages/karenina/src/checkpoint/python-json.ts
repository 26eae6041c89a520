/**
 * Python's `json.dumps` with default settings (separators `", "` and `": "`, non-ASCII escaped as `\uXXXX`).
 * The original stores author, sources and few-shot examples as such strings; writing them the same way keeps
 * files byte-compatible.
 * @example
 * pythonJsonDumps({ name: "Zoë", tags: ["a", 1] }); // '{"name": "Zo\\u00eb", "tags": ["a", 1]}'
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return asciiJsonString(value);
  if (typeof value === "number")
    return Number.isFinite(value) ? String(value) : value > 0 ? "Infinity" : value < 0 ? "-Infinity" : "NaN";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${asciiJsonString(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
  }
  return asciiJsonString(String(value));
}

function asciiJsonString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (char) => {
    const code = char.charCodeAt(0);
    return code === 0x7f ? char : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** Python's `repr` of a float: `5.0`, `0.5`, `1e+16`. */
export function pythonFloatRepr(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return `${n}.0`;
  return String(n);
}
