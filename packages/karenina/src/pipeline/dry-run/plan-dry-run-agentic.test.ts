/**
 * The dry-run estimate of agent runs: answering agents, agentic parsing (7b) and agentic rubric traits, on the
 * pipeline tests' drug question (hand-written test data). Nothing here calls a model: the models point at an
 * address nothing listens on, and MCP servers are never contacted.
 */
import { describe, expect, test } from "vitest";
import { parseRubric } from "../../model/index.js";
import {
  endpointModel,
  pipelineQuestion,
  UNREACHABLE_BASE_URL,
} from "../../test-support/pipeline-context.js";
import { parseVerificationConfig } from "../config/index.js";
import { ASSUMED_AGENT_TURNS, ASSUMED_TOOL_RESULT_TOKENS } from "./agent-calls.js";
import { ESCALATION_PROBABILITY } from "./agentic-calls.js";
import { OUTPUT_TOKEN_DEFAULTS } from "./call-kinds.js";
import type { DryRunPlan } from "./dry-run-plan.js";
import { type DryRunOptions, planDryRun } from "./plan-dry-run.js";

const answerer = endpointModel(UNREACHABLE_BASE_URL, "answerer");
const judge = endpointModel(UNREACHABLE_BASE_URL, "judge");
const otherJudge = endpointModel(UNREACHABLE_BASE_URL, "other-judge");
const withMcp = { ...answerer, mcp_urls_dict: { kb: "http://127.0.0.1:9/mcp" } };
const claudeCode = { id: "claude", model_name: "claude-sonnet-4-5", interface: "claude_agent_sdk" };

async function plan(
  overrides: Record<string, unknown> = {},
  options: DryRunOptions = {},
): Promise<DryRunPlan> {
  const config = parseVerificationConfig({
    answering_models: [answerer],
    parsing_models: [judge],
    ...overrides,
  });
  return planDryRun([pipelineQuestion({ workspacePath: "sum-project" })], config, options);
}

const callsByStage = (result: DryRunPlan) =>
  Object.fromEntries(result.stages.map((stage) => [stage.stage, stage.calls]));
const stage = (result: DryRunPlan, name: string) => result.stages.find((s) => s.stage === name);
const inputOf = (result: DryRunPlan, name: string) => stage(result, name)?.inputTokens ?? 0;

/** What one tool-calling turn adds to the conversation: the call, its result, and their two messages' overhead. */
const GROWTH = OUTPUT_TOKEN_DEFAULTS.agent_turn.perCall + ASSUMED_TOOL_RESULT_TOKENS + 2 * 3;
const TURN_OUTPUT = OUTPUT_TOKEN_DEFAULTS.agent_turn.perCall;
const ANSWER = OUTPUT_TOKEN_DEFAULTS.answer_generation.perCall;

const agenticTrait = (name: string, fields: Record<string, unknown> = {}) => ({
  name,
  description: `Does the workspace show that ${name}?`,
  kind: "boolean",
  ...fields,
});
const traitRubric = (...traits: Record<string, unknown>[]) => parseRubric({ agentic_traits: traits });

describe("answering agents", () => {
  test("an answerer with MCP servers takes 5 turns, each resending the conversation grown by one tool call and result", async () => {
    const plain = await plan();
    const agent = await plan({ answering_models: [withMcp] });
    expect(ASSUMED_AGENT_TURNS).toBe(5);
    expect(callsByStage(agent)).toEqual({ answer_generation: 5, parsing: 1 });
    // Turn t (0-based) sends the plain prompt plus t turns of growth: 5 × prompt + (0+1+2+3+4) × growth.
    expect(inputOf(agent, "answer_generation")).toBe(5 * inputOf(plain, "answer_generation") + 10 * GROWTH);
    expect(stage(agent, "answer_generation")?.outputTokens).toBe(4 * TURN_OUTPUT + ANSWER);
    expect(agent.assumptions.join("\n")).toContain("MCP tools: their definitions are not counted");
  });

  test("the answering model's turn limit caps the turns", async () => {
    const limited = { ...withMcp, agent_middleware: { limits: { model_call_limit: 2 } } };
    const result = await plan({ answering_models: [limited] });
    expect(callsByStage(result)).toEqual({ answer_generation: 2, parsing: 1 });
  });

  test("with a workspace root, agentic traits make a tool-loop answerer an agent offered the workspace tools", async () => {
    const rubric = traitRubric(agenticTrait("tests_pass"));
    const config = { evaluation_mode: "template_and_rubric" };
    const noRoot = await plan(config, { globalRubric: rubric });
    expect(callsByStage(noRoot)).toMatchObject({ answer_generation: 1 });
    const rooted = await plan(config, { globalRubric: rubric, workspaceRoot: "/srv/workspaces" });
    expect(callsByStage(rooted)).toMatchObject({ answer_generation: 5 });
    // The first turn carries the workspace paragraph and the workspace tools' definitions besides the prompt.
    const firstTurn = (inputOf(rooted, "answer_generation") - 10 * GROWTH) / 5;
    expect(firstTurn - inputOf(noRoot, "answer_generation")).toBeGreaterThan(200);
    const commands = await plan(config, {
      globalRubric: rubric,
      workspaceRoot: "/srv/workspaces",
      agentCommands: true,
    });
    expect(inputOf(commands, "answer_generation")).toBeGreaterThan(inputOf(rooted, "answer_generation"));
  });

  test("a deep agent is estimated the same way, flagged as rough, without Claude Code's own system prompt", async () => {
    const result = await plan({ answering_models: [claudeCode] });
    expect(callsByStage(result)).toEqual({ answer_generation: 5, parsing: 1 });
    const text = result.assumptions.join("\n");
    expect(text).toContain("rough estimate");
    expect(text).toContain("without Claude Code's own system prompt");
  });
});

