import { createHash } from "node:crypto";

/** Lowercase hex MD5 of the UTF-8 bytes of a text. */
export function md5Hex(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/**
 * The content id of a question: the MD5 hex of its text. Case, whitespace and punctuation all count.
 * @example
 * questionIdFromText("What is the capital of France?"); // "cb0b4aaf80c43c9973aefeda1bd72890"
 */
export function questionIdFromText(text: string): string {
  return md5Hex(text);
}

/** First `n` code points of a text (the original slices by code point, not UTF-16 unit). */
export function firstCodePoints(text: string, n: number): string {
  let result = "";
  let count = 0;
  for (const char of text) {
    if (count === n) break;
    result += char;
    count++;
  }
  return result;
}

/**
 * The URN id a benchmark gives a question added from text (spec 01 §1.2):
 * `urn:uuid:question-<slug>-<md5[:8]>`.
 * @example
 * questionUrn("What is 2+2?"); // "urn:uuid:question-what-is-2+2-936dbc87"
 */
export function questionUrn(text: string): string {
  const slug = firstCodePoints(text.toLowerCase().replaceAll(" ", "-").replace(/[?.,]/g, ""), 50);
  return `urn:uuid:question-${slug}-${md5Hex(text).slice(0, 8)}`;
}

/** Makes `id` unique among `taken` by appending `-1`, `-2`, ... as the original does. */
export function uniqueId(id: string, taken: { has(id: string): boolean }): string {
  if (!taken.has(id)) return id;
  for (let counter = 1; ; counter++) {
    const candidate = `${id}-${counter}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The id of a template's code, used to key stored results (spec 01 §1.5): `"no_template"` for empty code,
 * otherwise the MD5 of the code dedented, with LF line ends, right-stripped lines, stripped as a whole.
 */
export function templateId(code: string | null | undefined): string {
  if (code == null || code.trim() === "") return "no_template";
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  const margin = commonIndent(lines);
  const normalised = lines
    .map((line) => (line.trim() === "" ? "" : line.slice(margin)).trimEnd())
    .join("\n")
    .trim();
  return md5Hex(normalised);
}

function commonIndent(lines: readonly string[]): number {
  let margin = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const indent = line.length - line.trimStart().length;
    margin = Math.min(margin, indent);
  }
  return Number.isFinite(margin) ? margin : 0;
}
