import { describe, expect, test } from "vitest";
import { assistantMessage, messageText, systemMessage, userMessage } from "../../llm/index.js";
import { answeringMessages, answeringUserText, workspaceParagraph } from "./index.js";

// Hand-written questions and examples.
const examples = [
  { question: "What is the capital of France?", answer: "Paris" },
  { question: "What is 2 + 2?", answer: "4" },
];

describe("answering prompt", () => {
  test("the user message is the bare question: no framework instructions", () => {
    const messages = answeringMessages({
      systemPrompt: "You are an expert.",
      question: "What does BCL2 do?",
    });
    expect(messages).toEqual([systemMessage("You are an expert."), userMessage("What does BCL2 do?")]);
  });

  test("generation instructions join the system prompt after a blank line", () => {
    const [system] = answeringMessages({
      systemPrompt: "You are an expert.",
      generationInstructions: "Answer briefly.",
      question: "Q?",
    });
    expect(system).toEqual(systemMessage("You are an expert.\n\nAnswer briefly."));
  });

  test("few-shot examples become Question/Answer pairs ending with the question and an open Answer line", () => {
    expect(answeringUserText("What does BCL2 do?", examples)).toBe(
      [
        "Question: What is the capital of France?",
        "Answer: Paris",
        "",
        "Question: What is 2 + 2?",
        "Answer: 4",
        "",
        "Question: What does BCL2 do?",
        "Answer:",
      ].join("\n"),
    );
  });

  test("examples missing a question or an answer are skipped; no examples leaves the bare question", () => {
    expect(answeringUserText("Q?", [{ question: "x" }, { answer: "y" }, { question: "a", answer: "" }])).toBe(
      "Question: a\nAnswer: \n\nQuestion: Q?\nAnswer:",
    );
    expect(answeringUserText("Q?", [])).toBe("Q?");
    expect(answeringUserText("Q?", null)).toBe("Q?");
  });

  test("the workspace paragraph follows the question after a blank line", () => {
    const paragraph = workspaceParagraph("/workspace", {
      supportsCodeExecution: true,
      usesSandboxedExecution: true,
    });
    const messages = answeringMessages({
      systemPrompt: "S",
      question: "Run the analysis.",
      fewShotExamples: null,
      workspaceParagraph: paragraph,
    });
    expect(messageText(messages[1] ?? userMessage(""))).toBe(`Run the analysis.\n\n${paragraph}`);
  });

  test("scenario history sits between the system message and the question; its own system message wins", () => {
    const history = [userMessage("Earlier?"), assistantMessage("Earlier answer.")];
    expect(answeringMessages({ systemPrompt: "S", question: "Now?", history })).toEqual([
      systemMessage("S"),
      ...history,
      userMessage("Now?"),
    ]);
    const withSystem = [systemMessage("Scenario system."), ...history];
    expect(answeringMessages({ systemPrompt: "S", question: "Now?", history: withSystem })).toEqual([
      ...withSystem,
      userMessage("Now?"),
    ]);
  });
});

describe("workspace paragraph", () => {
  test("names the directory and says inputs are there and outputs go there", () => {
    const text = workspaceParagraph("/data/run_1", {
      supportsCodeExecution: false,
      usesSandboxedExecution: false,
    });
    expect(text).toContain("/data/run_1");
    expect(text).toContain("input files");
    expect(text).toContain("saved in it");
  });

  test("one sentence on capabilities: sandboxed commands, local commands, or file inspection only", () => {
    const sandboxed = workspaceParagraph("/w", { supportsCodeExecution: true, usesSandboxedExecution: true });
    const local = workspaceParagraph("/w", { supportsCodeExecution: true, usesSandboxedExecution: false });
    const inspect = workspaceParagraph("/w", { supportsCodeExecution: false, usesSandboxedExecution: false });
    expect(sandboxed).toContain("in a sandbox");
    expect(local).toContain("on the local machine");
    expect(inspect).toContain("cannot run commands");
  });
});
