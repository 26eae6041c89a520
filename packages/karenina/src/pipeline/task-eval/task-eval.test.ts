/**
 * TaskEval over real HTTP: a scripted OpenAI-compatible server on 127.0.0.1 plays the judge. Every judge reply
 * below is hand-written test data, not output of any model; the logged outputs are hand-written too.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { assistantMessage, toolResultMessage, userMessage } from "../../llm/index.js";
import { md5Hex, Question, templateId } from "../../model/index.js";
import { loadTemplate } from "../../templates/index.js";
import {
  type OpenAiTestServer,
  type RecordedRequest,
  type ScriptRule,
  startOpenAiServer,
} from "../../test-support/openai-server/index.js";
import { parseVerificationConfig, type VerificationConfig } from "../config/index.js";
import {
  DuplicateTraitError,
  NothingToEvaluateError,
  TASKEVAL_PASS_THROUGH_TEMPLATE,
  TaskEval,
  TaskEvalError,
} from "./index.js";

/** A VerifiedField template: the judge must name the drug; ground truth "venetoclax". */
const DRUG_TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

const QUESTION = { question: "Which drug inhibits BCL2?", raw_answer: "venetoclax" };

const FAST_RETRIES = {
  connection: { max_attempts: 0 },
  timeout: { max_attempts: 0 },
  rate_limit: { max_attempts: 0 },
  server_error: { max_attempts: 0 },
};

let server: OpenAiTestServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

function config(extra: Record<string, unknown> = {}): VerificationConfig {
  const model = (id: string) => ({
    id,
    model_name: id,
    interface: "openai_endpoint",
    endpoint_base_url: server.baseURL,
    endpoint_api_key: "test-key",
  });
  return parseVerificationConfig({
    parsing_only: true,
    parsing_models: [model("judge"), model("second-judge")],
    retry_policy: FAST_RETRIES,
    ...extra,
  });
}

/** The concatenated text of a recorded request's messages with `role`. */
function text(request: RecordedRequest | undefined, role: "system" | "user"): string {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role === role)
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : (message.content as { text?: string }[]).map((part) => part.text ?? "").join(""),
    )
    .join("\n");
}

const chat = () => server.requests.filter((request) => request.path.endsWith("/chat/completions"));

// Hand-written judge replies.
const parseReply = (drug: string, extra: Partial<ScriptRule> = {}): ScriptRule => ({
  match: { model: "judge", lastUserIncludes: "Venetoclax" },
  reply: { json: { drug } },
  ...extra,
});
const rubricReply = (scores: Record<string, unknown>, lastUserIncludes: string): ScriptRule => ({
  match: { model: "judge", lastUserIncludes },
  reply: { json: { scores } },
});

const citation = { name: "cites_sources", pattern: String.raw`\[\d+\]` };
const clarity = { name: "clarity", kind: "score", description: "How clear the answer is" };

