/**
 * Stage 7b′ DynamicParseTemplate (spec 05 §12.5), end to end over real HTTP to the scripted OpenAI-compatible
 * server on 127.0.0.1: the answering agent works in a workspace copy, the parsing model screens its final
 * message and, when it escalates, investigates the workspace with the read-only tools. Every scripted reply
 * below is hand-written test data, not output of any model.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ReplayStore } from "../../llm/index.js";
import type { VerificationResult } from "../../results/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { pipelineContext, runPipeline } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { stagesFor } from "../stage-list.js";
import { isApiConnectionError } from "./dynamic-parse-template.js";

const server = serverPerTest(startOpenAiServer);
let root = "";

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "karenina-dynamic-"));
  await mkdir(join(root, "ws"));
  await writeFile(join(root, "ws", "result.txt"), "Recommended drug: venetoclax\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const DYNAMIC = { agentic_parsing: true, agentic_parsing_trigger: "dynamic" };

/** The answering agent's one turn (hand-written). */
const ANSWER_IN_MESSAGE = "The BCL-2 inhibitor approved for CLL is venetoclax.";
const ANSWER_IN_FILE = "I wrote the recommendation to result.txt.";

function context(config: Record<string, unknown> = {}, replay: ReplayStore | null = null) {
  return pipelineContext({
    baseURL: server.baseURL,
    config: { ...DYNAMIC, ...config },
    question: { workspacePath: "ws" },
    services: { workspaceRoot: root, replay },
  });
}

async function verify(
  answer: string,
  config: Record<string, unknown> = {},
  replay: ReplayStore | null = null,
): Promise<VerificationResult> {
  server.script({ match: { model: "answerer" }, reply: { text: answer } });
  return runPipeline(context(config, replay));
}

/** The judge's decision reply (hand-written), as text. */
const decision = (reply: Record<string, unknown>) => ({
  match: { model: "judge" },
  reply: { text: JSON.stringify(reply) },
});

/** The escalated investigation (hand-written): read result.txt, report, extraction. */
function scriptInvestigation() {
  server.script(
    {
      match: { model: "judge" },
      reply: { toolCalls: [{ name: "read_file", arguments: { path: "result.txt" } }] },
    },
    { match: { model: "judge" }, reply: { text: 'result.txt names the drug.\n{"drug": "venetoclax"}' } },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } } },
  );
}

const judgeRequests = () =>
  server.requests
    .filter((request) => request.body.model === "judge")
    .map((request) => JSON.stringify(request.body));

