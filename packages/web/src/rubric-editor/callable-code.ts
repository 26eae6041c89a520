/**
 * What a callable trait's `callable_code` shows in the read-only card: its language and, when it is text, its
 * source. The base64 text itself is never re-encoded (the card only reads it), so the bytes round-trip.
 * Mirrors the library's `decodeCallableCode` (rubrics/callable-code.ts), which the web cannot bundle.
 */
const JAVASCRIPT_CALLABLE_MARKER = "// karenina:javascript";

export interface CallableCodeView {
  readonly language: string;
  /** The source to show, or null when the bytes are not text. */
  readonly source: string | null;
}

/** Python's lenient base64: characters outside the alphabet are skipped, decoding stops at padding. */
function decodeBase64(text: string): Uint8Array {
  const kept = (text.split("=")[0] ?? "").replace(/[^A-Za-z0-9+/]/g, "");
  const usable = kept.slice(0, kept.length - (kept.length % 4 === 1 ? 1 : 0));
  const binary = atob(usable.padEnd(Math.ceil(usable.length / 4) * 4, "="));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The language and source of a callable trait's code. */
export function viewCallableCode(callableCode: string): CallableCodeView {
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(callableCode);
  } catch {
    return { language: "unreadable (not base64)", source: null };
  }
  if (bytes.length === 0) return { language: "none (no code stored)", source: null };
  if (bytes[0] === 0x80)
    return { language: "Python (cloudpickle bytes, runnable by Python only)", source: null };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { language: "unreadable (neither a Python pickle nor UTF-8 text)", source: null };
  }
  const newline = text.indexOf("\n");
  const firstLine = (newline === -1 ? text : text.slice(0, newline)).trim();
  if (firstLine === JAVASCRIPT_CALLABLE_MARKER)
    return { language: "JavaScript", source: newline === -1 ? "" : text.slice(newline + 1) };
  return { language: "Python", source: text };
}