describe("template-only evaluation", () => {
  test("a logged answer is parsed and verified by the first judge, with no answering call", async () => {
    server.script(parseReply(" Venetoclax"));
    const taskEval = new TaskEval({ taskId: "t1", metadata: { source: "agent-log" } });
    taskEval.log("Venetoclax inhibits BCL2.");
    taskEval.addQuestion(QUESTION);
    taskEval.addTemplate(DRUG_TEMPLATE);

    const result = await taskEval.evaluate(config());

    const questionId = md5Hex(QUESTION.question);
    const [row] = result.globalEval?.verificationResults[questionId] ?? [];
    expect(row?.template?.verify_result).toBe(true);
    expect(row?.template?.raw_llm_response).toBe("--- AI Message ---\nVenetoclax inhibits BCL2.");
    expect(row?.template?.parsed_llm_response).toEqual({ drug: " Venetoclax" });
    expect(row?.metadata).toMatchObject({
      question_id: questionId,
      template_id: templateId(DRUG_TEMPLATE),
      evaluation_mode: "template_only",
      answering: { interface: "taskeval", model_name: "user-provided", config_id: "taskeval_user_provided" },
      parsing: { model_name: "judge" },
      few_shot_enabled: false,
    });
    expect(row?.metadata.run_name).toMatch(/^taskeval_[0-9a-f]{8}$/);
    expect(row?.rubric).toBeNull();
    expect(chat().map((request) => request.body.model)).toEqual(["judge"]);
    expect(result.globalEval?.summary()).toMatchObject({ total: 1, passed: 1, failed: 0, questions: 1 });
    expect(result.perStep).toEqual({});
    expect(JSON.parse(result.exportJson())).toMatchObject({
      task_id: "t1",
      metadata: { source: "agent-log" },
      global_eval: { failed_questions: {} },
    });
  });

  test("a wrong answer fails verification and is counted as failed", async () => {
    server.script({ match: { model: "judge" }, reply: { json: { drug: "navitoclax" } } });
    const taskEval = new TaskEval();
    taskEval.log("Navitoclax, I believe.");
    taskEval.addQuestion({ ...QUESTION, id: "q-bcl2" });
    taskEval.addTemplate(DRUG_TEMPLATE, { questionId: "q-bcl2" });

    const result = await taskEval.evaluate(config(), { runName: "my-run" });

    const [row] = result.globalEval?.verificationResults["q-bcl2"] ?? [];
    expect(row?.template?.verify_result).toBe(false);
    expect(row?.metadata.run_name).toBe("my-run");
    expect(result.globalEval?.summary()).toMatchObject({ total: 1, passed: 0, failed: 1 });
  });

  test("a question of the model brings its own template; one without a template is reported, not run", async () => {
    server.script(parseReply("venetoclax"));
    const taskEval = new TaskEval();
    taskEval.log("Venetoclax.");
    taskEval.addQuestion(new Question({ ...QUESTION, answer_template: DRUG_TEMPLATE }));
    taskEval.addQuestion({ id: "q-other", question: "Which enzyme does olaparib inhibit?" });

    const result = await taskEval.evaluate(config());

    expect(Object.keys(result.globalEval?.verificationResults ?? {})).toEqual([md5Hex(QUESTION.question)]);
    expect(result.globalEval?.failedQuestions["q-other"]?.[0]).toMatch(
      /^no answer template for question "q-other"/,
    );
    expect(result.globalEval?.summary().failedQuestions).toBe(1);
  });

  test("a custom answering identity is carried into the results", async () => {
    server.script(parseReply("venetoclax"));
    const taskEval = new TaskEval();
    taskEval.log("Venetoclax.");
    taskEval.addQuestion(QUESTION);
    taskEval.addTemplate(DRUG_TEMPLATE);

    const result = await taskEval.evaluate(config(), {
      answeringModel: { id: "prod-agent", model_name: "agent-v3", interface: "taskeval" },
    });

    expect(result.globalEval?.results[0]?.metadata.answering).toMatchObject({
      interface: "taskeval",
      model_name: "agent-v3",
      config_id: "prod-agent",
    });
    expect(chat()).toHaveLength(1);
  });
});

describe("rubric-only evaluation", () => {
  test("regex and LLM traits score a synthetic question, and the judge sees no question block", async () => {
    server.script(rubricReply({ clarity: 4 }, "Evaluate the response against each of these traits"));
    const taskEval = new TaskEval();
    taskEval.log("Venetoclax inhibits BCL2 [1].");
    taskEval.addRubric({ regex_traits: [citation] });
    taskEval.addRubric({ llm_traits: [clarity] });

    const result = await taskEval.evaluate(config());

    const [row] = result.globalEval?.verificationResults.rubric_only_eval ?? [];
    expect(row?.metadata).toMatchObject({
      question_text: "Evaluate the logged output",
      evaluation_mode: "rubric_only",
      template_id: templateId(TASKEVAL_PASS_THROUGH_TEMPLATE.code),
      failure: null,
    });
    expect(row?.rubric).toMatchObject({
      rubric_evaluation_performed: true,
      regex_trait_scores: { cites_sources: true },
      llm_trait_scores: { clarity: 4 },
    });
    expect(row?.template?.verify_result).toBeNull();
    expect(chat()).toHaveLength(1);
    const user = text(chat()[0], "user");
    expect(user).toContain("Venetoclax inhibits BCL2 [1].");
    expect(user).not.toContain("<question>");
    expect(user).not.toContain("Evaluate the logged output");
    expect(result.globalEval?.summary().rubricScores).toEqual({
      clarity: { source: "llm", count: 1, passRate: null, mean: 4, min: 4, max: 4, labels: null },
      cites_sources: {
        source: "regex",
        count: 1,
        passRate: 1,
        mean: null,
        min: null,
        max: null,
        labels: null,
      },
    });
  });

  test("a rubric-only evaluation of added questions scores each question", async () => {
    const taskEval = new TaskEval();
    taskEval.log("No sources given.");
    taskEval.addQuestion({ id: "q1", question: "Summarise the trial." });
    taskEval.addQuestion({ id: "q2", question: "List the adverse events." });
    taskEval.addRubric({ regex_traits: [citation] });

    const result = await taskEval.evaluate(config());

    expect(Object.keys(result.globalEval?.verificationResults ?? {})).toEqual(["q1", "q2"]);
    expect(result.globalEval?.results.map((row) => row.rubric?.regex_trait_scores)).toEqual([
      { cites_sources: false },
      { cites_sources: false },
    ]);
    expect(chat()).toHaveLength(0);
  });

  test("callables given to the TaskEval score callable traits; registerCallable replaces one", async () => {
    const taskEval = new TaskEval({ callables: { word_count: () => 1 } });
    taskEval.log("one two three");
    taskEval.addRubric({
      callable_traits: [
        { name: "word_count", kind: "score", min_score: 0, max_score: 100, callable_code: "" },
      ],
    });
    // The callable sees the rendered trace, as every rubric trait does.
    taskEval.registerCallable("word_count", (output) =>
      output === "--- AI Message ---\none two three" ? 3 : 0,
    );

    const result = await taskEval.evaluate(config());

    expect(result.globalEval?.results[0]?.rubric?.callable_trait_scores).toEqual({ word_count: 3 });
  });
});

