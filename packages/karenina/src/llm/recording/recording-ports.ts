/**
 * Recording real calls to files and replaying them offline, by request key: in `record` mode a port calls
 * the real one and writes each response to `<dir>/<key>.json`; in `replay` mode it answers from those files
 * only, never touching the network. The key is the SHA-256 of the model identity, the messages, the
 * parameters and (for parsing) the schema, so any change to the request is a different key.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { jsonPath, writeFileAtomic } from "../../checkpoint/index.js";
import { schemaProblems } from "../../errors/index.js";
import { cacheKey } from "../cache/index.js";
import { PortError } from "../errors.js";
import { type Message, messageText } from "../messages.js";
import {
  BASE_CAPABILITIES,
  type CallOptions,
  type LlmPort,
  type LlmResponse,
  type ParseResult,
  type ParserPort,
  type PortCapabilities,
  type StructuredSchema,
} from "../ports.js";
import { ReplayFileError, ReplayMissError } from "../replay/index.js";

/** `record`: call the real port and save each response; `replay`: answer from saved responses only. */
export type RecordingMode = "record" | "replay";

/** Where recordings live and what identifies a request. */
export interface RecordingOptions {
  /** The directory of recordings, one `<key>.json` per request (created when recording). */
  dir: string;
  mode: RecordingMode;
  /** Who answers, e.g. `anthropic:claude-sonnet-4-5`: part of every request key. */
  modelIdentity: string;
  /** Settings that change the answer (temperature, max tokens, ...): part of every request key. */
  parameters?: Record<string, unknown>;
}

export const FORMAT = "karenina-recording/1";

const UsageSchema = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
});

const LlmResponseSchema = z.object({
  content: z.string(),
  usage: UsageSchema,
  isPartial: z.boolean(),
  usageUnavailable: z.boolean(),
});

const ParseResultSchema = z.object({
  parsed: z.unknown(),
  rawText: z.string(),
  usage: UsageSchema,
  strategy: z.enum(["native", "extracted", "repaired", "feedback_retry"]),
});

const RequestSchema = z.object({
  messages: z.array(z.unknown()),
  parameters: z.record(z.string(), z.unknown()),
  schema: z.unknown(),
});

/**
 * A recorded agent run (`AgentResult`): the trace with every turn, tool call and tool result, its usage and
 * how it ended. The workspace directory of the run is written as `<workspace>` (see agent-recording.ts).
 */
const AgentResultSchema = z.looseObject({
  finalResponse: z.string(),
  rawTrace: z.string(),
  traceMessages: z.array(z.looseObject({ role: z.string(), content: z.array(z.unknown()) })),
  usage: UsageSchema,
  usageUnavailable: z.boolean(),
  turns: z.number(),
  limitReached: z.boolean(),
  timeoutReached: z.boolean(),
  metrics: z.looseObject({ iterations: z.number(), limit_reached: z.boolean() }),
});

/** A recording file: the request (for people reading it) and the response (for replay). */
export const RecordingFileSchema = z.discriminatedUnion("kind", [
  z.object({
    format: z.literal(FORMAT),
    kind: z.literal("llm"),
    key: z.string(),
    model_identity: z.string(),
    recorded_at: z.string(),
    request: RequestSchema,
    response: LlmResponseSchema,
  }),
  z.object({
    format: z.literal(FORMAT),
    kind: z.literal("parse"),
    key: z.string(),
    model_identity: z.string(),
    recorded_at: z.string(),
    request: RequestSchema,
    response: ParseResultSchema,
  }),
  z.object({
    format: z.literal(FORMAT),
    kind: z.literal("agent"),
    key: z.string(),
    model_identity: z.string(),
    recorded_at: z.string(),
    request: RequestSchema,
    response: AgentResultSchema,
  }),
]);
export type RecordingFile = z.output<typeof RecordingFileSchema>;

/** What was recorded: a single call (`llm`), a structured call (`parse`) or a whole agent run (`agent`). */
export type RecordingKind = RecordingFile["kind"];
type Kind = RecordingKind;

/** What a recorded call is called in messages. */
const CALL_NAMES: Record<Kind, string> = { llm: "LLM call", parse: "parse call", agent: "agent run" };

function schemaOf(schema: StructuredSchema<unknown> | undefined): unknown {
  return schema === undefined
    ? null
    : { name: schema.name, description: schema.description ?? null, jsonSchema: schema.jsonSchema };
}

/**
 * The request key of a call: SHA-256 (64 hex) of the port kind, model identity, messages, parameters and
 * schema. Call options (timeout, abort signal) are not part of it.
 */
export function recordingKey(
  kind: Kind,
  options: Pick<RecordingOptions, "modelIdentity" | "parameters">,
  messages: readonly Message[],
  schema?: StructuredSchema<unknown>,
): string {
  return cacheKey({
    modelIdentity: options.modelIdentity,
    messages,
    parameters: { ...(options.parameters ?? {}), port: kind },
    schema: schemaOf(schema),
    replicate: 0,
  });
}

export function pathOf(dir: string, key: string): string {
  return join(dir, `${key}.json`);
}

const EXCERPT_LENGTH = 100;

/**
 * The request as a miss names it: the start of its last user message (for an answer, the question itself).
 * @example
 * requestSubject([userMessage("Which gene does venetoclax target?")]); // 'the request whose last user message is "Which gene does venetoclax target?"'
 */
