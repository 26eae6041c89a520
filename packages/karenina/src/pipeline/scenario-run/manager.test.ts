/**
 * Spec 08 §8.5 (T-M1…T-M15): the runtime of one execution. The original stubs its turns; here the turns run
 * the real pipeline, answered by a strict replay store (raw trace, trace messages, parsed fields) so no model
 * is called, or, where a turn must fail or its request be seen, by the scripted OpenAI server.
 */

import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ReplayStore } from "../../llm/index.js";
import { parseRubric } from "../../model/index.js";
import { END, Scenario, type ScenarioDefinition } from "../../scenario/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { ONE_RETRY_EACH } from "../../test-support/pipeline-context.js";
import { serverPerFile, tempDirPerTest } from "../../test-support/server-per-test.js";
import { parseVerificationConfig, type VerificationConfig } from "../config/index.js";
import { openRunServices } from "../run-services.js";
import { CachingPortProvider } from "../services.js";
import { ScenarioAnswerCache } from "./answer-cache.js";
import {
  runScenarioVerification,
  type ScenarioProgressEvent,
  type ScenarioRunOptions,
} from "./run-scenarios.js";
import { runScenarioExecution } from "./scenario-execution.js";
import { TurnConfigs } from "./turn-config.js";
import { hydrateOverride } from "./turn-models.js";

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    city: str = VerifiedField(description='The city named', ground_truth='Canberra', verify_with=ExactMatch())
`;

const server = serverPerFile(() => startOpenAiServer([]));
const tmp = tempDirPerTest("karenina-scenario-manager-");

const node = (question: string, extra: Record<string, unknown> = {}) => ({
  question: { question, raw_answer: "Canberra", answer_template: TEMPLATE },
  ...extra,
});

/** A `langchain` OpenAI model; through {@link ports} it would reach the scripted server, never the network. */
const langchain = (id: string, name = id, extra: Record<string, unknown> = {}) => ({
  id,
  model_name: name,
  model_provider: "openai",
  interface: "langchain",
  ...extra,
});

/** An `openai_endpoint` model talking to `baseURL`. */
const endpoint = (id: string, baseURL: string, extra: Record<string, unknown> = {}) => ({
  id,
  model_name: id,
  interface: "openai_endpoint",
  endpoint_base_url: baseURL,
  endpoint_api_key: "test-key",
  ...extra,
});

const ports = () =>
  new CachingPortProvider({ env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "test-key" } });

function config(extra: Record<string, unknown> = {}): VerificationConfig {
  return parseVerificationConfig({
    answering_models: [langchain("solver")],
    parsing_models: [langchain("judge")],
    retry_policy: ONE_RETRY_EACH,
    ...extra,
  });
}

/** A replay entry answering `text`, parsed as city `city`. */
const answer = (text: string, city: string) => ({
  raw_trace: `--- AI Message ---\n${text}`,
  trace_messages: [{ role: "assistant", content: text }],
  parsed_answer_fields: { city },
});

/** A strict store: `[node, visit|null, text, city]` entries of scenario `scenarioId`, any model and replicate. */
function replay(scenarioId: string, entries: [string, number | null, string, string][]): ReplayStore {
  const store = new ReplayStore({ missPolicy: "strict" });
  for (const [scenario_node, visit_index, text, city] of entries) {
    store.register(
      { question_id: "", scenario_id: scenarioId, scenario_node, visit_index },
      answer(text, city),
    );
  }
  return store;
}

async function run(
  scenario: ScenarioDefinition,
  runConfig: VerificationConfig,
  options: ScenarioRunOptions = {},
) {
  const events: ScenarioProgressEvent[] = [];
  const result = await runScenarioVerification([scenario], runConfig, {
    ports: ports(),
    onProgress: (event) => events.push(event),
    ...options,
  });
  const warnings = events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
  return { ...result, events, warnings, execution: result.live[0] };
}

/** A 127.0.0.1 port nothing listens on. */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const single = (name = "single") =>
  new Scenario(name)
    .addNode("ask", node("What is the capital of Australia?"))
    .addEdge("ask", END)
    .setEntry("ask")
    .validate();

describe("statuses and terminal failures", () => {
  test("T-M1: a single node ask → END whose turn succeeds is completed after one turn", async () => {
    const { execution, errors } = await run(single(), config(), {
      replay: replay("single", [["ask", null, "Canberra.", "Canberra"]]),
    });
    expect(server.requests).toEqual([]);
    expect(execution?.status).toBe("completed");
    expect(execution?.turn_results).toHaveLength(1);
    expect(execution?.terminal_failure).toBeNull();
    expect(errors).toEqual([]);
  });

  test("T-M2: a connection failure ends the run in error after one turn (no turn retry), with a warning naming scenario, node, category and reason", async () => {
    const port = await unusedPort();
    const closed = `http://127.0.0.1:${port}/v1`;
    const { execution, warnings, errors } = await run(
      single(),
      config({ answering_models: [endpoint("solver", closed)], parsing_models: [endpoint("judge", closed)] }),
    );
    expect(execution?.status).toBe("error");
    expect(execution?.turn_results).toHaveLength(1);
    const failure = execution?.turn_results[0]?.metadata.failure;
    expect(failure?.category).toBe("connection");
    expect(execution?.terminal_failure).toEqual({
      node_id: "ask",
      category: "connection",
      stage: failure?.stage,
      reason: failure?.reason,
    });
    expect(execution?.outcome_results).toEqual({});
    const logged = warnings.find((message) => message.includes("stopped at node"));
    expect(logged).toContain("scenario 'single'");
    expect(logged).toContain("node 'ask'");
    expect(logged).toContain("connection");
    expect(logged).toContain(failure?.reason);
    expect(errors).toHaveLength(1);
  });

  test("T-M2: a failing answer is asked for once: the scenario never retries a turn", async () => {
    const failing = await startOpenAiServer([
      { match: { model: "solver" }, reply: { status: 500, message: "upstream broke" }, repeat: true },
    ]);
    try {
      const { execution } = await run(
        single(),
        config({
          answering_models: [endpoint("solver", failing.baseURL)],
          parsing_models: [endpoint("judge", failing.baseURL)],
        }),
      );
      expect(execution?.status).toBe("error");
      expect(execution?.terminal_failure?.category).toBe("server_error");
      // The adapter's own retries (one, by the policy) are all the calls: the turn itself is not run again.
      const retries = execution?.turn_results[0]?.metadata.retry_counts?.server_error?.used ?? 0;
      expect(retries).toBe(1);
      expect(failing.requests.filter((request) => request.body.model === "solver")).toHaveLength(1 + retries);
      expect(execution?.turn_results).toHaveLength(1);
      expect(failing.requests.filter((request) => request.body.model === "judge")).toHaveLength(0);
    } finally {
      await failing.close();
    }
  });

  test("T-M3: a content failure is ordinary state: n1 false routes to n2, which passes; completed", async () => {
    const scenario = new Scenario("content")
      .addNode("n1", node("First?"))
      .addNode("n2", node("Second?"))
      .addEdge("n1", "n2", { when: { verify_result: false } })
      .addEdge("n1", END)
      .addEdge("n2", END)
      .setEntry("n1")
      .validate();
    const { execution, errors } = await run(scenario, config(), {
      replay: replay("content", [
        ["n1", null, "Sydney.", "Sydney"],
        ["n2", null, "Canberra.", "Canberra"],
      ]),
    });
    expect(server.requests).toEqual([]);
    expect(execution?.status).toBe("completed");
    expect(execution?.terminal_failure).toBeNull();
    expect(execution?.path).toEqual(["n1", "n2"]);
    expect(execution?.history.map((turn) => turn.verify_result)).toEqual([false, true]);
    expect(execution?.turn_results[0]?.metadata.failure?.category).toBe("content");
    expect(errors).toEqual([]);
  });

  test("T-M4: a timed-out judge call ends the run with category timeout and the row's reason verbatim", async () => {
    // A stalled answer stream is `rate_limit` (spec 04 §14.1, mirrored), so the timeout comes from the judge.
    const slow = await startOpenAiServer([
      { match: { model: "solver" }, reply: { text: "Canberra." }, repeat: true },
      { match: { model: "judge" }, reply: { json: { city: "Canberra" }, delayMs: 5_000 }, repeat: true },
    ]);
    try {
      const { execution } = await run(
        single(),
        config({
          answering_models: [endpoint("solver", slow.baseURL)],
          parsing_models: [endpoint("judge", slow.baseURL, { request_timeout: 0.3 })],
        }),
      );
      expect(execution?.status).toBe("error");
      const failure = execution?.turn_results[0]?.metadata.failure;
      expect(failure?.category).toBe("timeout");
      expect(execution?.terminal_failure).toEqual({
        node_id: "ask",
        category: "timeout",
        stage: failure?.stage,
        reason: failure?.reason,
      });
    } finally {
      await slow.close();
    }
  }, 30_000);
});

