import { describe, expect, test } from "vitest";
import { loadDeclarativeTemplate } from "../../templates/index.js";
import { PromptConfigSchema } from "../config/index.js";
import {
  attributeGuidance,
  attributeHallucinationRisk,
  checkTemplateExcerpts,
  deepJudgmentAttributes,
  EXCERPT_RETRY_NOTE,
  excerptExtractionPrompt,
  hallucinationPrompt,
  parametersPrompt,
  parsingSystemText,
  readExcerptReply,
  readHallucinationReply,
  readReasoningReply,
  reasoningOnlyPrompt,
  reasoningPrompt,
  type TemplateExcerpt,
  templateExcerptRejected,
} from "./index.js";

// A hand-written template, question and response.
const template = loadDeclarativeTemplate(
  [
    "class Answer(BaseAnswer):",
    "    target: str = VerifiedField(description='The protein the drug targets', ground_truth='BCL2', verify_with=ExactMatch())",
    "    approved: bool = VerifiedField(description='Whether the drug is approved', ground_truth=True, verify_with=BooleanMatch())",
    "",
  ].join("\n"),
);
const judgeSchema = template.judgeSchema;
const question = "What does venetoclax target, and is it approved?";
const response = "Venetoclax is a selective BCL2 inhibitor. It received FDA approval in 2016 for CLL.";
const promptConfig = PromptConfigSchema.parse({
  parsing: "PARSING-INSTRUCTIONS",
  deep_judgment: "DJ-INSTRUCTIONS",
});
const baseSystem = parsingSystemText({ judgeSchema, interface: "openai_endpoint", promptConfig });
const common = { baseSystem, judgeSchema, question, interface: "openai_endpoint", promptConfig };

describe("attributes", () => {
  test("come from the judge schema's fields with their descriptions, without the inherited id", () => {
    expect(deepJudgmentAttributes(judgeSchema)).toEqual([
      { name: "target", description: "The protein the drug targets" },
      { name: "approved", description: "Whether the drug is approved" },
    ]);
  });

  test("guidance is one `- name: description` line per attribute", () => {
    expect(attributeGuidance(deepJudgmentAttributes(judgeSchema))).toBe(
      "- target: The protein the drug targets\n- approved: Whether the drug is approved",
    );
    expect(attributeGuidance([{ name: "x", description: null }])).toBe("- x: (no description)");
  });
});

describe("reasoning-only prompt", () => {
  const prompt = reasoningOnlyPrompt({ ...common, response });

  test("starts from the parsing system text and ends with the deep-judgment instructions", () => {
    expect(prompt.task).toBe("dj_template_reasoning_only");
    expect(prompt.system.startsWith(baseSystem)).toBe(true);
    expect(baseSystem).toContain("PARSING-INSTRUCTIONS");
    expect(prompt.system.endsWith("\n\nDJ-INSTRUCTIONS")).toBe(true);
  });

  test("asks for 2-3 sentences per attribute as a JSON object, with the attribute guidance", () => {
    expect(prompt.system).toContain("- target: The protein the drug targets");
    expect(prompt.system).toContain("2-3 sentences");
  });

  test("the user text holds the question and the response", () => {
    expect(prompt.user).toContain(`<question>\n${question}\n</question>`);
    expect(prompt.user).toContain(`<response>\n${response}\n</response>`);
  });
});

describe("excerpt extraction prompt", () => {
  test("states the protocol with the maximum number of excerpts and the verbatim rules", () => {
    const { system, task } = excerptExtractionPrompt({ ...common, response, maxExcerptsPerAttribute: 3 });
    expect(task).toBe("dj_template_excerpt_extraction");
    expect(system).toContain("at most 3 excerpts per attribute");
    expect(system).toContain('"confidence": "none"');
    expect(system).toContain("character for character");
    expect(system).toContain("- approved: Whether the drug is approved");
  });

  test("the retry note is added only on a retry, after the response", () => {
    const first = excerptExtractionPrompt({ ...common, response, maxExcerptsPerAttribute: 2 });
    const retry = excerptExtractionPrompt({ ...common, response, maxExcerptsPerAttribute: 2, retry: true });
    expect(first.user).not.toContain(EXCERPT_RETRY_NOTE);
    expect(retry.user.indexOf(EXCERPT_RETRY_NOTE)).toBeGreaterThan(retry.user.indexOf("</response>"));
  });

  test("the OpenAI-compatible family adds the reply schema and a note on fuzzy validation", () => {
    const { user, system } = excerptExtractionPrompt({ ...common, response, maxExcerptsPerAttribute: 2 });
    expect(user).toContain('"confidence": {');
    expect(user).toContain("fuzzy matching");
    expect(user.endsWith("Your JSON response:")).toBe(true);
    expect(system).toContain("Reply with one JSON object only");
  });
});

