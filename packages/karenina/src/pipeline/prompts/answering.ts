import { type Message, type PortCapabilities, systemMessage, userMessage } from "../../llm/index.js";

/** A question with its answer, shown to the answering model as an example. */
export interface FewShotPair {
  question: string;
  answer: string;
}

/** Everything the answering prompt is built from (spec 04 §5.2 step 6, §7.2). */
export interface AnsweringPromptInput {
  /** The answering model's system prompt. */
  systemPrompt: string | null;
  /** `prompt_config.generation`, appended to the system prompt after a blank line. */
  generationInstructions?: string | null;
  question: string;
  /** Resolved few-shot examples (see `resolveFewShotExamples`); null or empty sends the bare question. */
  fewShotExamples?: readonly Partial<FewShotPair>[] | null;
  /** The workspace paragraph (see {@link workspaceParagraph}), appended to the user text after a blank line. */
  workspaceParagraph?: string | null;
  /** A scenario's earlier turns, sent between the system message and the question. */
  history?: readonly Message[];
}

/**
 * The question as the answering model receives it (spec 04 §7.2): the bare question text, or with examples
 * `Question: <q>` / `Answer: <a>` / blank line per example, then `Question: <question>` and a final `Answer:`.
 * Examples missing their question or answer are skipped.
 */
export function answeringUserText(
  question: string,
  examples: readonly Partial<FewShotPair>[] | null | undefined,
): string {
  if (examples == null || examples.length === 0) return question;
  const lines: string[] = [];
  for (const example of examples) {
    if (typeof example.question !== "string" || typeof example.answer !== "string") continue;
    lines.push(`Question: ${example.question}`, `Answer: ${example.answer}`, "");
  }
  lines.push(`Question: ${question}`, "Answer:");
  return lines.join("\n");
}

/**
 * The answering call's messages (spec 04 §5.2 step 6, §7.2), stored as `conversation_context`: a system message
 * (the model's system prompt and the generation instructions, joined by a blank line), the scenario history,
 * then the user message (the question, with few-shot examples when given, and the workspace paragraph).
 * When the history already holds a system message, no other is added. No framework instruction, reference
 * answer, template or rubric ever reaches the answering model.
 */
export function answeringMessages(input: AnsweringPromptInput): Message[] {
  const history = input.history ?? [];
  const messages: Message[] = [];
  const system = [input.systemPrompt, input.generationInstructions].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  if (system.length > 0 && !history.some((message) => message.role === "system")) {
    messages.push(systemMessage(system.join("\n\n")));
  }
  messages.push(...history);
  let user = answeringUserText(input.question, input.fewShotExamples);
  if (input.workspaceParagraph != null && input.workspaceParagraph !== "") {
    user = `${user}\n\n${input.workspaceParagraph}`;
  }
  messages.push(userMessage(user));
  return messages;
}

/**
 * The paragraph telling an answering agent about its workspace (spec 04 §7.2): the directory as the agent sees
 * it (container backends mount it at `/workspace`), that inputs are there and outputs go there, and one sentence
 * on what the agent can do there: run commands in a sandbox, run commands locally, or only inspect files.
 */
export function workspaceParagraph(
  directory: string,
  capabilities: Pick<PortCapabilities, "supportsCodeExecution" | "usesSandboxedExecution">,
): string {
  const ability = capabilities.supportsCodeExecution
    ? capabilities.usesSandboxedExecution
      ? "You can run commands there; they execute in a sandbox."
      : "You can run commands there; they execute on the local machine."
    : "You can inspect and edit the files there, but you cannot run commands.";
  return (
    `Your workspace is the directory ${directory}. Any input files for this task are in it, and any files you ` +
    `produce should be saved in it. ${ability}`
  );
}
