/**
 * Summarisation of a long agent conversation (the original's `InvokeSummarizationMiddleware`, spec 05 §5.1):
 * before each model call, when the conversation is estimated (characters / 4) at the trigger, every message
 * but the last `keepMessages` is replaced by one user message holding a summary written by the model.
 */
import type { ModelMessage } from "ai";
import { addUsage, emptyUsage, languageModelLlm, type UsageMetadata, userMessage } from "../../llm/index.js";
import type { SummarizationSettings } from "./middleware.js";

/** The original's summarisation prompt (`prompts/summarization.py`), word for word. */
function summarizationPrompt(question: string | null, messagesText: string): string {
  const questionContext = question ? `\nORIGINAL QUESTION: ${question}\n\n` : "";
  return `You are summarizing a conversation to preserve context for an ongoing task.
${questionContext}CONVERSATION TO SUMMARIZE:
${messagesText}

INSTRUCTIONS:
Create a concise but information-rich summary that preserves:
1. The original question/goal being addressed
2. Key data and results from any tool calls (specific values, IDs, names)
3. Important reasoning steps and conclusions reached
4. Any errors encountered and how they were handled
5. The current state of progress toward answering the question

Keep the summary focused and factual. Do not include unnecessary pleasantries or meta-commentary.

SUMMARY:`;
}

/** The heading of the summary message, as in the original. */
export const SUMMARY_HEADING = "Summary of previous conversation:\n";

const TYPE_NAMES: Record<ModelMessage["role"], string> = {
  system: "SystemMessage",
  user: "HumanMessage",
  assistant: "AIMessage",
  tool: "ToolMessage",
};

/** A message's content as text: strings as they are, parts as their text (tool results as their output). */
function contentText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      if (part.type === "text" || part.type === "reasoning") return part.text;
      if (part.type === "tool-call") return JSON.stringify({ tool: part.toolName, input: part.input });
      if (part.type === "tool-result") {
        const output = part.output as { value?: unknown };
        return typeof output.value === "string" ? output.value : JSON.stringify(output.value ?? null);
      }
      return "";
    })
    .join("");
}

/** The original's estimate: characters of every message's content, divided by 4. */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  return Math.floor(messages.reduce((sum, message) => sum + contentText(message).length, 0) / 4);
}

/** Messages as the summary prompt lists them: `Type: content`, tool results cut at 1000 characters, others at 500. */
function formatMessages(messages: readonly ModelMessage[]): string {
  return messages
    .map((message) => {
      const limit = message.role === "tool" ? 1000 : 500;
      return `${TYPE_NAMES[message.role]}: ${contentText(message).slice(0, limit)}`;
    })
    .join("\n\n");
}

/**
 * Keeps the summary of one agent run across its steps. The AI SDK rebuilds each step's messages from the
 * whole conversation, so the summary is re-applied at every step: it stands for the first `covered` messages.
 */
export class TraceSummarizer {
  #covered = 0;
  #summary: ModelMessage | null = null;
  #question: string | null | undefined;
  #usage: UsageMetadata = emptyUsage();
  #summaries = 0;

  constructor(private readonly settings: SummarizationSettings) {}

  /** Usage of the summarisation calls made so far. */
  get usage(): UsageMetadata {
    return this.#usage;
  }

  /** Summaries written so far. */
  get summaries(): number {
    return this.#summaries;
  }

  /**
   * The messages the next model call sees: the conversation with its summarised part replaced, summarising
   * again first when it is over the trigger. Undefined when nothing is replaced (the conversation as it is).
   * @throws the summarisation call's port error (the run then fails, as in the original).
   */
  async prepare(messages: ModelMessage[], signal?: AbortSignal): Promise<ModelMessage[] | undefined> {
    if (this.#question === undefined) {
      const first = messages.find((message) => message.role === "user");
      this.#question = first === undefined ? null : contentText(first) || null;
    }
    const hadSummary = this.#summary !== null;
    const current = hadSummary ? [this.#summary as ModelMessage, ...messages.slice(this.#covered)] : messages;
    const { triggerTokens, keepMessages } = this.settings;
    if (estimateTokens(current) < triggerTokens || current.length <= keepMessages) {
      return hadSummary ? current : undefined;
    }
    let cut = current.length - keepMessages;
    // A tool result must follow the assistant turn that called it: providers refuse it otherwise.
    while (cut > 0 && current[cut]?.role === "tool") cut--;
    if (cut === 0 || (hadSummary && cut === 1)) return hadSummary ? current : undefined;
    const summary = await this.#summarize(current.slice(0, cut), signal);
    this.#summary = { role: "user", content: `${SUMMARY_HEADING}${summary}` };
    this.#covered += hadSummary ? cut - 1 : cut;
    return [this.#summary, ...messages.slice(this.#covered)];
  }

  async #summarize(messages: readonly ModelMessage[], signal?: AbortSignal): Promise<string> {
    const prompt = summarizationPrompt(this.#question ?? null, formatMessages(messages));
    const response = await languageModelLlm(this.settings.model).invoke(
      [userMessage(prompt)],
      signal === undefined ? {} : { signal },
    );
    this.#usage = addUsage(this.#usage, response.usage);
    this.#summaries++;
    return response.content;
  }
}
