import type { Message } from "../../llm/index.js";
import { systemMessage, userMessage } from "../../llm/index.js";
import type { PromptConfig } from "../config/index.js";
import { adapterAdditions, type InstructionContext, promptFamily } from "./adapter-additions.js";
import { promptForTask, withUserInstructions } from "./prompt-config.js";
import type { PromptTask } from "./prompt-task.js";

/** The two texts of a prompt. */
export interface PromptText {
  system: string;
  user: string;
}

/** A judge prompt, fully assembled, and the call it is for. */
export interface JudgePrompt extends PromptText {
  task: PromptTask;
}

/** What every judge-prompt builder needs besides its task's content: who receives it, and the user's additions. */
export interface PromptSettings {
  /** The receiving model's `interface`; picks the adapter additions (none when absent). */
  interface?: string | null;
  /** The run's prompt config; the task's user instructions are appended to the system text last. */
  promptConfig?: PromptConfig | null;
}

const append = (text: string, addition: string | undefined) =>
  addition === undefined || addition === "" ? text : text === "" ? addition : `${text}\n\n${addition}`;

/**
 * Tri-section assembly (spec 04 §7.1): the task's own text, then the adapter family's additions (each after a
 * blank line), then the user instructions for the task appended to the system text last.
 */
export function assemblePrompt(
  task: PromptTask,
  text: PromptText,
  settings: PromptSettings = {},
  context: InstructionContext = {},
): JudgePrompt {
  const additions = adapterAdditions(promptFamily(settings.interface), task, context);
  const system = withUserInstructions(
    append(text.system, additions.system),
    promptForTask(settings.promptConfig, task),
  );
  return { task, system, user: append(text.user, additions.user) };
}

/**
 * A prompt as messages: a system and a user message, or — for a model without system prompts — one user message
 * holding the system text, a blank line and the user text (spec 04 §7.1). An empty system text sends no system
 * message.
 */
export function promptMessages(prompt: PromptText, supportsSystemPrompt = true): Message[] {
  if (prompt.system === "") return [userMessage(prompt.user)];
  if (!supportsSystemPrompt) return [userMessage(`${prompt.system}\n\n${prompt.user}`)];
  return [systemMessage(prompt.system), userMessage(prompt.user)];
}
