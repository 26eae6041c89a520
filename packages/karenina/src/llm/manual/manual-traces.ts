/**
 * Manual traces (spec 05 §8.1): answers recorded elsewhere, registered by the MD5 of their question's text,
 * and replayed instead of asking a model.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describeValue, KareninaError } from "../../errors/index.js";
import type { Message } from "../messages.js";
import { type AgentTraceMetrics, agentMetrics, renderRawTrace } from "../trace/index.js";

/** A trace as given: the raw trace text, or the conversation as messages. */
export type ManualTrace = string | readonly Message[];

/** What is stored for one question. */
export interface ManualTraceRecord {
  /** The raw trace text (spec 04 §11.1): a string trace as given, or the rendering of a message list. */
  trace: string;
  /** The messages, when the trace was given as messages. */
  messages: readonly Message[] | null;
  /** Agent metrics counted from the messages (spec 04 §11.3, `limit_reached` false); null for a string trace. */
  agentMetrics: AgentTraceMetrics | null;
}

/** How an identifier names its question. */
export interface ManualTraceRegisterOptions {
  /** The identifier is the exact question text (case and whitespace count), not its MD5. */
  mapToId?: boolean;
}

/** A manual trace could not be registered or loaded; `file` and `key` say where, when known. */
export class ManualTraceError extends KareninaError {
  override readonly name: string = "ManualTraceError";

  constructor(
    message: string,
    readonly file: string | null = null,
    readonly key: string | null = null,
  ) {
    super(message);
  }
}

const HASH = /^[0-9a-fA-F]{32}$/;

/**
 * The 32-hex MD5 of a question's text, the key of manual traces.
 * @example
 * questionHash("What is the capital of France?"); // "cb0b4aaf80c43c9973aefeda1bd72890"
 */