describe("agentic parsing (7b)", () => {
  test("replaces parsing with an investigation of 5 turns and one extraction call", async () => {
    const result = await plan({ agentic_parsing: true });
    // Agentic parsing gives every task a workspace, so the answerer works there as an agent too.
    expect(callsByStage(result)).toEqual({
      answer_generation: 5,
      agentic_parsing_investigation: 5,
      agentic_parsing_extraction: 1,
    });
    const investigation = stage(result, "agentic_parsing_investigation");
    // The drug template has one field: the report is 60 + 40 tokens.
    expect(investigation?.outputTokens).toBe(4 * TURN_OUTPUT + 100);
    expect(result.outputTokens.map((estimate) => estimate.kind)).toEqual([
      "answer_generation",
      "parsing",
      "agent_turn",
      "agentic_report",
    ]);
    expect(result.assumptions.join("\n")).toContain("Agent runs (answering agents, agentic parsing)");
    expect(result.assumptions.join("\n")).not.toContain("Not estimated");
  });

  test("the extraction prompt holds the report: a longer report default costs its extra tokens there", async () => {
    const short = await plan({ agentic_parsing: true });
    const long = await plan(
      { agentic_parsing: true },
      { outputTokenHistory: { agentic_report: { meanOutputTokens: 1100, samples: 1 } } },
    );
    expect(inputOf(long, "agentic_parsing_extraction") - inputOf(short, "agentic_parsing_extraction")).toBe(
      1000,
    );
    expect(inputOf(long, "agentic_parsing_investigation")).toBe(
      inputOf(short, "agentic_parsing_investigation"),
    );
  });

  test("the judge context changes the input: the trace adds the answering agent's trace to every turn", async () => {
    const investigation = async (mode: string) =>
      inputOf(
        await plan({ agentic_parsing: true, agentic_judge_context: mode }),
        "agentic_parsing_investigation",
      );
    const workspaceOnly = await investigation("workspace_only");
    const traceAndWorkspace = await investigation("trace_and_workspace");
    const traceOnly = await investigation("trace_only");
    // The answering agent's trace: 4 tool-calling turns and the answer.
    const trace = 4 * GROWTH + ANSWER;
    const perTurn = (traceAndWorkspace - workspaceOnly) / 5;
    expect(perTurn).toBeGreaterThanOrEqual(trace);
    expect(perTurn).toBeLessThan(trace + 40);
    // trace_only shows no workspace: no path, no tools offered.
    expect(traceOnly).toBeLessThan(traceAndWorkspace - 5 * 100);
  });

  test("the trace placeholder grows with the answer length: every investigation turn sees the whole trace", async () => {
    const history = (answer: number) => ({ answer_generation: { meanOutputTokens: answer, samples: 1 } });
    const traced = { agentic_parsing: true, agentic_judge_context: "trace_only" };
    const short = await plan(traced, { outputTokenHistory: history(100) });
    const long = await plan(traced, { outputTokenHistory: history(600) });
    expect(
      inputOf(long, "agentic_parsing_investigation") - inputOf(short, "agentic_parsing_investigation"),
    ).toBe(5 * 500);
  });
});