describe("state, modes, replicates, visits and progress", () => {
  test("T-M5: a state_update that mutates the accumulated state and then throws is rolled back; the run goes on", async () => {
    const scenario = new Scenario("rollback", "", { onWarning: () => {} })
      .addNode("count", {
        ...node("Count?"),
        stateUpdate: (acc: Record<string, unknown>) => ({ ...acc, counted: 1 }),
      })
      .addNode("boom", {
        ...node("Boom?"),
        stateUpdate: (acc: Record<string, unknown>) => {
          acc.counted = 99;
          acc.extra = "half-written";
          throw new Error("state update broke");
        },
      })
      .addNode("after", node("After?"))
      .addEdge("count", "boom")
      .addEdge("boom", "after")
      .addEdge("after", END)
      .setEntry("count")
      .validate();
    const { execution, warnings } = await run(scenario, config(), {
      replay: replay("rollback", [
        ["count", null, "Canberra.", "Canberra"],
        ["boom", null, "Canberra.", "Canberra"],
        ["after", null, "Canberra.", "Canberra"],
      ]),
    });
    expect(execution?.status).toBe("completed");
    expect(execution?.path).toEqual(["count", "boom", "after"]);
    expect(execution?.final_state.accumulated).toEqual({ counted: 1 });
    expect(
      warnings.some(
        (message) => message.includes("state_update of node 'boom'") && message.includes("restored"),
      ),
    ).toBe(true);
  });

  test("T-M5 (Q15 fixed): a state_update returning a non-object is rolled back too", async () => {
    const scenario = new Scenario("nonobject", "", { onWarning: () => {} })
      .addNode("a", {
        ...node("A?"),
        stateUpdate: (acc: Record<string, unknown>) => ({ ...acc, kept: true }),
      })
      .addNode("b", { ...node("B?"), stateUpdate: () => null })
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .validate();
    const { execution } = await run(scenario, config(), {
      replay: replay("nonobject", [
        ["a", null, "Canberra.", "Canberra"],
        ["b", null, "Canberra.", "Canberra"],
      ]),
    });
    expect(execution?.status).toBe("completed");
    expect(execution?.final_state.accumulated).toEqual({ kept: true });
  });

  test("T-M6: evaluation_mode rubric_only is warned about, and turns still run the template stages", async () => {
    const { execution, warnings } = await run(single(), config({ evaluation_mode: "rubric_only" }), {
      replay: replay("single", [["ask", null, "Canberra.", "Canberra"]]),
    });
    expect(warnings.some((message) => message.includes("rubric_only"))).toBe(true);
    expect(execution?.turn_results[0]?.template?.verify_result).toBe(true);
    expect(execution?.turn_results[0]?.metadata.evaluation_mode).toBeNull();
  });

  /** A two-node chain a → b → END whose turns both come from a replay store (answer "Canberra."). */
  function replayedChain(name: string) {
    const scenario = new Scenario(name)
      .addNode("a", node("A?"))
      .addNode("b", node("B?"))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .validate();
    const store = replay(name, [
      ["a", null, "Canberra.", "Canberra"],
      ["b", null, "Canberra.", "Canberra"],
    ]);
    return { scenario, store };
  }

  test("T-M7: replicate 2 reaches the result, every turn row and the workspace path (rep_2/turn_<k>)", async () => {
    const { scenario, store } = replayedChain("rep/name");
    const root = join(tmp.path, "workspace");
    const models = { answering_models: [langchain("solver.v1")] };
    const { live } = await run(
      scenario,
      config({ ...models, replicate_count: 2, workspace_cleanup: false }),
      {
        replay: store,
        workspaceRoot: root,
      },
    );
    const second = live.find((execution) => execution.replicate === 2);
    expect(second?.replicate).toBe(2);
    expect(second?.turn_results.map((row) => row.metadata.replicate)).toEqual([2, 2]);
    // safe(): every character outside [A-Za-z0-9_-] becomes "_".
    const repDir = join(root, "rep_name", "solver_v1", "rep_2");
    expect(await readdir(repDir)).toEqual(["turn_0", "turn_1"]);

    const plain = join(tmp.path, "workspace-plain");
    await run(scenario, config({ ...models, workspace_cleanup: false }), {
      replay: store,
      workspaceRoot: plain,
    });
    const modelDir = join(plain, "rep_name", "solver_v1");
    const entries = await readdir(modelDir);
    expect(entries.sort()).toEqual(["turn_0", "turn_1"]);
    expect(entries.some((entry) => entry.startsWith("rep_"))).toBe(false);
    expect((await stat(join(modelDir, "turn_1"))).isDirectory()).toBe(true);
  });

  test("Q18 mirrored: with workspace_cleanup each turn's directory goes after its turn; one there before stays", async () => {
    const { scenario, store } = replayedChain("clean");
    const root = join(tmp.path, "workspace-clean");
    const modelDir = join(root, "clean", "solver_v1");
    // A user's folder where a turn directory would go is theirs: used, never deleted.
    await mkdir(join(modelDir, "turn_1"), { recursive: true });
    await writeFile(join(modelDir, "turn_1", "notes.txt"), "kept");
    const { live } = await run(scenario, config({ answering_models: [langchain("solver.v1")] }), {
      replay: store,
      workspaceRoot: root,
    });
    expect(live[0]?.status).toBe("completed");
    expect((await readdir(modelDir)).sort()).toEqual(["turn_1"]);
    expect(await readFile(join(modelDir, "turn_1", "notes.txt"), "utf8")).toBe("kept");
  });

  test("T-M8: the replay lookup's visit index is 0 on a node's first visit and 1 on its second", async () => {
    const scenario = new Scenario("visits")
      .addNode("loop", node("Again?"))
      .addEdge("loop", "loop", { when: { "node_visits.loop": { lt: 2 } } })
      .addEdge("loop", END)
      .setEntry("loop")
      .validate();
    const { execution } = await run(scenario, config(), {
      replay: replay("visits", [
        ["loop", 0, "First visit.", "Canberra"],
        ["loop", 1, "Second visit.", "Sydney"],
      ]),
    });
    expect(server.requests).toEqual([]);
    expect(execution?.status).toBe("completed");
    expect(execution?.history.map((turn) => turn.raw_response)).toEqual([
      "--- AI Message ---\nFirst visit.",
      "--- AI Message ---\nSecond visit.",
    ]);
    expect(execution?.final_state.node_visits).toEqual({ loop: 2 });
  });

  test("T-M9: each turn reports scenario, turn, node, verify result and next node; a throwing listener is swallowed", async () => {
    const scenario = new Scenario("progress")
      .addNode("a", node("A?"))
      .addNode("b", node("B?"))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .validate();
    const turns: unknown[] = [];
    const result = await runScenarioVerification([scenario], config(), {
      ports: ports(),
      replay: replay("progress", [
        ["a", null, "Canberra.", "Canberra"],
        ["b", null, "Sydney.", "Sydney"],
      ]),
      onProgress: (event) => {
        if (event.type !== "turn") return;
        turns.push([event.scenarioId, event.turn, event.node, event.verifyResult, event.nextNode]);
        throw new Error("listener broke");
      },
    });
    expect(turns).toEqual([
      ["progress", 0, "a", true, "b"],
      ["progress", 1, "b", false, "__end__"],
    ]);
    expect(result.live[0]?.status).toBe("completed");
  });
});

