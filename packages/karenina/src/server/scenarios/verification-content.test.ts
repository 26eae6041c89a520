/**
 * Acceptance scenarios A6–A8 and A12 (template problems) of spec 07 §4 over HTTP: what a verification job's
 * rows hold, with real Pyodide templates and the scripted OpenAI-compatible server. Every question, template
 * and scripted reply below is hand-written test data; replies are routed by the distinctive text of the
 * question (answerer) or of the answer (judge).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { trait } from "../../rubrics/index.js";
import type { ScriptRule } from "../../test-support/openai-server/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../../test-support/pipeline-context.js";
import {
  caseInsensitiveTemplate,
  type ScenarioQuestion,
  scenarioCheckpoint,
  scenarioClient,
  scenarioConfig,
} from "../__fixtures__/scenario-fixtures.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let llm: OpenAiTestServer;
let server: TestServer;
let api: ReturnType<typeof scenarioClient>;

const classic = (fields: string, truth: string, verify: string) => `from typing import Optional
from pydantic import Field
from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
${fields}

    def ground_truth(self):
        self.correct = ${truth}

    def verify(self) -> bool:
        return ${verify}
`;

/** A6's questions: each with the answer the answerer gives and what the judge extracts from it. */
const A6: (ScenarioQuestion & { reply: string; parsed: Record<string, unknown>; passes: boolean })[] = [
  {
    id: "a6-drug",
    question: "[a6-drug] Which drug inhibits BCL2?",
    answer: "venetoclax",
    template: DRUG_TEMPLATE,
    reply: "It is Venetoclax (a6-drug).",
    parsed: { drug: "venetoclax" },
    passes: true,
  },
  {
    id: "a6-int",
    question: "[a6-int] How many chambers does the human heart have?",
    answer: "4",
    template: classic(
      '    count: int = Field(description="The number of chambers")',
      '{"count": 4}',
      'self.count == self.correct["count"]',
    ),
    reply: "Four chambers (a6-int).",
    parsed: { count: "4" }, // a string: the template's int field must coerce it
    passes: true,
  },
  {
    id: "a6-multi",
    question: "[a6-multi] Name the BCL2 inhibitor and its target.",
    answer: "venetoclax, BCL2",
    template: classic(
      '    drug: str = Field(description="The drug")\n    target: str = Field(description="Its target")',
      '{"drug": "venetoclax", "target": "BCL2"}',
      'self.drug.lower() == self.correct["drug"] and self.target.upper() == self.correct["target"]',
    ),
    reply: "Venetoclax, which targets BCL2 (a6-multi).",
    parsed: { drug: "Venetoclax", target: "bcl2" },
    passes: true,
  },
  {
    id: "a6-optional",
    question: "[a6-optional] Which drug is acetylsalicylic acid?",
    answer: "aspirin",
    template: classic(
      '    name: str = Field(description="The common name")\n    note: Optional[str] = Field(default=None, description="Any caveat")',
      '{"name": "aspirin"}',
      'self.name.lower() == self.correct["name"] and self.note is None',
    ),
    reply: "Aspirin (a6-optional).",
    parsed: { name: "Aspirin" }, // no `note`: the optional field stays None
    passes: true,
  },
  {
    id: "a6-case",
    question: "[a6-case] Which protein does venetoclax inhibit?",
    answer: "BCL2",
    template: caseInsensitiveTemplate("BCL2"),
    reply: "bcl2 (a6-case).",
    parsed: { answer: "bcl2" },
    passes: true,
  },
  {
    id: "a6-bool-yes",
    question: "[a6-bool-yes] Is venetoclax approved for CLL?",
    answer: "yes",
    template: classic(
      '    approved: bool = Field(description="Whether it is approved")',
      '{"approved": True}',
      'self.approved == self.correct["approved"]',
    ),
    reply: "Yes, it is approved (a6-bool-yes).",
    parsed: { approved: true },
    passes: true,
  },
  {
    id: "a6-bool-no",
    question: "[a6-bool-no] Is venetoclax approved for CLL? (wrong answer)",
    answer: "yes",
    template: classic(
      '    approved: bool = Field(description="Whether it is approved")',
      '{"approved": True}',
      'self.approved == self.correct["approved"]',
    ),
    reply: "No, it is not approved (a6-bool-no).",
    parsed: { approved: false },
    passes: false,
  },
];