describe("dynamic agentic parsing (7b′)", () => {
  test("one decision call, then the investigation and extraction weighted by the escalation probability", async () => {
    const always = await plan({ agentic_parsing: true });
    const dynamic = await plan({ agentic_parsing: true, agentic_parsing_trigger: "dynamic" });
    expect(ESCALATION_PROBABILITY).toBe(0.5);
    expect(callsByStage(dynamic)).toEqual({
      answer_generation: 5,
      dynamic_parsing_decision: 1,
      agentic_parsing_investigation: 2.5,
      agentic_parsing_extraction: 0.5,
    });
    // The escalated investigation is also shown the screening's reasoning: 40 tokens (the decision reply
    // without its answer) in a tagged block, in each of its 5 turns. Halved and rounded per call: ±5 tokens.
    const escalated = inputOf(dynamic, "agentic_parsing_investigation") * 2;
    const plain = inputOf(always, "agentic_parsing_investigation");
    expect(escalated - plain).toBeGreaterThanOrEqual(5 * 40 - 5);
    expect(escalated - plain).toBeLessThan(5 * 40 + 5 * 20);
    expect(dynamic.assumptions.join("\n")).toContain("escalation probability of 0.5");
  });
});

describe("materialised trace", () => {
  test("the judge is pointed at the trace file instead of reading the whole trace in every turn", async () => {
    const traced = { agentic_parsing: true, agentic_judge_context: "trace_only" };
    const inline = await plan(traced);
    const file = await plan({ ...traced, agentic_parsing_materialize_trace: true });
    const trace = 4 * GROWTH + ANSWER;
    // Minus the trace in each of the 5 turns, plus the read-only tools' definitions it now needs to read the file.
    const saved =
      inputOf(inline, "agentic_parsing_investigation") - inputOf(file, "agentic_parsing_investigation");
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(5 * trace);
    expect(file.assumptions.join("\n")).toContain("Materialised trace");
  });
});

describe("agentic rubric traits (11b)", () => {
  const config = { evaluation_mode: "rubric_only" };
  const two = traitRubric(agenticTrait("tests_pass"), agenticTrait("docs_updated"));

  test("individual: an investigation and an extraction per trait", async () => {
    const result = await plan(config, { globalRubric: two, workspaceRoot: "/srv/ws" });
    expect(callsByStage(result)).toEqual({
      answer_generation: 5,
      rubric_agentic_trait_investigation: 10,
      rubric_agentic_trait_extraction: 2,
    });
  });

  test("shared: one investigation of every criterion, then an extraction per trait", async () => {
    const result = await plan(
      { ...config, agentic_rubric_strategy: "shared" },
      { globalRubric: two, workspaceRoot: "/srv/ws" },
    );
    expect(callsByStage(result)).toEqual({
      answer_generation: 5,
      rubric_agentic_trait_investigation: 5,
      rubric_agentic_trait_extraction: 2,
    });
    expect(result.assumptions.join("\n")).toContain("Strategy shared");
  });

  test("shared with different judges falls back to one investigation per trait, each charged to its judge", async () => {
    const rubric = traitRubric(
      agenticTrait("tests_pass"),
      agenticTrait("docs_updated", { model_override: otherJudge }),
    );
    const result = await plan(
      { ...config, agentic_rubric_strategy: "shared" },
      { globalRubric: rubric, workspaceRoot: "/srv/ws" },
    );
    expect(callsByStage(result)).toMatchObject({
      rubric_agentic_trait_investigation: 10,
      rubric_agentic_trait_extraction: 2,
    });
    const calls = Object.fromEntries(result.models.map((model) => [model.model, model.calls]));
    expect(calls).toEqual({
      "openai_endpoint:answerer": 5,
      "openai_endpoint:judge": 6,
      "openai_endpoint:other-judge": 6,
    });
  });

  test("a trace_only trait without a workspace is one call; a template-kind trait's JSON needs no extraction", async () => {
    const rubric = traitRubric(
      agenticTrait("tests_pass", { context_mode: "trace_only" }),
      agenticTrait("coverage", {
        kind: { type: "template", schema: { type: "object", properties: { percent: { type: "number" } } } },
        higher_is_better: null,
      }),
    );
    const result = await plan(config, { globalRubric: rubric });
    // No root: no workspace. trace_only: 1 call + 1 extraction; the template trait: 5 turns, read locally.
    expect(callsByStage(result)).toEqual({
      answer_generation: 1,
      rubric_agentic_trait_investigation: 6,
      rubric_agentic_trait_extraction: 1,
    });
    expect(result.assumptions.join("\n")).toContain("read locally");
  });
});
