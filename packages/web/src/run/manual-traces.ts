import type { RunQuestion } from "./checkpoint-questions.js";

/** The largest trace file the server takes (50 MB, `POST /api/v2/traces`). */
export const MAX_TRACE_FILE_BYTES = 50 * 1024 * 1024;

const MD5_KEY = /^[0-9a-f]{32}$/i;

function isMessage(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { role, content } = value as Record<string, unknown>;
  return (
    typeof role === "string" && (typeof content === "string" || Array.isArray(content) || content === null)
  );
}

/**
 * The problems of a manual-trace file before it is uploaded (spec 07 §1.5): at most 50 MB, a JSON object whose
 * every key is 32 hex characters (the MD5 of a question text) and every value a trace — a string or a list of
 * messages (`{role, content}`). Empty when it is fine; the server checks again.
 */
export function manualTraceProblems(text: string, sizeBytes: number): string[] {
  if (sizeBytes > MAX_TRACE_FILE_BYTES)
    return [`The file is ${(sizeBytes / 1024 / 1024).toFixed(1)} MB; the limit is 50 MB.`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return [`The file is not JSON: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return ["The file must be a JSON object {<md5 of question text>: trace}."];
  const problems: string[] = [];
  const entries = Object.entries(parsed);
  if (entries.length === 0) problems.push("The file holds no trace.");
  for (const [key, value] of entries) {
    if (!MD5_KEY.test(key))
      problems.push(`Key ${JSON.stringify(key)} is not 32 hex characters (the MD5 of a question text).`);
    const isTrace = typeof value === "string" || (Array.isArray(value) && value.every(isMessage));
    if (!isTrace)
      problems.push(`The trace of ${JSON.stringify(key)} is neither a string nor a list of messages.`);
    if (problems.length >= 5) break;
  }
  return problems;
}

/** The "Download template" file: one empty trace per finished question, keyed by its hash. */
export function traceTemplate(questions: readonly RunQuestion[]): string {
  const entries = questions.filter((q) => q.finished).map((q) => [q.hash, ""]);
  return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The "Download CSV mapper" file: `Question Hash,Raw Question` per finished question. */
export function traceCsvMapper(questions: readonly RunQuestion[]): string {
  const rows = questions.filter((q) => q.finished).map((q) => `${q.hash},${csvCell(q.text)}`);
  return `Question Hash,Raw Question\n${rows.join("\n")}\n`;
}

/** The finished questions that have no trace in `traces`. */
export function questionsWithoutTrace(
  questions: readonly RunQuestion[],
  traces: Readonly<Record<string, unknown>>,
): RunQuestion[] {
  return questions.filter(
    (q) => q.finished && !Object.hasOwn(traces, q.hash.toLowerCase()) && !Object.hasOwn(traces, q.hash),
  );
}