const RUBRIC_ANSWER = "Venetoclax inhibits BCL2 [1] (a7).";
const REFUSAL = "I cannot give medical advice, so I will not name a drug (a8-refusal).";
const HEDGE = "It might perhaps be venetoclax, though I am not certain (a8-hedge).";

/** Hand-written replies of the scripted models, for every scenario of this file. */
function replies(): ScriptRule[] {
  const rules: ScriptRule[] = [];
  for (const q of A6) {
    rules.push({
      match: { model: "answerer", lastUserIncludes: q.question },
      reply: { text: q.reply },
      repeat: true,
    });
    rules.push({
      match: { model: "judge", lastUserIncludes: q.reply },
      reply: { json: q.parsed },
      repeat: true,
    });
  }
  rules.push(
    // A7: the rubric's judge, batch then sequential (different verdicts, to tell the strategies apart)
    {
      match: { model: "judge", lastUserIncludes: "Evaluate the response against each of these traits" },
      reply: { json: { scores: { mentions_bcl2: true, clarity: 4 } } },
      repeat: true,
    },
    {
      match: { model: "judge", lastUserIncludes: "Trait: mentions_bcl2 (boolean)" },
      reply: { json: { result: false } },
      repeat: true,
    },
    {
      match: { model: "judge", lastUserIncludes: "Trait: clarity (score 1-5)" },
      reply: { json: { score: 2 } },
      repeat: true,
    },
    { match: { model: "answerer", lastUserIncludes: "[a7]" }, reply: { text: RUBRIC_ANSWER }, repeat: true },
    // A8: abstention (a refusal, a hedge, a plain answer) and sufficiency
    {
      match: { model: "answerer", lastUserIncludes: "[a8-refusal]" },
      reply: { text: REFUSAL },
      repeat: true,
    },
    { match: { model: "answerer", lastUserIncludes: "[a8-hedge]" }, reply: { text: HEDGE }, repeat: true },
    {
      match: { model: "judge", lastUserIncludes: "(a8-refusal)" },
      reply: { json: { reasoning: "It refuses to name a drug.", abstention_detected: true } },
      repeat: true,
    },
    {
      match: { model: "judge", lastUserIncludes: "abstains" },
      reply: { json: { reasoning: "It commits to an answer.", abstention_detected: false } },
      repeat: true,
    },
    {
      match: { model: "judge", lastUserIncludes: "is sufficient" },
      reply: { json: { reasoning: "It names the drug.", sufficient: true } },
      repeat: true,
    },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
    { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
  );
  return rules;
}

beforeAll(async () => {
  llm = await startOpenAiServer(replies());
  server = await startTestServer();
  api = scenarioClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
  await llm.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read result rows loosely and assert on them.
const byQuestion = (rows: any[]) => Object.fromEntries(rows.map((row) => [row.metadata.question_id, row]));

describe("A6 template-verification", () => {
  // biome-ignore lint/suspicious/noExplicitAny: result rows, read loosely.
  let rows: Record<string, any>;
  beforeAll(async () => {
    rows = byQuestion(await api.runToEnd(scenarioCheckpoint("a6", A6), scenarioConfig(llm.baseURL)));
  });

  test("A6 template-verification: several questions in one job, one row each, only the wrong answer failed", () => {
    expect(Object.keys(rows).sort()).toEqual(A6.map((q) => q.id).sort());
    const failures = Object.fromEntries(
      Object.entries(rows).map(([id, row]) => [id, row.metadata.failure?.category ?? null]),
    );
    // only the wrong answer fails, as a content failure of verify_template
    expect(failures).toEqual({
      "a6-drug": null,
      "a6-int": null,
      "a6-multi": null,
      "a6-optional": null,
      "a6-case": null,
      "a6-bool-yes": null,
      "a6-bool-no": "content",
    });
    expect(rows["a6-bool-no"].metadata.failure).toMatchObject({ stage: "verify_template" });
  });

  test("A6 template-verification: template_only pass on a correct answer", () => {
    expect(rows["a6-drug"].template).toMatchObject({
      verify_result: true,
      parsed_llm_response: { drug: "venetoclax" },
    });
    expect(rows["a6-drug"].rubric ?? null).toBeNull();
  });

  test("A6 template-verification: string→int coercion", () => {
    expect(rows["a6-int"].template).toMatchObject({ verify_result: true, parsed_llm_response: { count: 4 } });
  });

  test("A6 template-verification: multi-field extraction", () => {
    expect(rows["a6-multi"].template).toMatchObject({
      verify_result: true,
      parsed_llm_response: { drug: "Venetoclax", target: "bcl2" },
    });
  });

  test("A6 template-verification: optional fields", () => {
    expect(rows["a6-optional"].template).toMatchObject({
      verify_result: true,
      parsed_llm_response: { name: "Aspirin", note: null },
    });
  });

  test("A6 template-verification: case-insensitive compare", () => {
    expect(rows["a6-case"].template.verify_result).toBe(true);
  });

  test("A6 template-verification: boolean verify, true and false", () => {
    expect(rows["a6-bool-yes"].template.verify_result).toBe(true);
    expect(rows["a6-bool-no"].template.verify_result).toBe(false);
  });
});

describe("A7 rubric-verification", () => {
  const rubricQuestion: ScenarioQuestion = {
    id: "a7-q",
    question: "[a7] Which drug inhibits BCL2?",
    answer: "venetoclax",
    template: DRUG_TEMPLATE,
  };
  async function rubric() {
    return [
      trait.llm.boolean({ name: "mentions_bcl2", description: "Names BCL2 as the target" }),
      trait.llm.score({ name: "clarity", description: "How clear the answer is" }),
      trait.regex({ name: "cites", pattern: String.raw`\[\d+\]` }),
      await trait.callable({ name: "short", kind: "boolean", fn: (text: string) => text.length < 100 }),
    ];
  }

  test("A7 rubric-verification: template_and_rubric, batch: LLM boolean and 1–5 score, regex and callable in one result", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a7-batch", [rubricQuestion], await rubric()),
      scenarioConfig(llm.baseURL, { evaluation_mode: "template_and_rubric" }),
    );
    expect(row.template.verify_result).toBe(true);
    expect(row.rubric).toMatchObject({
      rubric_evaluation_performed: true,
      rubric_evaluation_strategy: "batch",
      llm_trait_scores: { mentions_bcl2: true, clarity: 4 },
      regex_trait_scores: { cites: true },
      callable_trait_scores: { short: true },
    });
  });

  test("A7 rubric-verification: sequential strategy asks trait by trait", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a7-sequential", [rubricQuestion], await rubric()),
      scenarioConfig(llm.baseURL, {
        evaluation_mode: "template_and_rubric",
        rubric_evaluation_strategy: "sequential",
      }),
    );
    expect(row.rubric).toMatchObject({
      rubric_evaluation_strategy: "sequential",
      llm_trait_scores: { mentions_bcl2: false, clarity: 2 },
    });
  });

  test("A7 rubric-verification: rubric_only runs no template, only the rubric", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a7-rubric-only", [rubricQuestion], await rubric()),
      scenarioConfig(llm.baseURL, { evaluation_mode: "rubric_only" }),
    );
    expect(row.template?.template_verification_performed ?? false).toBe(false);
    expect(row.rubric.llm_trait_scores).toEqual({ mentions_bcl2: true, clarity: 4 });
  });
});