export function requestSubject(messages: readonly Message[]): string {
  const user = messages.filter((message) => message.role === "user").at(-1);
  if (user === undefined) return "a request without a user message";
  const text = messageText(user).replace(/\s+/g, " ").trim();
  const excerpt = text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
  return `the request whose last user message is ${JSON.stringify(excerpt)}`;
}

/** Who answered and what was asked, for {@link readRecording}'s miss message. */
export interface RecordedCall {
  modelIdentity: string;
  messages: readonly Message[];
}

export async function readRecording(
  dir: string,
  key: string,
  kind: Kind,
  call: RecordedCall,
): Promise<RecordingFile> {
  const path = pathOf(dir, key);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ReplayMissError(
        `no recorded ${CALL_NAMES[kind]} of ${call.modelIdentity} for ${requestSubject(call.messages)} ` +
          `(request ${key}, looked for in ${dir}): the request differs from every recorded one (model, messages, ` +
          `parameters${kind === "parse" ? " or schema" : kind === "agent" ? ", tools or turn limit" : ""}); re-record it by running with mode "record"`,
        key,
      );
    }
    throw new ReplayFileError(
      path,
      "$",
      `cannot read the recording (${(error as NodeJS.ErrnoException).code})`,
      {
        cause: error,
      },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ReplayFileError(path, "$", `not valid JSON (${(error as Error).message})`);
  }
  const result = RecordingFileSchema.safeParse(data);
  if (!result.success) {
    const [problem] = schemaProblems(result.error, data);
    throw new ReplayFileError(path, jsonPath(problem?.path ?? []), problem?.message ?? "invalid recording");
  }
  if (result.data.kind !== kind || result.data.key !== key) {
    throw new ReplayFileError(
      path,
      "$.kind",
      `holds a ${result.data.kind} recording of ${result.data.key}, not the ${kind} request ${key}`,
    );
  }
  return result.data;
}

export async function writeRecording(
  dir: string,
  key: string,
  kind: Kind,
  options: RecordingOptions,
  messages: readonly Message[],
  schema: StructuredSchema<unknown> | undefined,
  response: unknown,
): Promise<void> {
  const path = pathOf(dir, key);
  const file = {
    format: FORMAT,
    kind,
    key,
    model_identity: options.modelIdentity,
    recorded_at: new Date().toISOString(),
    request: { messages, parameters: options.parameters ?? {}, schema: schemaOf(schema) },
    response,
  };
  try {
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
  } catch (error) {
    throw ReplayFileError.writeFailed(path, (reason) => `cannot write the recording (${reason})`, error);
  }
}

/** The port to call: null in replay mode; the real one, required, in record mode. */
export function inner<P>(port: P | null | undefined, options: RecordingOptions): P | null {
  if (options.mode === "replay") return port ?? null;
  if (options.mode !== "record") {
    throw new PortError(`recording mode must be "record" or "replay", found ${JSON.stringify(options.mode)}`);
  }
  if (port == null) throw new PortError("recording needs the real port to call in record mode");
  return port;
}

/**
 * An `LlmPort` that records the responses of `port` (mode `record`) or replays recorded ones (mode `replay`,
 * where `port` may be null: nothing is called). Failed calls are not recorded.
 * @throws {ReplayMissError} (from `invoke`, in replay mode) when the request was never recorded.
 */
export function recordingLlmPort(port: LlmPort | null, options: RecordingOptions): LlmPort {
  const real = inner(port, options);
  return {
    capabilities: real?.capabilities ?? BASE_CAPABILITIES,
    async invoke(messages: readonly Message[], callOptions?: CallOptions): Promise<LlmResponse> {
      const key = recordingKey("llm", options, messages);
      if (options.mode === "replay") {
        const file = await readRecording(options.dir, key, "llm", { ...options, messages });
        return file.response as LlmResponse;
      }
      const response = await (real as LlmPort).invoke(messages, callOptions);
      await writeRecording(options.dir, key, "llm", options, messages, undefined, response);
      return response;
    },
    close: async () => {
      await real?.close();
    },
  };
}

const PARSER_CAPABILITIES: PortCapabilities = Object.freeze({
  ...BASE_CAPABILITIES,
  supportsStructuredOutput: true,
});

/**
 * A `ParserPort` that records the results of `port` (mode `record`) or replays recorded ones (mode
 * `replay`, where `port` may be null). A replayed object is validated against the schema again. Failed
 * parses are not recorded.
 * @throws {ReplayMissError} (from `parse`, in replay mode) when the request was never recorded.
 */
export function recordingParserPort(port: ParserPort | null, options: RecordingOptions): ParserPort {
  const real = inner(port, options);
  return {
    capabilities: real?.capabilities ?? PARSER_CAPABILITIES,
    async parse<T>(messages: readonly Message[], schema: StructuredSchema<T>, callOptions?: CallOptions) {
      const loose = schema as StructuredSchema<unknown>;
      const key = recordingKey("parse", options, messages, loose);
      if (options.mode === "replay") {
        const file = await readRecording(options.dir, key, "parse", { ...options, messages });
        const response = file.response as ParseResult<unknown>;
        const validation = schema.validate(response.parsed);
        if (!validation.success) {
          throw new ReplayFileError(pathOf(options.dir, key), "$.response.parsed", validation.error);
        }
        return { ...response, parsed: validation.value } as ParseResult<T>;
      }
      const result = await (real as ParserPort).parse(messages, schema, callOptions);
      await writeRecording(options.dir, key, "parse", options, messages, loose, result);
      return result;
    },
    close: async () => {
      await real?.close();
    },
  };
}