describe("spec 05 §12.5 stage 7b′ DynamicParseTemplate", () => {
  test("spec 05 §12.5 stage list: the dynamic trigger selects 7b′ in place of 7a and 7b", () => {
    const ctx = context();
    const names = stagesFor(ctx.config, ctx.task).map((stage) => stage.name);
    expect(names).toContain("DynamicParseTemplate");
    expect(names).not.toContain("AgenticParseTemplate");
    expect(names).not.toContain("ParseTemplate");
  });

  test("spec 05 §12.5 direct: a sufficient final message is parsed by the decision call alone", async () => {
    server.script(
      decision({
        reasoning: "The message names venetoclax.",
        sufficient: true,
        answer: { drug: "venetoclax" },
      }),
    );
    const result = await verify(ANSWER_IN_MESSAGE);
    expect(result.metadata.failure).toBeNull();
    expect(result.template).toMatchObject({
      verify_result: true,
      parsed_llm_response: { drug: "venetoclax" },
      dynamic_parsing_performed: true,
      dynamic_parse_decision: "direct",
      dynamic_decision_reasoning: "The message names venetoclax.",
      agentic_parsing_performed: false,
      investigation_trace: null,
    });
    expect(result.used_full_trace).toBe(false);
    expect(result.evaluation_input).toBeNull();
    expect(result.metadata.caveats).toEqual([]);
    expect(Object.keys(result.template?.usage_metadata ?? {})).toContain("dynamic_parsing_decision");
    const [screening] = judgeRequests();
    expect(judgeRequests()).toHaveLength(1);
    expect(screening).toContain("<final_message>");
    expect(screening).toContain(ANSWER_IN_MESSAGE);
    // Ground truth never reaches the judge; the schema does.
    expect(screening).toContain('\\"drug\\"');
  });

  test("spec 05 §12.5 escalated: an insufficient final message gets the investigation, told the screening reasoning", async () => {
    server.script(decision({ reasoning: "The drug is only in result.txt.", sufficient: false }));
    scriptInvestigation();
    const result = await verify(ANSWER_IN_FILE);
    expect(result.metadata.failure).toBeNull();
    expect(result.template).toMatchObject({
      verify_result: true,
      parsed_llm_response: { drug: "venetoclax" },
      dynamic_parsing_performed: true,
      dynamic_parse_decision: "escalated",
      dynamic_decision_reasoning: "The drug is only in result.txt.",
      agentic_parsing_performed: true,
    });
    expect(result.template?.investigation_trace).toContain("Recommended drug: venetoclax");
    const requests = judgeRequests();
    expect(requests).toHaveLength(4);
    expect(requests[1]).toContain("Screening reasoning:");
    expect(requests[1]).toContain("The drug is only in result.txt.");
    expect(result.metadata.caveats).toEqual([]);
  });

  test("spec 05 §12.5 replay: captured parsed fields are used, no judge is called", async () => {
    const replay = new ReplayStore();
    replay.register(
      { question_id: "q-cll" },
      { raw_trace: `--- AI Message ---\n${ANSWER_IN_MESSAGE}`, parsed_answer_fields: { drug: "venetoclax" } },
    );
    const result = await runPipeline(context({}, replay));
    expect(server.requests).toHaveLength(0);
    expect(result.template).toMatchObject({
      verify_result: true,
      dynamic_parsing_performed: true,
      dynamic_parse_decision: "replay",
      parsed_llm_response: { drug: "venetoclax" },
    });
  });

  test("spec 05 §12.5 answer_error_null: a final message that is only an API connection error is scored all-null", async () => {
    const result = await verify("API Error: Unable to connect to API (ConnectionRefused)");
    expect(judgeRequests()).toHaveLength(0);
    expect(result.template).toMatchObject({
      dynamic_parse_decision: "answer_error_null",
      parsed_llm_response: { drug: null },
      verify_result: false,
    });
    expect(result.template?.dynamic_decision_reasoning).toContain("API connection error");
    expect(result.metadata.warnings.join("\n")).toContain("API connection error; all fields null");
  });

  test("spec 05 §12.5 API connection error detection normalises case and whitespace and needs both parts", () => {
    expect(isApiConnectionError("api error:  unable to connect\nto API — ConnectionRefused")).toBe(true);
    expect(isApiConnectionError("API Error: Unable to connect to API")).toBe(false);
    expect(isApiConnectionError("ConnectionRefused while fetching data; venetoclax")).toBe(false);
  });

  test.each([
    ["not JSON", "I think it is venetoclax."],
    ["sufficient without an answer", JSON.stringify({ reasoning: "Named.", sufficient: true })],
    ["sufficient not a boolean", JSON.stringify({ reasoning: "Named.", sufficient: "yes", answer: {} })],
    [
      "an answer that does not fit the template",
      JSON.stringify({ reasoning: "Named.", sufficient: true, answer: { drug: { name: "venetoclax" } } }),
    ],
  ])("spec 05 §12.5 malformed decision (%s): caveat and escalation", async (_case, reply) => {
    server.script({ match: { model: "judge" }, reply: { text: reply } });
    scriptInvestigation();
    const result = await verify(ANSWER_IN_MESSAGE);
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.dynamic_parse_decision).toBe("escalated");
    expect(result.template?.agentic_parsing_performed).toBe(true);
    expect(result.template?.verify_result).toBe(true);
    expect(result.metadata.caveats).toEqual(["parse_decision_malformed"]);
    expect(result.metadata.warnings.join("\n")).toContain("Dynamic parsing decision was malformed");
  });

  test("spec 05 §12.5 a permanent decision-call failure is the task's error", async () => {
    server.script({ match: { model: "judge" }, reply: { status: 400, message: "scripted: bad request" } });
    const result = await verify(ANSWER_IN_MESSAGE);
    expect(result.metadata.failure?.reason).toMatch(
      /^Dynamic parsing decision failed: .*scripted: bad request/,
    );
    expect(result.template?.dynamic_parsing_performed).toBe(true);
    expect(result.template?.dynamic_parse_decision).toBeNull();
    expect(judgeRequests()).toHaveLength(1);
  });

  test("spec 05 §12.5 a retryable decision-call failure escalates with a warning", async () => {
    // FAST_RETRIES: one retry of a server error, so two failing replies exhaust it.
    const unavailable = {
      match: { model: "judge" },
      reply: { status: 503, message: "scripted: unavailable" },
    };
    server.script(unavailable, unavailable);
    scriptInvestigation();
    const result = await verify(ANSWER_IN_MESSAGE);
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.dynamic_parse_decision).toBe("escalated");
    expect(result.template?.dynamic_decision_reasoning).toContain("The decision call failed");
    expect(result.metadata.warnings.join("\n")).toContain("escalating to the investigation");
  });

  test("spec 05 §12.5 escalation errors read 'Dynamic agentic ...'", async () => {
    server.script(decision({ reasoning: "Only in the file.", sufficient: false }), {
      match: { model: "judge" },
      reply: { toolCalls: [{ name: "list_files", arguments: {} }] },
      repeat: true,
    });
    const result = await verify(ANSWER_IN_FILE, { agentic_parsing_max_turns: 2 });
    expect(result.metadata.failure?.reason).toBe(
      "Dynamic agentic investigation hit the turn limit before producing a reliable report",
    );
    expect(result.metadata.failure?.stage).toBe("DynamicParseTemplate");
  });

  test("spec 05 §12.5 escalation: extraction and recovery failing reads 'Dynamic agentic extraction failed'", async () => {
    server.script(
      decision({ reasoning: "Only in the file.", sufficient: false }),
      { match: { model: "judge" }, reply: { text: "I could not tell." } },
      {
        match: { model: "judge" },
        reply: { status: 400, message: "scripted: extraction refused" },
        repeat: true,
      },
    );
    const result = await verify(ANSWER_IN_FILE);
    expect(result.metadata.failure?.reason).toMatch(
      /^Dynamic agentic extraction failed: .*; local JSON recovery failed: the report holds no JSON object/,
    );
  });
});