describe("template and rubric", () => {
  test("the template verdict and the rubric scores come from one evaluation", async () => {
    server.script(
      rubricReply({ clarity: 5 }, "Evaluate the response against each of these traits"),
      parseReply("Venetoclax"),
    );
    const taskEval = new TaskEval();
    taskEval.log("Venetoclax inhibits BCL2 [1].");
    taskEval.addQuestion(QUESTION);
    taskEval.addTemplate(DRUG_TEMPLATE);
    taskEval.addRubric({ llm_traits: [clarity], regex_traits: [citation] });

    const result = await taskEval.evaluate(config());

    const [row] = result.globalEval?.results ?? [];
    expect(row?.metadata.evaluation_mode).toBe("template_and_rubric");
    expect(row?.template?.verify_result).toBe(true);
    expect(row?.rubric).toMatchObject({
      llm_trait_scores: { clarity: 5 },
      regex_trait_scores: { cites_sources: true },
    });
    expect(chat()).toHaveLength(2);
    const rubricRequest = chat().find((r) => text(r, "user").includes("against each of these traits"));
    expect(text(rubricRequest, "user")).not.toContain("<question>");
  });
});

describe("steps and the global scope", () => {
  test("the global scope is evaluated first, then each step on its own logs", async () => {
    server.script(
      rubricReply({ clarity: 3 }, "Global summary."),
      rubricReply({ clarity: 5 }, "Step one output."),
    );
    const taskEval = new TaskEval();
    taskEval.log("Global summary.");
    taskEval.log("Step one output.", { stepId: "s1", target: "step" });
    taskEval.log("Shared note.", { stepId: "s1" });
    taskEval.log("Only global.", { stepId: "s1", target: "global" });
    taskEval.addRubric({ llm_traits: [clarity] });
    taskEval.addRubric({ llm_traits: [clarity] }, { stepId: "s1" });

    const result = await taskEval.evaluate(config());

    const global = result.globalEval?.verificationResults.rubric_only_eval?.[0];
    const step = result.perStep.s1?.verificationResults.s1_rubric_only_eval?.[0];
    expect(global?.template?.raw_llm_response).toBe(
      "--- AI Message ---\nGlobal summary.\n\n--- AI Message ---\nShared note.\n\n--- AI Message ---\nOnly global.",
    );
    expect(step?.template?.raw_llm_response).toBe(
      "--- AI Message ---\nStep one output.\n\n--- AI Message ---\nShared note.",
    );
    expect(step?.metadata.question_text).toBe("Evaluate the logged output in step s1");
    expect(global?.rubric?.llm_trait_scores).toEqual({ clarity: 3 });
    expect(step?.rubric?.llm_trait_scores).toEqual({ clarity: 5 });
    expect(text(chat()[0], "user")).toContain("Global summary.");
    expect(text(chat()[1], "user")).toContain("Step one output.");
    expect(global?.metadata.run_name).toBe(step?.metadata.run_name);
  });

  test("a step-only setup skips the global scope, though step logs reach it", async () => {
    const taskEval = new TaskEval();
    taskEval.log("Retrieved [1].", { stepId: "retrieval" });
    taskEval.log("Answered.", { stepId: "answer" });
    taskEval.addRubric({ regex_traits: [citation] }, { stepId: "retrieval" });

    const result = await taskEval.evaluate(config());

    expect(result.globalEval).toBeNull();
    expect(Object.keys(result.perStep)).toEqual(["retrieval"]);
    expect(result.perStep.retrieval?.results[0]?.rubric?.regex_trait_scores).toEqual({ cites_sources: true });
    expect(taskEval.stepIds).toEqual(["retrieval", "answer"]);
  });

  test("evaluate({ stepId }) evaluates that step only", async () => {
    const taskEval = new TaskEval();
    taskEval.log("Global [2].");
    taskEval.log("Step text.", { stepId: "s1", target: "step" });
    taskEval.addRubric({ regex_traits: [citation] });
    taskEval.addRubric({ regex_traits: [citation] }, { stepId: "s1" });

    const result = await taskEval.evaluate(config(), { stepId: "s1" });

    expect(result.globalEval).toBeNull();
    expect(result.perStep.s1?.results[0]?.rubric?.regex_trait_scores).toEqual({ cites_sources: false });
    expect(result.summary().perStep.s1?.total).toBe(1);
    await expect(taskEval.evaluate(config(), { stepId: "nope" })).rejects.toThrow(TaskEvalError);
  });
});

