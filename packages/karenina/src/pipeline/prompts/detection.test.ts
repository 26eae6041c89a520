import { describe, expect, test } from "vitest";
import { PromptConfigSchema } from "../config/index.js";
import {
  abstentionPrompt,
  abstentionReplySchema,
  readAbstentionReply,
  readSufficiencyReply,
  sufficiencyPrompt,
  sufficiencyReplySchema,
} from "./index.js";

// Hand-written question, response and schema.
const question = "Which kinase does imatinib inhibit?";
const response = "I don't have access to drug databases, so I cannot say.";
const schema = {
  type: "object",
  properties: { kinase: { type: "string", description: "The kinase" } },
  required: ["kinase"],
};

describe("abstention prompt", () => {
  test("the system text states the procedure; the user text holds question and response in tagged blocks", () => {
    const prompt = abstentionPrompt({ question, response });
    expect(prompt.task).toBe("abstention_detection");
    expect(prompt.system).toContain("verbatim quotes");
    expect(prompt.system).toContain("commits to a concrete answer");
    expect(prompt.system).toContain("not an abstention");
    expect(prompt.system.indexOf('"reasoning" first')).toBeGreaterThan(0);
    expect(prompt.user.indexOf(`<question>\n${question}\n</question>`)).toBeLessThan(
      prompt.user.indexOf(`<response>\n${response}\n</response>`),
    );
  });

  test("user instructions for abstention are appended to the system text", () => {
    const promptConfig = PromptConfigSchema.parse({ abstention_detection: "Refusals in French count too." });
    expect(
      abstentionPrompt({ question, response, promptConfig }).system.endsWith(
        "\n\nRefusals in French count too.",
      ),
    ).toBe(true);
  });

  test("the reply schema asks for reasoning first, then the boolean", () => {
    expect(Object.keys(abstentionReplySchema.jsonSchema.properties as object)).toEqual([
      "reasoning",
      "abstention_detected",
    ]);
    expect(abstentionReplySchema.validate({ reasoning: "x", abstention_detected: "yes" }).success).toBe(
      false,
    );
  });
});

describe("abstention reply", () => {
  test("a structured object or JSON in text (fenced or not) is read", () => {
    const expected = { performed: true, detected: true, reasoning: '"I cannot say"' };
    expect(readAbstentionReply({ reasoning: '"I cannot say"', abstention_detected: true })).toEqual(expected);
    expect(
      readAbstentionReply('```json\n{"reasoning": "\\"I cannot say\\"", "abstention_detected": true}\n```'),
    ).toEqual(expected);
    expect(readAbstentionReply('Here: {"abstention_detected": false}')).toEqual({
      performed: true,
      detected: false,
      reasoning: null,
    });
  });

  test("an unusable reply means the check was not performed and nothing was detected", () => {
    const failed = { performed: false, detected: false, reasoning: null };
    expect(readAbstentionReply("I think it abstains.")).toEqual(failed);
    expect(readAbstentionReply('{"reasoning": "x", "abstention_detected": "true"}')).toEqual(failed);
    expect(readAbstentionReply('{"reasoning": "x"}')).toEqual(failed);
    expect(readAbstentionReply(null)).toEqual(failed);
    expect(readAbstentionReply("[true]")).toEqual(failed);
  });
});

describe("sufficiency prompt", () => {
  test("the user text holds question, response and the pretty-printed schema, in that order", () => {
    const prompt = sufficiencyPrompt({ question, response, schema });
    expect(prompt.task).toBe("sufficiency_detection");
    const user = prompt.user;
    const at = (text: string) => user.indexOf(text);
    expect(at(`<question>\n${question}`)).toBeLessThan(at(`<response>\n${response}`));
    expect(at(`<response>\n${response}`)).toBeLessThan(
      at(`<schema>\n${JSON.stringify(schema, null, 2)}\n</schema>`),
    );
  });

  test("the system text says required fields need a plausible span, leniently", () => {
    const { system } = sufficiencyPrompt({ question, response, schema });
    expect(system).toContain("every required field");
    expect(system).toContain("lenient");
    expect(system).toContain("ignore optional fields");
  });

  test("the reply schema asks for reasoning first, then the boolean", () => {
    expect(Object.keys(sufficiencyReplySchema.jsonSchema.properties as object)).toEqual([
      "reasoning",
      "sufficient",
    ]);
  });
});

describe("sufficiency reply", () => {
  test("a usable reply is read as it is", () => {
    expect(readSufficiencyReply('{"reasoning": "kinase: none", "sufficient": false}')).toEqual({
      performed: true,
      sufficient: false,
      reasoning: "kinase: none",
    });
  });

  test("an unusable reply defaults to sufficient, not performed", () => {
    expect(readSufficiencyReply("no idea")).toEqual({ performed: false, sufficient: true, reasoning: null });
    expect(readSufficiencyReply({ sufficient: "no" })).toEqual({
      performed: false,
      sufficient: true,
      reasoning: null,
    });
  });
});
