import type { Failure, VerificationResult } from "../results/index.js";

/** The failures of one category: how many, and their reasons, the most common first. */
export interface CategoryFailures {
  category: string;
  count: number;
  reasons: { reason: string; count: number }[];
}

// Network errors are named by their code and address, whatever the client library wrapped them in.
const NETWORK_ERROR =
  /\b(ECONNREFUSED|ECONNRESET|ECONNABORTED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|EPIPE)\b(?: ([\w.:[\]-]+[\w\]]))?/;

// What client libraries and the answering stage put in front of the cause: `Adapter call failed: LlmCallError: LLM
// call to x failed: `, `Failed to initialize answering model: AdapterUnavailableError: `.
const WRAPPER =
  /^(?:Adapter call failed|Failed to initialize (?:answering|parsing) model|LLM call to .+? failed|Cannot connect to API|[A-Z]\w*Error):\s+/;

const MAX_REASON = 120;

/**
 * The reason of a failure in a few words: the underlying error's message (kept in `details.error_message`
 * when the reason itself only says `connection retries exhausted`), on one line, without the wrappers the
 * client libraries add; a network error as its code and address (`ECONNREFUSED 127.0.0.1:59999`).
 */
export function failureDigest(failure: Failure): string {
  const message = failure.details?.error_message;
  const source = typeof message === "string" && message.trim() !== "" ? message : failure.reason;
  const network = NETWORK_ERROR.exec(source);
  if (network !== null) return network[2] === undefined ? (network[1] ?? "") : `${network[1]} ${network[2]}`;
  let text = (source.split("\n").find((line) => line.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
  for (let unwrapped = text.replace(WRAPPER, ""); unwrapped !== text; unwrapped = text.replace(WRAPPER, ""))
    text = unwrapped;
  const characters = Array.from(text);
  return characters.length > MAX_REASON ? `${characters.slice(0, MAX_REASON - 1).join("")}…` : text;
}

const byCount =
  <T extends { count: number }>(key: (item: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || key(a).localeCompare(key(b));

/**
 * The failures of results grouped by category (the most frequent first), each with its reasons by
 * {@link failureDigest} (the most common first).
 */
export function failuresByCategory(rows: readonly VerificationResult[]): CategoryFailures[] {
  const categories = new Map<string, Map<string, number>>();
  for (const { metadata } of rows) {
    if (metadata.failure === null) continue;
    const reasons = categories.get(metadata.failure.category) ?? new Map<string, number>();
    const reason = failureDigest(metadata.failure);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    categories.set(metadata.failure.category, reasons);
  }
  return [...categories]
    .map(([category, reasons]) => ({
      category,
      count: [...reasons.values()].reduce((sum, count) => sum + count, 0),
      reasons: [...reasons]
        .map(([reason, count]) => ({ reason, count }))
        .sort(byCount((item) => item.reason)),
    }))
    .sort(byCount((item) => item.category));
}