describe("A8 feature-toggles", () => {
  const q = (id: string, tag: string): ScenarioQuestion => ({
    id,
    question: `[${tag}] Which drug inhibits BCL2?`,
    answer: "venetoclax",
    template: DRUG_TEMPLATE,
  });

  test("A8 feature-toggles: abstention detects a refusal and skips parsing; ignores a normal answer and a hedge", async () => {
    const rows = byQuestion(
      await api.runToEnd(
        scenarioCheckpoint("a8-abstention", [
          q("refusal", "a8-refusal"),
          q("hedge", "a8-hedge"),
          q("plain", "a8-plain"),
        ]),
        scenarioConfig(llm.baseURL, { abstention_enabled: true }),
      ),
    );
    expect(rows.refusal.template).toMatchObject({
      abstention_check_performed: true,
      abstention_detected: true,
      abstention_override_applied: true,
      abstention_reasoning: "It refuses to name a drug.",
      verify_result: false,
      template_verification_performed: false,
    });
    expect(rows.refusal.metadata.failure).toMatchObject({ category: "abstention" });
    for (const id of ["hedge", "plain"]) {
      expect(rows[id].template).toMatchObject({ abstention_detected: false, verify_result: true });
      expect(rows[id].metadata.failure).toBeNull();
    }
    const refusalParses = llm.requests.filter(
      (r) =>
        JSON.stringify(r.body).includes("Extract the fields") &&
        JSON.stringify(r.body).includes("(a8-refusal)"),
    );
    expect(refusalParses).toEqual([]);
  });

  test("A8 feature-toggles: sufficiency passes a complete trace; abstention and sufficiency together", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a8-sufficiency", [q("plain", "a8-plain")]),
      scenarioConfig(llm.baseURL, { sufficiency_enabled: true, abstention_enabled: true }),
    );
    expect(row.template).toMatchObject({
      sufficiency_check_performed: true,
      sufficiency_detected: true,
      sufficiency_override_applied: false,
      abstention_check_performed: true,
      abstention_detected: false,
      verify_result: true,
    });
  });
});

