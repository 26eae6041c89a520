/**
 * Getting JSON out of a model's free text (spec 05 §6): the text itself when it parses, else the first fenced
 * block, else the last parseable balanced `{...}` object, else the text with dangling fences stripped.
 */
export function extractJsonText(text: string): string {
  const trimmed = text.trim();
  if (parses(trimmed)) return trimmed;
  const fenced = /```[\w-]*[^\S\n]*\n?([\s\S]*?)```/.exec(trimmed);
  if (fenced) return (fenced[1] ?? "").trim();
  const objects = balancedObjects(trimmed).filter(parses);
  const last = objects.at(-1);
  if (last !== undefined) return last;
  return trimmed
    .replace(/^```[\w-]*\s*/, "")
    .replace(/\s*```$/, "")
    .trim();
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every top-level balanced `{...}` span of a text, scanning strings and escapes correctly. */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"' && depth > 0) inString = true;
    else if (char === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (char === "}" && depth > 0) {
      depth--;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}

/** Opening quote → the characters that close the string it starts (smart quotes close with either form). */
const STRING_CLOSERS: Record<string, string> = {
  '"': '"',
  "'": "'",
  "\u201C": '\u201D"',
  "\u2018": "\u2019'",
};

const PYTHON_LITERALS: Record<string, string> = { True: "true", False: "false", None: "null" };

/**
 * Repairs common defects of model-written JSON, scanning outside strings only: single-quoted strings, Python
 * literals (`True`, `False`, `None`), trailing commas, smart-quoted strings, and brackets or a string left open by a
 * truncated reply. Returns the repaired text, or null when it still does not parse.
 */
export function repairJson(text: string): string | null {
  const source = extractJsonText(text);
  let out = "";
  const closers: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (quote !== null) {
      if (char === "\\") {
        out += char + (source[i + 1] ?? "");
        i++;
      } else if (quote.includes(char)) {
        out += '"';
        quote = null;
      } else out += char === '"' ? '\\"' : char;
      continue;
    }
    const closing = STRING_CLOSERS[char];
    if (closing !== undefined) {
      quote = closing;
      out += '"';
    } else if (char === "{" || char === "[") {
      closers.push(char === "{" ? "}" : "]");
      out += char;
    } else if (char === "}" || char === "]") {
      closers.pop();
      out = out.replace(/,\s*$/, "") + char;
    } else if (/[A-Za-z]/.test(char)) {
      const word = /^[A-Za-z_]+/.exec(source.slice(i))?.[0] ?? char;
      out += PYTHON_LITERALS[word] ?? word;
      i += word.length - 1;
    } else out += char;
  }
  if (quote !== null) out += '"';
  out = out.replace(/,\s*$/, "") + closers.reverse().join("");
  return parses(out) ? out : null;
}
