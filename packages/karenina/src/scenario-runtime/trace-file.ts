import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Message } from "../llm/index.js";
import { ScenarioRuntimeError } from "./errors.js";
import { DEFAULT_TRACE_OFFLOAD_THRESHOLD, reformatTranscriptAsXml, writeTextAtomic } from "./trace-xml.js";

/** The environment variable overriding {@link DEFAULT_TRACE_OFFLOAD_THRESHOLD}. */
export const TRACE_THRESHOLD_ENV = "KARENINA_TRACE_TRUNCATION_THRESHOLD";

// Python int(): optional sign, digits with single underscores between them, surrounding whitespace.
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

const warn = (message: string): void => {
  process.emitWarning(message, { type: "KareninaScenarioWarning" });
};

/**
 * The offload threshold of trace files (spec 08 §2.1): `KARENINA_TRACE_TRUNCATION_THRESHOLD` when it is an
 * integer as Python reads one, else 2000 (a value that is not an integer is reported through `onWarning`).
 */
export function traceOffloadThreshold(
  env: Readonly<Record<string, string | undefined>> = process.env,
  onWarning: (message: string) => void = warn,
): number {
  const raw = env[TRACE_THRESHOLD_ENV];
  if (raw === undefined) return DEFAULT_TRACE_OFFLOAD_THRESHOLD;
  if (PY_INT.test(raw)) return Number(raw.trim().replaceAll("_", ""));
  onWarning(
    `Invalid ${TRACE_THRESHOLD_ENV}=${raw}: not an integer; using the default ${DEFAULT_TRACE_OFFLOAD_THRESHOLD}`,
  );
  return DEFAULT_TRACE_OFFLOAD_THRESHOLD;
}

/**
 * `<safe id>_turn<turn>_trace.txt` (`<safe id>_trace.txt` without a turn), where every character of the
 * question id outside `[A-Za-z0-9_-]` becomes `_`.
 * @example
 * scenarioTraceFileName("judge_e875a6f1c9_handover", 2); // "judge_e875a6f1c9_handover_turn2_trace.txt"
 */
export function scenarioTraceFileName(questionId: string, turn: number | null): string {
  const safe = questionId.replace(/[^A-Za-z0-9_-]/gu, "_");
  return turn === null ? `${safe}_trace.txt` : `${safe}_turn${turn}_trace.txt`;
}

const BANNER = [
  "# ============================================================",
  "# KARENINA CONVERSATION TRACE",
  "# ------------------------------------------------------------",
  "# The earlier turns of a multi-turn scenario, written for an",
  "# agent to read with its file tools. Turns are XML elements:",
  "# <turn>, holding <system_prompt>, <user> and <assistant>.",
  "#",
  "# A CONVERSATION HISTORY section, when present, lists the",
  "# messages of prior scenario turns.",
  "#",
  '# Elements marked offloaded="true" hold the path of a file in',
  "# the artifacts/ directory with their full content.",
  "# ============================================================",
  "",
  "",
].join("\n");

/** `--- <Role> Message ---` blocks of the text of each message. */
function serializeHistory(history: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of history) {
    const role = message.role.charAt(0).toUpperCase() + message.role.slice(1);
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    parts.push(`--- ${role} Message ---`, text, "");
  }
  return parts.join("\n");
}

/** How a trace file is written; every field has a default. */
export interface TraceFileOptions {
  /** Offload threshold in characters; default {@link traceOffloadThreshold} of `env`. */
  threshold?: number;
  /** Where the threshold variable is read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Hears an invalid threshold variable; default `process.emitWarning`. */
  onWarning?: (message: string) => void;
}

/**
 * Writes a conversation for an agent to read with its file tools (spec 08 §4.10.4) and returns the file's
 * absolute path: `<traceDir>/traces/<safe id>_turn<turn>_trace.txt`, long blocks offloaded to
 * `<traceDir>/traces/artifacts/`; without a `traceDir`, the file goes to a fresh temporary directory
 * `karenina_traces_*` and nothing is offloaded. An existing file of the same name is replaced.
 * @throws {ScenarioRuntimeError} when the directory or a file cannot be written.
 */
export async function materializeTrace(
  questionText: string,
  history: readonly Message[],
  traceDir: string | null,
  questionId: string,
  turn: number | null,
  options: TraceFileOptions = {},
): Promise<string> {
  const threshold = options.threshold ?? traceOffloadThreshold(options.env, options.onWarning);
  let path = join(traceDir ?? tmpdir(), "traces", scenarioTraceFileName(questionId, turn));
  try {
    const dir =
      traceDir === null ? await mkdtemp(join(tmpdir(), "karenina_traces_")) : resolve(traceDir, "traces");
    if (traceDir !== null) await mkdir(dir, { recursive: true });
    path = join(dir, scenarioTraceFileName(questionId, turn));
    const artifactsDir = traceDir === null ? null : join(dir, "artifacts");
    let text = BANNER;
    if (questionText !== "") {
      const context = await reformatTranscriptAsXml(questionText, artifactsDir, threshold);
      text += `# QUESTION CONTEXT\n# =================\n${context}\n\n`;
    }
    if (history.length > 0) {
      text += `# CONVERSATION HISTORY (prior scenario turns)\n# ${"=".repeat(44)}\n${serializeHistory(history)}\n`;
    }
    await writeTextAtomic(path, text);
    return path;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ScenarioRuntimeError(
      `Cannot write the conversation trace ${path} (${reason}); check that its directory is writable`,
      null,
      null,
      { cause: error },
    );
  }
}