describe("A12 edge-cases · templates", () => {
  const broken = (id: string, template: string): ScenarioQuestion => ({
    id,
    question: `[a12-${id}] Which drug inhibits BCL2?`,
    answer: "venetoclax",
    template,
  });

  test.each([
    ["syntax", "class Answer(BaseAnswer:\n    pass\n"],
    [
      "no-verify",
      classic('    drug: str = Field(description="d")', '{"drug": "x"}', "True").replace(
        /\n {4}def verify[\s\S]*$/,
        "\n",
      ),
    ],
    // the original looked the class up by name; ours takes the one BaseAnswer subclass (spec 02 §1), so the
    // "wrong class name" case becomes "no BaseAnswer subclass"
    ["no-class", DRUG_TEMPLATE.replace("class Answer(BaseAnswer)", "class Answer")],
  ])(
    "A12 edge-cases: a template %s error fails its row before any LLM call, with the reason (04 §5.1)",
    async (id, template) => {
      const before = llm.requests.length;
      const [row] = await api.runToEnd(
        scenarioCheckpoint(`a12-${id}`, [broken(id, template)]),
        scenarioConfig(llm.baseURL),
      );
      expect(row.metadata.question_id).toBe(id);
      expect(row.metadata.failure).toMatchObject({
        category: "template_validation",
        stage: "validate_template",
      });
      expect(row.metadata.failure.reason).toContain("Template validation failed: Invalid template");
      expect(llm.requests.length).toBe(before);
    },
  );
});

test("A12 edge-cases: a template whose class is not named Answer is verified (any BaseAnswer subclass name)", async () => {
  const renamed: ScenarioQuestion = {
    id: "renamed",
    question: "[a12-renamed] Which drug inhibits BCL2?",
    answer: "venetoclax",
    template: DRUG_TEMPLATE.replace("class Answer(", "class Reply("),
  };
  const [row] = await api.runToEnd(scenarioCheckpoint("a12-renamed", [renamed]), scenarioConfig(llm.baseURL));
  expect(row.template.verify_result).toBe(true);
});
