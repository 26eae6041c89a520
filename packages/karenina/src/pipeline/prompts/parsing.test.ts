import { afterEach, describe, expect, test } from "vitest";
import { loadDeclarativeTemplate } from "../../templates/index.js";
import { PromptConfigSchema } from "../config/index.js";
import { parsingPrompt, parsingSystemText } from "./index.js";

// A hand-written VerifiedField template whose ground truth values are distinctive strings.
const template = loadDeclarativeTemplate(
  [
    "class Answer(BaseAnswer):",
    "    target: str = VerifiedField(description='The protein the drug targets', ground_truth='GT-SECRET-TARGET-7Q', verify_with=ExactMatch(), extraction_hint='gene symbol, upper case')",
    "    trials: int = VerifiedField(description='Number of phase III trials', ground_truth=918273, verify_with=NumericExact())",
    "",
  ].join("\n"),
);

const base = {
  judgeSchema: template.judgeSchema,
  extractionHints: template.extractionHints,
  question: "What does venetoclax target?",
  response: "Venetoclax targets BCL2.",
};

describe("standard parsing prompt", () => {
  test("the system text states the extraction guidelines", () => {
    const { system } = parsingPrompt(base);
    expect(system).toContain("JSON schema");
    expect(system).toContain("final answer first");
    expect(system).toContain("use null");
    expect(system).toContain("Do not infer");
    expect(system).toContain("no code fences");
  });

  test("the user text holds the instruction, the question, then the response", () => {
    const { user } = parsingPrompt(base);
    const question = user.indexOf("<question>\nWhat does venetoclax target?\n</question>");
    const response = user.indexOf("<response>\nVenetoclax targets BCL2.\n</response>");
    expect(user.startsWith("Extract the fields")).toBe(true);
    expect(question).toBeGreaterThan(0);
    expect(response).toBeGreaterThan(question);
  });

  test("extraction hints become field guidance, unless disabled", () => {
    expect(parsingPrompt(base).system).toContain(
      "Field extraction guidance:\n- target: gene symbol, upper case",
    );
    expect(parsingPrompt({ ...base, includeExtractionHints: false }).system).not.toContain("guidance");
  });

  test("hints of fields the judge schema does not have are left out", () => {
    const { system } = parsingPrompt({
      ...base,
      extractionHints: { trace_calls: "count tool calls", target: "symbol" },
    });
    expect(system).toContain("- target: symbol");
    expect(system).not.toContain("trace_calls");
  });

  test("the OpenAI-compatible family adds the pretty schema, parsing notes and a trailer to the user text", () => {
    const { user, system } = parsingPrompt({ ...base, interface: "openai_endpoint" });
    const schemaAt = user.indexOf(
      `JSON schema of the reply:\n\`\`\`json\n${JSON.stringify(template.judgeSchema, null, 2)}\n\`\`\``,
    );
    expect(schemaAt).toBeGreaterThan(user.indexOf("</response>"));
    expect(user.indexOf("Notes:\n- ")).toBeGreaterThan(schemaAt);
    expect(user.endsWith("\n\nYour JSON response:")).toBe(true);
    expect(system).toBe(parsingPrompt(base).system);
  });

  test("without an OpenAI-compatible interface the user text has no schema block", () => {
    expect(parsingPrompt(base).user).not.toContain("JSON schema of the reply");
    expect(parsingPrompt({ ...base, interface: "manual" }).user).not.toContain("JSON schema of the reply");
  });

  test("prompt_config.parsing comes last in the system text", () => {
    const promptConfig = PromptConfigSchema.parse({
      parsing: "Report dates as ISO 8601.",
      deep_judgment: "No!",
    });
    const { system } = parsingPrompt({ ...base, interface: "claude_tool", promptConfig });
    expect(system.endsWith("\n\nReport dates as ISO 8601.")).toBe(true);
    expect(system.indexOf("Extraction rules:")).toBeLessThan(system.indexOf("Report dates"));
    expect(system).not.toContain("No!");
  });

  test("the parsing system text is the base of deep judgment: the same system text", () => {
    const promptConfig = PromptConfigSchema.parse({ parsing: "Mine." });
    const settings = { ...base, interface: "openai_endpoint", promptConfig };
    expect(parsingSystemText(settings)).toBe(parsingPrompt(settings).system);
  });

  test("the reply schema is the judge schema given", () => {
    expect(parsingPrompt(base).schema).toBe(template.judgeSchema);
    expect(parsingPrompt(base).task).toBe("parsing");
  });
});

describe("ground truth never reaches the judge", () => {
  afterEach(() => {
    delete process.env.KARENINA_EXPOSE_GROUND_TRUTH;
  });

  test("the template has ground truth, but the prompt built from its judge schema and hints holds none of it", () => {
    expect(template.groundTruth).toEqual({ target: "GT-SECRET-TARGET-7Q", trials: 918273 });
    for (const family of [undefined, "openai_endpoint", "claude_tool", "claude_agent_sdk"]) {
      const { system, user } = parsingPrompt({ ...base, interface: family });
      for (const text of [system, user]) {
        expect(text).not.toContain("GT-SECRET-TARGET-7Q");
        expect(text).not.toContain("918273");
        expect(text).not.toContain("ground_truth");
      }
    }
  });

  test("the original's KARENINA_EXPOSE_GROUND_TRUTH debug switch has no effect", () => {
    process.env.KARENINA_EXPOSE_GROUND_TRUTH = "true";
    const { system, user } = parsingPrompt({ ...base, interface: "openai_endpoint" });
    expect(`${system}\n${user}`).not.toContain("GT-SECRET-TARGET-7Q");
  });
});
