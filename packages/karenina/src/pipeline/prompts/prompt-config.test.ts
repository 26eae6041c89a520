import { describe, expect, test } from "vitest";
import { PromptConfigSchema } from "../config/index.js";
import {
  adapterAdditions,
  assemblePrompt,
  PROMPT_TASKS,
  promptFamily,
  promptForTask,
  promptMessages,
  withUserInstructions,
} from "./index.js";

const config = PromptConfigSchema.parse({
  generation: "Answer in one sentence.",
  parsing: "Dates are ISO 8601.",
  rubric_evaluation: "Be strict.",
  agentic_parsing: "Only read result files.",
  deep_judgment: "Quote exactly.",
});

describe("user instructions per task", () => {
  test("a task named like a field takes that field", () => {
    expect(promptForTask(config, "generation")).toBe("Answer in one sentence.");
    expect(promptForTask(config, "parsing")).toBe("Dates are ISO 8601.");
    expect(promptForTask(config, "abstention_detection")).toBeNull();
  });

  test("other tasks fall back by prefix: rubric_*, agentic_parsing_*, dj_*", () => {
    expect(promptForTask(config, "rubric_llm_trait_batch")).toBe("Be strict.");
    expect(promptForTask(config, "rubric_dynamic_presence_check")).toBe("Be strict.");
    expect(promptForTask(config, "agentic_parsing_extraction")).toBe("Only read result files.");
    expect(promptForTask(config, "dj_template_reasoning")).toBe("Quote exactly.");
    expect(promptForTask(config, "dj_rubric_score_extraction")).toBe("Quote exactly.");
  });

  test("no config, no instructions", () => {
    for (const task of PROMPT_TASKS) expect(promptForTask(null, task)).toBeNull();
  });

  test("instructions are appended after a blank line; blank ones change nothing", () => {
    expect(withUserInstructions("Built-in.", "Mine.")).toBe("Built-in.\n\nMine.");
    expect(withUserInstructions("Built-in.", "  ")).toBe("Built-in.");
    expect(withUserInstructions("Built-in.", null)).toBe("Built-in.");
    expect(withUserInstructions("", "Mine.")).toBe("Mine.");
  });
});

describe("tri-section assembly", () => {
  test("task text, then adapter additions, then the user's instructions last in the system text", () => {
    const prompt = assemblePrompt(
      "dj_template_reasoning",
      { system: "TASK SYSTEM", user: "TASK USER" },
      { interface: "openai_endpoint", promptConfig: config },
      { jsonSchema: { type: "object" }, parsingNotes: ["Note one."] },
    );
    expect(prompt.task).toBe("dj_template_reasoning");
    expect(prompt.system).toMatch(
      /^TASK SYSTEM\n\nReply with one JSON object only[^\n]*\n\nQuote exactly\.$/,
    );
    expect(prompt.user).toMatch(
      /^TASK USER\n\nJSON schema of the reply:\n```json\n\{\n {2}"type": "object"\n\}\n```/,
    );
    expect(prompt.user).toContain("Notes:\n- Note one.");
    expect(prompt.user.endsWith("Your JSON response:")).toBe(true);
  });

  test("without an interface there are no additions, only the task text and the user's instructions", () => {
    const prompt = assemblePrompt(
      "rubric_metric_trait",
      { system: "S", user: "U" },
      { promptConfig: config },
    );
    expect(prompt).toEqual({ task: "rubric_metric_trait", system: "S\n\nBe strict.", user: "U" });
  });

  test("interfaces map to prompt families", () => {
    expect(["langchain", "openrouter", "openai_endpoint"].map(promptFamily)).toEqual([
      "openai_compatible",
      "openai_compatible",
      "openai_compatible",
    ]);
    expect(promptFamily("claude_tool")).toBe("claude_tool");
    expect(promptFamily("claude_agent_sdk")).toBe("agent_sdk");
    expect(promptFamily("langchain_deep_agents")).toBe("agent_sdk");
    expect(promptFamily("manual")).toBe("none");
    expect(promptFamily(null)).toBe("none");
  });

  test("OpenAI-compatible tasks with an example get a one-line format hint; other families add nothing", () => {
    const example = { reasoning: "...", abstention_detected: false };
    expect(adapterAdditions("openai_compatible", "abstention_detection", { example })).toEqual({
      user: 'Respond with only a JSON object of this form, with no other text: {"reasoning":"...","abstention_detected":false}',
    });
    expect(adapterAdditions("claude_tool", "abstention_detection", { example })).toEqual({});
    expect(adapterAdditions("openai_compatible", "abstention_detection")).toEqual({});
  });
});

describe("prompt messages", () => {
  test("a system and a user message, or one user message when the model takes no system prompt", () => {
    const prompt = { system: "S", user: "U" };
    expect(promptMessages(prompt)).toEqual([
      { role: "system", content: [{ type: "text", text: "S" }] },
      { role: "user", content: [{ type: "text", text: "U" }] },
    ]);
    expect(promptMessages(prompt, false)).toEqual([
      { role: "user", content: [{ type: "text", text: "S\n\nU" }] },
    ]);
    expect(promptMessages({ system: "", user: "U" })).toEqual([
      { role: "user", content: [{ type: "text", text: "U" }] },
    ]);
  });
});
