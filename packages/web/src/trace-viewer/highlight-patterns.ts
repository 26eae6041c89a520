/**
 * Trace highlighting (spec 07 §1.6, §1.8): regex patterns that mark the header line of each message in a raw
 * trace, each with a colour, kept in the browser (`localStorage["karenina-trace-highlighting"]`, spec 07 §0)
 * with a master switch.
 */

export const TRACE_HIGHLIGHTING_KEY = "karenina-trace-highlighting";

/** The eight colours a pattern can have; each has a light and a dark variant (see trace-viewer.css). */
export const TRACE_COLOURS = ["green", "yellow", "blue", "red", "purple", "orange", "teal", "grey"] as const;
export type TraceColour = (typeof TRACE_COLOURS)[number];

/** One header pattern: lines matching `regex` start a message block, shown in `colour`. */
export interface TracePattern {
  readonly id: string;
  readonly name: string;
  readonly regex: string;
  readonly colour: TraceColour;
  readonly enabled: boolean;
}

/** The stored settings: the master switch and the patterns. */
export interface TraceHighlighting {
  readonly enabled: boolean;
  readonly patterns: readonly TracePattern[];
}

export const DEFAULT_TRACE_HIGHLIGHTING: TraceHighlighting = {
  enabled: true,
  patterns: [
    { id: "ai-message", name: "AI Message", regex: "--- AI Message ---", colour: "green", enabled: true },
    {
      id: "tool-message",
      name: "Tool Message",
      regex: "--- Tool Message \\(call_id: .+\\) ---",
      colour: "yellow",
      enabled: true,
    },
  ],
};

const STORED_VERSION = 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parsePattern(value: unknown): TracePattern | undefined {
  if (!isRecord(value)) return undefined;
  const { id, name, regex, colour, enabled } = value;
  if (typeof id !== "string" || typeof name !== "string" || typeof regex !== "string") return undefined;
  if (typeof enabled !== "boolean" || !TRACE_COLOURS.includes(colour as TraceColour)) return undefined;
  return { id, name, regex, colour: colour as TraceColour, enabled };
}

/**
 * The settings in a stored string; the defaults when nothing is stored or the stored value is not ours
 * (another version, edited by hand). Pattern rows that do not parse are dropped.
 * @example
 * parseTraceHighlighting(null) === DEFAULT_TRACE_HIGHLIGHTING; // true
 */
export function parseTraceHighlighting(stored: string | null): TraceHighlighting {
  if (stored === null) return DEFAULT_TRACE_HIGHLIGHTING;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return DEFAULT_TRACE_HIGHLIGHTING;
  }
  if (!isRecord(value) || value.version !== STORED_VERSION || typeof value.enabled !== "boolean")
    return DEFAULT_TRACE_HIGHLIGHTING;
  if (!Array.isArray(value.patterns)) return DEFAULT_TRACE_HIGHLIGHTING;
  const patterns = value.patterns.map(parsePattern).filter((p): p is TracePattern => p !== undefined);
  return { enabled: value.enabled, patterns };
}

/** The string stored for `settings`. */
export function serializeTraceHighlighting(settings: TraceHighlighting): string {
  return JSON.stringify({ version: STORED_VERSION, ...settings });
}

/** The stored settings (defaults when storage is unavailable). */
export function loadTraceHighlighting(storage: Pick<Storage, "getItem"> | undefined): TraceHighlighting {
  try {
    return parseTraceHighlighting(storage?.getItem(TRACE_HIGHLIGHTING_KEY) ?? null);
  } catch {
    return DEFAULT_TRACE_HIGHLIGHTING;
  }
}

/** Stores the settings; a storage that refuses only loses the memory (the settings apply to this page). */
export function saveTraceHighlighting(
  storage: Pick<Storage, "setItem"> | undefined,
  settings: TraceHighlighting,
) {
  try {
    storage?.setItem(TRACE_HIGHLIGHTING_KEY, serializeTraceHighlighting(settings));
  } catch {
    // Kept in memory for this page.
  }
}

/** A new pattern row with a fresh id. */
export function newPattern(existing: readonly TracePattern[]): TracePattern {
  const taken = new Set(existing.map((p) => p.id));
  let n = existing.length + 1;
  while (taken.has(`pattern-${n}`)) n += 1;
  const colour = TRACE_COLOURS[existing.length % TRACE_COLOURS.length] ?? "blue";
  return { id: `pattern-${n}`, name: `Pattern ${n}`, regex: "", colour, enabled: true };
}