describe("merge strategies", () => {
  function loggedAgent(mergeStrategy?: "concatenate" | "traces_only"): TaskEval {
    const taskEval = new TaskEval(mergeStrategy === undefined ? {} : { mergeStrategy });
    taskEval.log("Operator note: run started.");
    taskEval.logTrace([
      userMessage("Which drug inhibits BCL2?"),
      assistantMessage("", [{ id: "t1", name: "search", input: { q: "BCL2 inhibitor" } }]),
      toolResultMessage("t1", "venetoclax [1]"),
      assistantMessage("Venetoclax."),
    ]);
    taskEval.addRubric({ regex_traits: [{ name: "operator_note", pattern: "Operator note" }] });
    return taskEval;
  }

  test("concatenate evaluates text logs and traces together", async () => {
    const result = await loggedAgent().evaluate(config());
    const row = result.globalEval?.results[0];
    expect(row?.rubric?.regex_trait_scores).toEqual({ operator_note: true });
    expect(row?.template?.raw_llm_response).toBe(
      [
        "--- AI Message ---\nOperator note: run started.",
        "--- AI Message ---\nTool Calls:\n  search (call_t1)\n   Call ID: t1\n   Args: {'q': 'BCL2 inhibitor'}",
        "--- Tool Message (call_id: t1) ---\nvenetoclax [1]",
        "--- AI Message ---\nVenetoclax.",
      ].join("\n\n"),
    );
    expect(row?.template?.agent_metrics).toMatchObject({
      iterations: 3,
      tool_calls: 1,
      tools_used: ["search"],
    });
    expect(row?.template?.trace_messages).toHaveLength(5);
  });

  test("traces_only leaves text logs out; evaluate() may override the constructor's strategy", async () => {
    const result = await loggedAgent("traces_only").evaluate(config());
    const row = result.globalEval?.results[0];
    expect(row?.rubric?.regex_trait_scores).toEqual({ operator_note: false });
    expect(row?.template?.raw_llm_response).not.toContain("Operator note");
    expect(row?.template?.agent_metrics).toMatchObject({
      iterations: 2,
      tool_calls: 1,
      limit_reached: false,
    });

    const overridden = await loggedAgent("traces_only").evaluate(config(), { mergeStrategy: "concatenate" });
    expect(overridden.globalEval?.results[0]?.rubric?.regex_trait_scores).toEqual({ operator_note: true });
  });

  test("logTrace takes serialized messages and strings", async () => {
    const taskEval = new TaskEval({ mergeStrategy: "traces_only" });
    taskEval.logTrace([
      { role: "assistant", content: "", tool_calls: [{ id: "t9", name: "fetch", input: {} }] },
      { role: "tool", content: "HTTP 404 not found", tool_result: { tool_use_id: "t9", is_error: false } },
    ]);
    taskEval.logTrace("Could not fetch the paper [1].");
    taskEval.addRubric({ regex_traits: [citation] });

    const row = (await taskEval.evaluate(config())).globalEval?.results[0];
    expect(row?.rubric?.regex_trait_scores).toEqual({ cites_sources: true });
    expect(row?.template?.agent_metrics).toMatchObject({ suspect_failed_tools: ["fetch"], iterations: 2 });
    expect(() => taskEval.logTrace([assistantMessage("ok"), { role: "robot" } as never])).toThrow(
      /invalid trace message record: \[1\]\.role/,
    );
  });
});