export function questionHash(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** Whether `value` is a 32-hex MD5 hash (either case; keys are stored lower-case). */
export function isQuestionHash(value: string): boolean {
  return HASH.test(value);
}

function toRecord(trace: ManualTrace): ManualTraceRecord {
  if (typeof trace === "string") return { trace, messages: null, agentMetrics: null };
  const messages = [...trace];
  return { trace: renderRawTrace(messages), messages, agentMetrics: agentMetrics(messages, false) };
}

function questionText(question: string | { text: string }): string {
  return typeof question === "string" ? question : question.text;
}

/**
 * Registered manual traces, keyed by the MD5 of the question text. Give the benchmark's questions to
 * register by exact question text (`mapToId`).
 * @example
 * const traces = new ManualTraces({ questions: ["What is 2+2?"] });
 * traces.registerTrace("What is 2+2?", "--- AI Message ---\n4", { mapToId: true });
 * traces.forQuestion("What is 2+2?")?.trace; // "--- AI Message ---\n4"
 * traces.size; // 1
 */
export class ManualTraces {
  readonly #traces = new Map<string, ManualTraceRecord>();
  readonly #questions: readonly string[];
  #textIndex: Set<string> | null = null;

  constructor(options: { questions?: Iterable<string | { text: string }> } = {}) {
    this.#questions = [...(options.questions ?? [])].map(questionText);
  }

  /**
   * Manual traces from a plain record `{md5: trace}` (the CLI file format, or a model config's
   * `manual_traces`), or the given instance itself.
   * @throws {ManualTraceError} when a key is not a 32-hex MD5 or a trace is empty.
   */
  static from(value: ManualTraces | Readonly<Record<string, ManualTrace>>): ManualTraces {
    if (value instanceof ManualTraces) return value;
    const traces = new ManualTraces();
    traces.registerTraces(value);
    return traces;
  }

  /** How many questions have a trace. */
  get size(): number {
    return this.#traces.size;
  }

  /**
   * Registers one trace; returns its question's hash. A second trace for the same question replaces the first.
   * @throws {ManualTraceError} when the identifier is not a 32-hex MD5 (or, with `mapToId`, not the exact text
   * of a benchmark question), or the trace is empty.
   */
  registerTrace(identifier: string, trace: ManualTrace, options: ManualTraceRegisterOptions = {}): string {
    const hash = this.#hashOf(identifier, options.mapToId ?? false);
    if (typeof trace === "string" ? trace.length === 0 : trace.length === 0) {
      throw new ManualTraceError(`the manual trace for ${hash} is empty`, null, identifier);
    }
    this.#traces.set(hash, toRecord(trace));
    return hash;
  }

  /** Registers every `identifier → trace` of a record (see {@link registerTrace}); returns the hashes. */
  registerTraces(
    traces: Readonly<Record<string, ManualTrace>>,
    options: ManualTraceRegisterOptions = {},
  ): string[] {
    return Object.entries(traces).map(([identifier, trace]) =>
      this.registerTrace(identifier, trace, options),
    );
  }

  /** The trace registered under a question hash. */
  get(hash: string): ManualTraceRecord | undefined {
    return this.#traces.get(hash);
  }

  /** Whether a question hash has a trace. */
  has(hash: string): boolean {
    return this.#traces.has(hash);
  }

  /** The trace of a question, by its text. */
  forQuestion(text: string): ManualTraceRecord | undefined {
    return this.#traces.get(questionHash(text));
  }

  /** The registered hashes, in registration order. */
  hashes(): string[] {
    return [...this.#traces.keys()];
  }

  #hashOf(identifier: string, mapToId: boolean): string {
    if (!mapToId) {
      if (!isQuestionHash(identifier)) {
        throw new ManualTraceError(
          `manual trace key ${JSON.stringify(identifier.slice(0, 60))} is not a 32-character hexadecimal MD5 of a question text (register by question text with mapToId)`,
          null,
          identifier,
        );
      }
      return identifier.toLowerCase();
    }
    this.#textIndex ??= new Set(this.#questions);
    if (!this.#textIndex.has(identifier)) {
      throw new ManualTraceError(
        `no benchmark question has the text ${JSON.stringify(identifier.slice(0, 80))} (mapToId matches the exact text, case and whitespace included)`,
        null,
        identifier,
      );
    }
    return questionHash(identifier);
  }
}

/**
 * Reads a manual-traces file (the CLI's `--manual-traces`): a JSON object `{md5hash: "trace string"}`.
 * @throws {ManualTraceError} naming the file (and the key) when the file cannot be read, is not JSON, is not
 * an object, has a key that is not a 32-hex MD5, or a value that is not a non-empty string.
 */
export async function readManualTracesFile(path: string): Promise<ManualTraces> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ManualTraceError(`${path}: cannot read the manual traces (${reason})`, path);
  }
  return parseManualTraces(text, path);
}

/**
 * Parses the text of a manual-traces file (see {@link readManualTracesFile}); `file` names it in errors.
 * @example
 * parseManualTraces('{"0123456789abcdef0123456789abcdef": "--- AI Message ---\\nParis"}').size; // 1
 */
export function parseManualTraces(text: string, file = "<manual traces>"): ManualTraces {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ManualTraceError(`${file}: not valid JSON (${(error as Error).message})`, file);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new ManualTraceError(
      `${file}: expected an object {md5 of question text: trace}, found ${describeValue(data)}`,
      file,
    );
  }
  const traces = new ManualTraces();
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (!isQuestionHash(key)) {
      throw new ManualTraceError(
        `${file}: key ${JSON.stringify(key.slice(0, 60))} is not a 32-character hexadecimal MD5 of a question text`,
        file,
        key,
      );
    }
    if (typeof value !== "string" || value.trim() === "") {
      throw new ManualTraceError(
        `${file}: ${key}: expected a non-empty trace string, found ${describeValue(value)}`,
        file,
        key,
      );
    }
    traces.registerTrace(key, value);
  }
  return traces;
}
