/** The first line of a JavaScript callable's source, which tells it apart from Python source. */
export const JAVASCRIPT_CALLABLE_MARKER = "// karenina:javascript";

/** What a callable trait's `callable_code` holds, decided from its decoded bytes (spec 03 §4.2). */
export type CallableCode =
  | { readonly form: "empty" }
  /** Python pickle bytes (protocol header 0x80), as the original's cloudpickle writes: only Python runs them. */
  | { readonly form: "cloudpickle"; readonly bytes: Uint8Array }
  /** A function expression, written after the marker line. */
  | { readonly form: "javascript"; readonly source: string }
  /** Python source defining the function (`def evaluate(trace: str) -> bool: ...`). */
  | { readonly form: "python"; readonly source: string }
  /** Bytes that are neither a pickle nor UTF-8 text. */
  | { readonly form: "unreadable"; readonly reason: string };

const BASE64_CHAR = /^[A-Za-z0-9+/]$/;

/** Python's lenient `base64.b64decode`: characters outside the alphabet are skipped; decoding stops at padding. */
export function decodeBase64(text: string): Uint8Array {
  let kept = "";
  let pads = 0;
  for (const char of text) {
    if (char === "=") {
      const quad = kept.length % 4;
      if (quad >= 2 && quad + ++pads >= 4) break;
      continue;
    }
    if (!BASE64_CHAR.test(char)) continue;
    kept += char;
    pads = 0;
  }
  return new Uint8Array(Buffer.from(kept, "base64"));
}

/**
 * Reads a callable trait's `callable_code` (base64 text) into the form it holds. The bytes themselves are
 * never re-encoded: a trait keeps its `callable_code` text untouched, so cloudpickle bytes round-trip.
 * @example
 * decodeCallableCode("").form; // "empty"
 * decodeCallableCode(btoa("def evaluate(trace):\n    return True")).form; // "python"
 * decodeCallableCode(encodeJavaScriptCallable("(text) => text.length")); // { form: "javascript", source: "(text) => text.length" }
 */
export function decodeCallableCode(callableCode: string): CallableCode {
  const bytes = decodeBase64(callableCode);
  if (bytes.length === 0) return { form: "empty" };
  if (bytes[0] === 0x80) return { form: "cloudpickle", bytes };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { form: "unreadable", reason: "the decoded bytes are neither a Python pickle nor UTF-8 text" };
  }
  const newline = text.indexOf("\n");
  const firstLine = (newline === -1 ? text : text.slice(0, newline)).trim();
  if (firstLine === JAVASCRIPT_CALLABLE_MARKER) {
    return { form: "javascript", source: newline === -1 ? "" : text.slice(newline + 1) };
  }
  return { form: "python", source: text };
}

/**
 * The `callable_code` of a JavaScript callable: base64 of the marker line followed by the function
 * expression's source.
 * @example
 * atob(encodeJavaScriptCallable("(text) => text.length > 10")); // "// karenina:javascript\n(text) => text.length > 10"
 */
export function encodeJavaScriptCallable(functionSource: string): string {
  return Buffer.from(`${JAVASCRIPT_CALLABLE_MARKER}\n${functionSource}`, "utf8").toString("base64");
}