describe("models and rubrics per node", () => {
  test("T-M10: a node's answering override answers that turn, the parsing model stays the base; an empty override changes nothing", async () => {
    const scenario = new Scenario("override")
      .addNode("a", { ...node("A?"), modelOverride: { answering_model: langchain("gpt-4o") } })
      .addNode("b", { ...node("B?"), modelOverride: {} })
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .validate();
    const { execution } = await run(
      scenario,
      config({ answering_models: [langchain("claude")], parsing_models: [langchain("judge")] }),
      {
        replay: replay("override", [
          ["a", null, "Canberra.", "Canberra"],
          ["b", null, "Canberra.", "Canberra"],
        ]),
      },
    );
    expect(server.requests).toEqual([]);
    const models = execution?.turn_results.map((row) => [
      row.metadata.answering.model_name,
      row.metadata.parsing.model_name,
    ]);
    expect(models).toEqual([
      ["gpt-4o", "judge"],
      ["claude", "judge"],
    ]);
  });

  test("T-M11: an openai_endpoint override on the base URL without a key takes the base key; on another URL none", () => {
    const base = parseVerificationConfig({
      answering_models: [endpoint("base", "http://127.0.0.1:1/v1", { endpoint_api_key: "base-key" })],
      parsing_models: [endpoint("judge", "http://127.0.0.1:1/v1")],
    }).answering_models[0];
    if (base === undefined) throw new Error("no base model");
    const same = parseVerificationConfig({
      answering_models: [{ ...endpoint("same", "http://127.0.0.1:1/v1"), endpoint_api_key: null }],
      parsing_models: [endpoint("judge", "http://127.0.0.1:1/v1")],
    }).answering_models[0];
    const other = parseVerificationConfig({
      answering_models: [{ ...endpoint("other", "http://127.0.0.1:2/v1"), endpoint_api_key: null }],
      parsing_models: [endpoint("judge", "http://127.0.0.1:1/v1")],
    }).answering_models[0];
    if (same === undefined || other === undefined) throw new Error("no override model");
    expect(hydrateOverride(same, base).endpoint_api_key?.reveal()).toBe("base-key");
    expect(hydrateOverride(other, base).endpoint_api_key ?? null).toBeNull();
  });

  test("T-M11: the key an override inherits is the one its requests carry", async () => {
    const keyed = await startOpenAiServer([
      { match: { model: "override" }, reply: { text: "Canberra." }, repeat: true },
      { match: { model: "judge" }, reply: { json: { city: "Canberra" } }, repeat: true },
    ]);
    try {
      const scenario = new Scenario("keys")
        .addNode("ask", {
          ...node("What is the capital of Australia?"),
          modelOverride: {
            answering_model: { id: "override", model_name: "override", interface: "openai_endpoint" },
          },
        })
        .addEdge("ask", END)
        .setEntry("ask")
        .validate();
      const { execution } = await run(
        scenario,
        config({
          answering_models: [endpoint("solver", keyed.baseURL, { endpoint_api_key: "base-key" })],
          parsing_models: [endpoint("judge", keyed.baseURL)],
        }),
      );
      expect(execution?.status).toBe("completed");
      const request = keyed.requests.find((r) => r.body.model === "override");
      expect(request?.headers.authorization).toBe("Bearer base-key");
    } finally {
      await keyed.close();
    }
  });

  test("T-M12: a node's question rubric replaces the global rubric (Q16 mirrored); without one the global rubric is used", async () => {
    const scenario = new Scenario("rubrics")
      .addNode("own", {
        question: {
          question: "Own rubric?",
          raw_answer: "Canberra",
          answer_template: TEMPLATE,
          question_rubric: { regex_traits: [{ name: "says_canberra", pattern: "Canberra" }] },
        },
      })
      .addNode("global", node("Global rubric?"))
      .addEdge("own", "global")
      .addEdge("global", END)
      .setEntry("own")
      .validate();
    const definitionBefore = structuredClone(scenario.nodes.own?.question.question_rubric);
    const { execution } = await run(scenario, config(), {
      replay: replay("rubrics", [
        ["own", null, "Canberra.", "Canberra"],
        ["global", null, "Canberra [1].", "Canberra"],
      ]),
      globalRubric: parseRubric({
        regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }],
      }),
    });
    expect(server.requests).toEqual([]);
    const [own, global] = execution?.turn_results ?? [];
    expect(own?.rubric?.regex_trait_scores).toEqual({ says_canberra: true });
    expect(global?.rubric?.regex_trait_scores).toEqual({ cites: true });
    expect(execution?.final_state.node_results.own?.rubric).toEqual({ says_canberra: true });
    expect(scenario.nodes.own?.question.question_rubric).toEqual(definitionBefore);
  });
});