describe("excerpt replies", () => {
  const attributes = ["target", "approved"];

  test("verbatim excerpts are accepted with their similarity; unknown confidence reads as medium", () => {
    const reply = readExcerptReply(
      '```json\n{"target": [{"text": "a selective BCL2 inhibitor", "confidence": "high"}], "approved": [{"text": "received FDA approval in 2016", "confidence": "sure"}]}\n```',
    );
    expect(reply).not.toBeNull();
    const check = checkTemplateExcerpts(reply ?? {}, attributes, response, 0.8);
    expect(check).toEqual({
      excerpts: {
        target: [{ text: "a selective BCL2 inhibitor", confidence: "high", similarity_score: 1 }],
        approved: [{ text: "received FDA approval in 2016", confidence: "medium", similarity_score: 1 }],
      },
      attributesWithoutExcerpts: [],
      rejected: [],
    });
  });

  test("an excerpt is rejected only when below 0.75 and below the threshold", () => {
    expect(templateExcerptRejected(0.7, 0.8)).toBe(true);
    expect(templateExcerptRejected(0.76, 0.9)).toBe(false);
    expect(templateExcerptRejected(0.6, 0.5)).toBe(false);
  });

  test("text not in the response is rejected, leaving the attribute without excerpts", () => {
    const check = checkTemplateExcerpts(
      { target: [{ text: "an MCL1 antagonist of note", confidence: "high" }], approved: [] },
      attributes,
      response,
      0.8,
    );
    expect(check.excerpts).toEqual({ target: [], approved: [] });
    expect(check.attributesWithoutExcerpts).toEqual(["target", "approved"]);
    expect(check.rejected).toHaveLength(1);
    expect(check.rejected[0]?.attribute).toBe("target");
    expect(check.rejected[0]?.similarity_score).toBeLessThan(0.75);
  });

  test("an empty entry with confidence none and an explanation is kept as a placeholder; other empty ones are skipped", () => {
    const check = checkTemplateExcerpts(
      {
        target: [{ text: "", confidence: "high" }],
        approved: [{ text: "", confidence: "none", explanation: "Approval is not discussed." }],
        invented: [{ text: "Venetoclax", confidence: "high" }],
      },
      attributes,
      response,
      0.8,
    );
    expect(check.excerpts).toEqual({
      target: [],
      approved: [
        { text: "", confidence: "none", similarity_score: 0, explanation: "Approval is not discussed." },
      ],
    });
    expect(check.attributesWithoutExcerpts).toEqual(["target", "approved"]);
    expect(check.rejected).toEqual([]);
  });

  test("a reply without a JSON object reads as null (the attempt failed)", () => {
    expect(readExcerptReply("Here are the excerpts: target = BCL2")).toBeNull();
  });
});

