import { createHash } from "node:crypto";
import { z } from "zod";
import { describeValue } from "../errors/index.js";
import type { Message } from "../llm/index.js";
import { HANDOVER_STRATEGIES, type ScenarioEdge, TRANSCRIPT_SEPARATOR } from "../scenario/index.js";
import { ScenarioRuntimeError } from "./errors.js";
import type { ScenarioState, TaggedMessage } from "./runtime-types.js";
import { materializeTrace, type TraceFileOptions } from "./trace-file.js";
import { formatTranscript } from "./transcript.js";

/** What the turn after a handover receives instead of the raw log. */
export interface HandoverResult {
  questionText: string;
  history: Message[];
}

const ContentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("tool_use"),
    id: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal("tool_result"),
    tool_use_id: z.string(),
    content: z.string(),
    is_error: z.boolean().default(false),
  }),
  z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().optional() }),
]);

/** A message of the unified model (`llm/messages.ts`), as a handover callable must return them. */
const MessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.array(ContentSchema),
});
const MessagesSchema = z.array(MessageSchema);

/** `source → target`, for messages. */
const edgeName = (edge: ScenarioEdge): string => `'${edge.source}' → '${edge.target}'`;

async function callableHistory(
  edge: ScenarioEdge,
  handover: NonNullable<ScenarioEdge["handover_callable"]>,
  log: readonly TaggedMessage[],
  state: ScenarioState,
): Promise<Message[]> {
  let returned: unknown;
  try {
    returned = await handover(log, state);
  } catch (error) {
    throw new ScenarioRuntimeError(
      `The handover callable of edge ${edgeName(edge)} failed: ${(error as Error)?.message ?? String(error)}`,
      null,
      edge.target,
      { cause: error },
    );
  }
  const parsed = MessagesSchema.safeParse(returned);
  if (parsed.success) return parsed.data satisfies Message[];
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0
      ? ""
      : ` (at [${issue.path.join("][")}]: ${issue.message})`;
  throw new ScenarioRuntimeError(
    `The handover callable of edge ${edgeName(edge)} returned ${describeValue(returned)}${where}; ` +
      "it must return an array of messages ({role, content: [{type: 'text', text}, ...]})",
    null,
    edge.target,
  );
}

/** The question of a turn whose prior conversation was written to `tracePath` (spec 08 §4.10.3 step 3). */
function materializedQuestion(tracePath: string, questionText: string): string {
  return [
    "The conversation trace from the prior turns of this scenario was saved to a file. You MUST read it " +
      "before responding.",
    `Trace file path: ${tracePath}`,
    "Read it with the Read tool. It holds the prior conversation as XML turns (<turn>, <system_prompt>, " +
      "<user>, <assistant>). If a read is truncated, keep reading with an increasing offset until the end. " +
      'Elements marked offloaded="true" contain the path of a file under artifacts/ with their full content.',
    "After reading the trace, perform the task below.",
    "---",
    questionText,
  ].join("\n\n");
}

/**
 * What the turn following `edge` receives (spec 08 §4.10), or `null` when the edge carries no handover (the
 * turn then receives the raw log):
 * - a `handover_callable`: the question unchanged, the messages it returns (awaited when it returns a promise);
 * - `transcript_prepend` / `transcript_append`: the transcript of `log` before / after the question, no history;
 * - `transcript_materialize`: the transcript written to a trace file in `turnDir` (a fresh temporary directory
 *   without one), the question preceded by instructions to read it; no history. The file's question id is
 *   `<state.current_node>_<sha256(transcript)[:10]>_handover`, so the caller sets `state.current_node` to the
 *   target node first; its turn number is `state.turn`.
 * @throws {ScenarioRuntimeError} for an unknown strategy, a callable that throws or returns anything but
 * messages, or a trace file that cannot be written.
 */
export async function applyHandover(
  edge: ScenarioEdge,
  log: readonly TaggedMessage[],
  state: ScenarioState,
  questionText: string,
  turnDir: string | null,
  options: TraceFileOptions = {},
): Promise<HandoverResult | null> {
  if (edge.handover_callable !== undefined && edge.handover_callable !== null) {
    return { questionText, history: await callableHistory(edge, edge.handover_callable, log, state) };
  }
  if (edge.handover === null) return null;
  const transcript = formatTranscript(log);
  switch (edge.handover) {
    case "transcript_prepend":
      return { questionText: transcript + TRANSCRIPT_SEPARATOR + questionText, history: [] };
    case "transcript_append":
      return { questionText: questionText + TRANSCRIPT_SEPARATOR + transcript, history: [] };
    case "transcript_materialize": {
      const digest = createHash("sha256").update(transcript, "utf8").digest("hex").slice(0, 10);
      const questionId = `${state.current_node}_${digest}_handover`;
      const path = await materializeTrace(
        transcript + TRANSCRIPT_SEPARATOR,
        [],
        turnDir,
        questionId,
        state.turn,
        options,
      );
      return { questionText: materializedQuestion(path, questionText), history: [] };
    }
    default:
      throw new ScenarioRuntimeError(
        `Unknown handover strategy '${edge.handover}' on edge ${edgeName(edge)}; use one of ${HANDOVER_STRATEGIES.join(", ")}`,
        null,
        edge.target,
      );
  }
}