describe("answer cache, replay and the tagged log", () => {
  test("T-M13 effect: executions differing only by parser share each answer through the node cache", async () => {
    const shared = await startOpenAiServer([
      { match: { model: "solver" }, reply: { text: "Canberra." }, repeat: true },
      { match: { model: "judge-1" }, reply: { json: { city: "Canberra" } }, repeat: true },
      { match: { model: "judge-2" }, reply: { json: { city: "Canberra" } }, repeat: true },
    ]);
    try {
      const scenario = new Scenario("cached")
        .addNode("a", node("A?"))
        .addNode("b", node("B?"))
        .addEdge("a", "b")
        .addEdge("b", END)
        .setEntry("a")
        .validate();
      const { live } = await run(
        scenario,
        config({
          answering_models: [endpoint("solver", shared.baseURL)],
          parsing_models: [endpoint("judge-1", shared.baseURL), endpoint("judge-2", shared.baseURL)],
        }),
      );
      expect(live.map((execution) => execution.status)).toEqual(["completed", "completed"]);
      expect(shared.requests.filter((r) => r.body.model === "solver")).toHaveLength(2);
      expect(shared.requests.filter((r) => r.body.model !== "solver")).toHaveLength(4);
    } finally {
      await shared.close();
    }
  });

  test("T-M14: a turn answered by the replay store reserves no node-cache slot; a live one does", async () => {
    const scenario = new Scenario("reserve")
      .addNode("replayed", node("Replayed?"))
      .addNode("live", node("Live?"))
      .addEdge("replayed", "live")
      .addEdge("live", END)
      .setEntry("replayed")
      .validate();
    const live = await startOpenAiServer([
      { match: { model: "solver" }, reply: { text: "Canberra." }, repeat: true },
      { match: { model: "judge" }, reply: { json: { city: "Canberra" } }, repeat: true },
    ]);
    const runConfig = config({
      answering_models: [endpoint("solver", live.baseURL)],
      parsing_models: [endpoint("judge", live.baseURL)],
    });
    const store = new ReplayStore({ missPolicy: "fall_through" });
    store.register(
      { question_id: "", scenario_id: "reserve", scenario_node: "replayed" },
      answer("Canberra.", "Canberra"),
    );
    const { services, close } = await openRunServices(runConfig, { replay: store });
    const cache = new ScenarioAnswerCache(1_000);
    try {
      const [answering, parsing] = [runConfig.answering_models[0], runConfig.parsing_models[0]];
      if (answering === undefined || parsing === undefined) throw new Error("no models");
      const execution = await runScenarioExecution({
        scenario,
        base: { answering, parsing },
        replicate: null,
        runName: null,
        globalRubric: null,
        config: runConfig,
        configs: new TurnConfigs(runConfig),
        services,
        callables: null,
        cache,
        workspaceRoot: null,
        warn: () => {},
      });
      expect(execution.status).toBe("completed");
      expect(cache.size).toBe(1);
      expect(live.requests.filter((r) => r.body.model === "solver")).toHaveLength(1);
    } finally {
      await close();
      await live.close();
    }
  });

  test("T-M15: a system prompt enters the log once per agent and prompt: repeated for a new agent or a new prompt", async () => {
    const scenario = new Scenario("prompts")
      .addNode("n1", { ...node("One?"), agentIdentity: "qwen" })
      .addNode("n2", { ...node("Two?"), agentIdentity: "qwen" })
      .addNode("n3", { ...node("Three?"), agentIdentity: "other" })
      .addNode("n4", {
        ...node("Four?"),
        agentIdentity: "other",
        modelOverride: { answering_model: langchain("solver-2", "solver", { system_prompt: "Q" }) },
      })
      .addNode("review", { ...node("Review."), agentIdentity: "other" })
      .addEdge("n1", "n2")
      .addEdge("n2", "n3")
      .addEdge("n3", "n4")
      .addEdge("n4", "review", { handover: "transcript_prepend" })
      .addEdge("review", END)
      .setEntry("n1")
      .validate();
    const { execution } = await run(
      scenario,
      config({ answering_models: [langchain("solver", "solver", { system_prompt: "P" })] }),
      {
        replay: replay("prompts", [
          ["n1", null, "A1.", "Canberra"],
          ["n2", null, "A2.", "Canberra"],
          ["n3", null, "A3.", "Canberra"],
          ["n4", null, "A4.", "Canberra"],
          ["review", null, "Fine.", "Canberra"],
        ]),
      },
    );
    expect(server.requests).toEqual([]);
    const transcript = execution?.turn_results[4]?.metadata.question_text ?? "";
    const systemLines = transcript.split("\n").filter((line) => line.includes(":system:"));
    expect(systemLines).toEqual(["[qwen:system:text] P", "[other:system:text] P", "[other:system:text] Q"]);
    expect(transcript.split("\n").slice(0, 3)).toEqual([
      "[qwen:system:text] P",
      "[__user__] One?",
      "[qwen:assistant:text] A1.",
    ]);
  });

  test("Q5 fixed: after an identity change without handover the turn gets no earlier system message and sends its own prompt", async () => {
    const voices = await startOpenAiServer([
      { match: { model: "solver" }, reply: { text: "Canberra [v1]." }, repeat: true },
      { match: { model: "other" }, reply: { text: "Canberra [v2]." }, repeat: true },
      { match: { model: "judge" }, reply: { json: { city: "Canberra" } }, repeat: true },
    ]);
    try {
      const scenario = new Scenario("voices")
        .addNode("first", { ...node("First question?"), agentIdentity: "a" })
        .addNode("second", {
          ...node("Second question?"),
          agentIdentity: "b",
          modelOverride: {
            answering_model: { ...endpoint("other", voices.baseURL), system_prompt: "You are B." },
          },
        })
        .addEdge("first", "second")
        .addEdge("second", END)
        .setEntry("first")
        .validate();
      const { execution } = await run(
        scenario,
        config({
          answering_models: [endpoint("solver", voices.baseURL, { system_prompt: "You are A." })],
          parsing_models: [endpoint("judge", voices.baseURL)],
        }),
      );
      expect(execution?.status).toBe("completed");
      const request = voices.requests.find((r) => r.body.model === "other");
      const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
      expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
      expect(JSON.stringify(messages[0]?.content)).toContain("You are B.");
      expect(JSON.stringify(messages)).not.toContain("You are A.");
    } finally {
      await voices.close();
    }
  });
});