describe("hallucination assessment", () => {
  const excerpts: Record<string, TemplateExcerpt[]> = {
    target: [
      {
        text: "a selective BCL2 inhibitor",
        confidence: "high",
        similarity_score: 1,
        search_results: [{ title: "Venetoclax", content: "BCL2 inhibitor", url: "https://example.org/v" }],
      },
      { text: "BCL2", confidence: "low", similarity_score: 1 },
    ],
    approved: [
      {
        text: "FDA approval in 2016",
        confidence: "high",
        similarity_score: 0.97,
        search_results: "Approved 2016.",
      },
    ],
  };

  test("lists each excerpt with search results under a temporary id", () => {
    const built = hallucinationPrompt({ excerpts, interface: "openai_endpoint", promptConfig });
    expect(built?.excerpts).toEqual([
      { id: "excerpt_1", attribute: "target", index: 0 },
      { id: "excerpt_2", attribute: "approved", index: 0 },
    ]);
    const user = built?.prompt.user ?? "";
    expect(built?.prompt.task).toBe("dj_template_hallucination");
    expect(user).toContain('Excerpt excerpt_1\nAttribute: target\nText: "a selective BCL2 inhibitor"');
    expect(user).toContain("Extraction confidence: high");
    expect(user).toContain("Similarity to the response: 0.97");
    expect(user).toContain("[1] Venetoclax — https://example.org/v\nBCL2 inhibitor");
    expect(user).toContain("Approved 2016.");
    expect(user).not.toContain('Text: "BCL2"');
    expect(built?.prompt.system.endsWith("DJ-INSTRUCTIONS")).toBe(true);
  });

  test("no excerpt with search results, no call", () => {
    expect(
      hallucinationPrompt({ excerpts: { target: [{ text: "x", confidence: "high", similarity_score: 1 }] } }),
    ).toBeNull();
  });

  test("replies: every asked id gets an assessment, high when missing or unknown; unusable ⇒ null", () => {
    const reply =
      '{"excerpt_assessments": [{"excerpt_id": "excerpt_1", "hallucination_risk": "low", "justification": "Confirmed."}, {"excerpt_id": "excerpt_9", "hallucination_risk": "none"}, {"excerpt_id": "excerpt_2", "hallucination_risk": "maybe"}]}';
    expect(readHallucinationReply(reply, ["excerpt_1", "excerpt_2", "excerpt_3"])).toEqual({
      excerpt_1: { hallucination_risk: "low", justification: "Confirmed." },
      excerpt_2: { hallucination_risk: "high", justification: "" },
      excerpt_3: { hallucination_risk: "high", justification: "" },
    });
    expect(readHallucinationReply("not json", ["excerpt_1"])).toBeNull();
  });

  test("an attribute's risk is the highest assessed risk, or high when none was assessed", () => {
    const at = (risk?: "none" | "low" | "medium" | "high"): TemplateExcerpt => ({
      text: "t",
      confidence: "high",
      similarity_score: 1,
      ...(risk === undefined ? {} : { hallucination_risk: risk }),
    });
    expect(attributeHallucinationRisk([at("low"), at("medium"), at("none")])).toBe("medium");
    expect(attributeHallucinationRisk([at(), at("none")])).toBe("none");
    expect(attributeHallucinationRisk([at()])).toBe("high");
    expect(attributeHallucinationRisk([])).toBe("high");
  });
});

describe("reasoning prompt", () => {
  const excerpts: Record<string, TemplateExcerpt[]> = {
    target: [
      {
        text: "a selective BCL2 inhibitor",
        confidence: "high",
        similarity_score: 1,
        hallucination_risk: "low",
      },
    ],
    approved: [{ text: "", confidence: "none", similarity_score: 0, explanation: "Not discussed." }],
  };

  test("shows the question and the excerpts, never the raw response", () => {
    const prompt = reasoningPrompt({ ...common, excerpts });
    expect(prompt.task).toBe("dj_template_reasoning");
    expect(prompt.user).toContain(`<question>\n${question}\n</question>`);
    expect(prompt.user).toContain(
      'target:\n  1. "a selective BCL2 inhibitor" (confidence: high, similarity: 1.00)',
    );
    expect(prompt.user).toContain("approved:\n  No evidence found: Not discussed.");
    expect(prompt.user).not.toContain(response);
    expect(prompt.user).not.toContain("FDA approval");
  });

  test("with search, excerpt risks are shown and the protocol asks to weigh them", () => {
    const withSearch = reasoningPrompt({ ...common, excerpts, searchEnabled: true });
    const without = reasoningPrompt({ ...common, excerpts });
    expect(withSearch.system).toContain("hallucination risk");
    expect(without.system).not.toContain("hallucination risk");
    expect(withSearch.user).toContain("Hallucination risk: low");
  });

  test("an attribute missing from the excerpts is shown as having none", () => {
    expect(reasoningPrompt({ ...common, excerpts: {} }).user).toContain(
      "approved:\n  No excerpts were found in the response.",
    );
  });
});

describe("reasoning replies and the final parse", () => {
  test("a reasoning reply is read in the flat or the nested form; other values are dropped", () => {
    expect(
      readReasoningReply(
        '```\n{"target": "States BCL2.", "approved": {"reasoning": "FDA 2016.", "risk": "low"}, "n": 3}\n```',
      ),
    ).toEqual({ target: "States BCL2.", approved: "FDA 2016." });
  });

  test("an unusable reasoning reply gives {}", () => {
    expect(readReasoningReply("target: BCL2")).toEqual({});
    expect(readReasoningReply(undefined)).toEqual({});
  });

  test("the parameters prompt is the base system text and the question with the reasoning traces", () => {
    const prompt = parametersPrompt({ baseSystem, question, reasoning: { target: "States BCL2." } });
    expect(prompt.task).toBe("parsing");
    expect(prompt.system).toBe(baseSystem);
    expect(prompt.user).toContain(`Original Question: ${question}`);
    expect(prompt.user).toContain("Reasoning Traces:\ntarget: States BCL2.");
    expect(prompt.user).not.toContain(response);
  });
});
