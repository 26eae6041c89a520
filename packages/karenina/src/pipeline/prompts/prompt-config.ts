import type { PromptConfig } from "../config/index.js";
import type { PromptTask } from "./prompt-task.js";

/** Task-name prefixes and the prompt-config field they fall back to, in the original's order. */
const PREFIX_FALLBACKS: readonly [prefix: string, field: keyof PromptConfig][] = [
  ["rubric_", "rubric_evaluation"],
  ["agentic_parsing_", "agentic_parsing"],
  ["dj_", "deep_judgment"],
];

/**
 * The user instructions for one call (spec 04 §2.5, `getForTask`): the prompt-config field named like the task;
 * else, by prefix, `rubric_*` → `rubric_evaluation`, `agentic_parsing_*` → `agentic_parsing`, `dj_*` →
 * `deep_judgment`; else null. A null config has no instructions.
 */
export function promptForTask(
  promptConfig: PromptConfig | null | undefined,
  task: PromptTask | string,
): string | null {
  if (promptConfig == null) return null;
  if (Object.hasOwn(promptConfig, task)) return promptConfig[task as keyof PromptConfig] ?? null;
  for (const [prefix, field] of PREFIX_FALLBACKS) {
    if (task.startsWith(prefix)) return promptConfig[field] ?? null;
  }
  return null;
}

/**
 * A system text with the user's instructions appended last, after a blank line (spec 04 §7.1: users can only
 * add to the built-in text, never replace it). Null, empty or blank instructions leave the text as it is.
 */
export function withUserInstructions(system: string, instructions: string | null | undefined): string {
  if (instructions == null || instructions.trim() === "") return system;
  return system === "" ? instructions : `${system}\n\n${instructions}`;
}