describe("replicates", () => {
  test("each question is evaluated once per replicate of the config", async () => {
    server.script(parseReply("venetoclax", { repeat: true }));
    const taskEval = new TaskEval();
    taskEval.log("Venetoclax.");
    taskEval.addQuestion(QUESTION);
    taskEval.addTemplate(DRUG_TEMPLATE);

    const result = await taskEval.evaluate(config({ replicate_count: 3 }));

    const rows = result.globalEval?.verificationResults[md5Hex(QUESTION.question)] ?? [];
    expect(rows.map((row) => row.metadata.replicate)).toEqual([1, 2, 3]);
    expect(rows.every((row) => row.template?.verify_result === true)).toBe(true);
    expect(chat().map((request) => request.body.model)).toEqual(["judge", "judge", "judge"]);
    expect(result.globalEval?.summary()).toMatchObject({ total: 3, passed: 3, questions: 1 });
  });
});

describe("setup errors", () => {
  test("nothing attached anywhere is an error, before any call", async () => {
    const taskEval = new TaskEval();
    taskEval.log("Some output.");
    taskEval.addQuestion(QUESTION);
    await expect(taskEval.evaluate(config())).rejects.toThrow(NothingToEvaluateError);
    await expect(new TaskEval().evaluate(config())).rejects.toThrow(/^nothing to evaluate/);
    taskEval.log("Step output.", { stepId: "s1" });
    await expect(taskEval.evaluate(config(), { stepId: "s1" })).rejects.toMatchObject({ stepId: "s1" });
    expect(server.requests).toHaveLength(0);
  });

  test("rubrics of one scope merge; a repeated trait name is an error naming it", () => {
    const taskEval = new TaskEval();
    taskEval.addRubric({ regex_traits: [citation] });
    taskEval.addRubric({ llm_traits: [clarity] });
    const error = (() => {
      try {
        taskEval.addRubric({ llm_traits: [{ ...clarity, name: "cites_sources" }] });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DuplicateTraitError);
    expect(error).toMatchObject({ traitName: "cites_sources", stepId: null });
    taskEval.addRubric({ regex_traits: [citation] }, { stepId: "s1" });
    expect(() => taskEval.addDynamicRubric({ llm_traits: [clarity] })).not.toThrow();
    expect(() => taskEval.addDynamicRubric({ llm_traits: [clarity] })).toThrow(DuplicateTraitError);
  });

  test("a template needs a question, and a question-specific template a known question", async () => {
    const noQuestion = new TaskEval();
    noQuestion.log("Venetoclax.");
    noQuestion.addTemplate(DRUG_TEMPLATE);
    await expect(noQuestion.evaluate(config())).rejects.toThrow(/has a template but no question/);

    const unknown = new TaskEval();
    unknown.addQuestion(QUESTION);
    unknown.addTemplate(DRUG_TEMPLATE, { questionId: "q-missing" });
    await expect(unknown.evaluate(config())).rejects.toThrow(
      /question "q-missing", which is not in the global scope/,
    );
    expect(() => unknown.log("x", { target: "step" })).toThrow(TaskEvalError);
    expect(server.requests).toHaveLength(0);
  });

  test("a cancelled evaluation rejects", async () => {
    const taskEval = new TaskEval();
    taskEval.log("Anything [1].");
    taskEval.addRubric({ regex_traits: [citation] });
    const controller = new AbortController();
    controller.abort();
    await expect(taskEval.evaluate(config(), { signal: controller.signal })).rejects.toThrow(/cancelled/);
  });
});

test("the pass-through template loads and always verifies", async () => {
  const template = await loadTemplate(TASKEVAL_PASS_THROUGH_TEMPLATE.code, "Python");
  expect((await template.evaluate({ response: "anything" })).verify).toBe(true);
}, 60_000);
