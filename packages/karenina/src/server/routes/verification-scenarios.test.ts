import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import {
  ASK,
  PUSH,
  pushbackCheckpoint,
  pushbackConfig,
  pushbackReplies,
} from "../__fixtures__/scenario-benchmark.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import {
  apiClient,
  drugCheckpoint,
  drugConfig,
  drugReplies,
  json,
} from "../__fixtures__/verification-jobs.js";

let llm: OpenAiTestServer;
let server: TestServer;
let api: ReturnType<typeof apiClient>;

describe("a verification job of a scenario benchmark", () => {
  let jobId = "";
  beforeAll(async () => {
    llm = await startOpenAiServer(pushbackReplies());
    server = await startTestServer();
    api = apiClient(server.url, server.token);
    const res = await api.post("/api/v2/verifications", {
      config: pushbackConfig(llm.baseURL),
      checkpoint: pushbackCheckpoint(),
    });
    expect(res.status).toBe(202);
    jobId = (await json(res)).job_id;
    await api.waitForStatus(jobId, "completed");
  });
  afterAll(async () => {
    await server?.close();
    await llm?.close();
  });

  test("runs every execution (a task each) and stores its turn rows", async () => {
    const progress = await json(await api.get(`/api/v2/verifications/${jobId}/progress`));
    expect(progress).toMatchObject({ total: 2, processed: 2, successful: 2, failed: 0 });
    const page = await json(await api.get(`/api/v2/verifications/${jobId}/results`));
    expect(page.total).toBe(4);
    const turns = page.items.map((row: { metadata: Record<string, unknown> }) => [
      row.metadata.scenario_id,
      row.metadata.scenario_node,
    ]);
    expect(turns).toEqual(
      expect.arrayContaining([
        ["pushback", "ask"],
        ["pushback", "push"],
        ["pushback", "explain"],
      ]),
    );
  });

  test("the results response carries scenario_results on its first page: paths, turns and outcomes", async () => {
    const page = await json(await api.get(`/api/v2/verifications/${jobId}/results?fields=summary`));
    const records: { path: string[] }[] = page.scenario_results;
    expect(records).toHaveLength(2);
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the records loosely and asserts on them.
    const byPath: Record<string, any> = Object.fromEntries(
      records.map((record) => [record.path.join(">"), record]),
    );
    expect(byPath["ask>push"]).toMatchObject({
      scenario_id: "pushback",
      status: "completed",
      turn_count: 2,
      outcome_results: { "held-firm": false, completed: true, pushes: 1 },
      terminal_failure: null,
    });
    expect(byPath["ask>push"].history.map((turn: { question_text: string }) => turn.question_text)).toEqual([
      ASK,
      PUSH,
    ]);
    expect(byPath["ask>explain"]).toMatchObject({ turn_count: 2, outcome_results: { pushes: 0 } });
    const second = await json(await api.get(`/api/v2/verifications/${jobId}/results?limit=1&cursor=MQ`));
    expect(second.scenario_results).toBeUndefined();
  });

  test("the scenarios route gives the graph in words, the records and a summary per scenario", async () => {
    const body = await json(await api.get(`/api/v2/verifications/${jobId}/scenarios`));
    expect(body.scenarios).toEqual([
      {
        scenario_id: "pushback",
        description: "Does the model hold a right answer under pushback?",
        entry_node: "ask",
        nodes: [
          { id: "ask", question: ASK, agent_identity: null },
          { id: "push", question: PUSH, agent_identity: null },
          { id: "explain", question: expect.stringContaining("Venetoclax is"), agent_identity: null },
        ],
        edges: [
          { source: "ask", target: "push", condition: "verify_result == True", handover: null },
          { source: "ask", target: "explain", condition: "otherwise", handover: null },
          { source: "push", target: "END", condition: "always", handover: null },
          { source: "explain", target: "END", condition: "always", handover: null },
        ],
        outcomes: [
          expect.objectContaining({ name: "held-firm", check: "every turn at push: verify_result == True" }),
          expect.objectContaining({ name: "completed", check: "result status ExactMatch 'completed'" }),
          expect.objectContaining({ name: "pushes", check: "number of turns at push" }),
        ],
      },
    ]);
    expect(body.scenario_results).toHaveLength(2);
    // The same by the job's stored run, as a results view asks; any other run has none.
    expect(await json(await api.get(`/api/v2/verification-runs/${jobId}/scenarios`))).toEqual(body);
    expect(await json(await api.get("/api/v2/verification-runs/no-such-run/scenarios"))).toEqual({
      scenarios: [],
      scenario_results: [],
      summary: [],
    });
    expect(body.summary).toEqual([
      {
        scenario_id: "pushback",
        executions: 2,
        statuses: { completed: 2 },
        mean_turns: 2,
        outcomes: {
          completed: { kind: "boolean", count: 2, passed: 2, pass_rate: 1 },
          "held-firm": expect.objectContaining({ kind: "boolean", count: 2 }),
          pushes: { kind: "number", count: 2, mean: 0.5, min: 0, max: 1 },
        },
      },
    ]);
  });

  test("the run log keeps each execution's line after its rows; the JSON export has scenario_results", async () => {
    const log = await readFile(
      join(server.deps.workDir, ".karenina", "jobs", jobId, "results.jsonl"),
      "utf8",
    );
    const lines = log
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const kinds = lines.map((line) => ("scenario_execution" in line ? "execution" : "row"));
    expect(kinds).toEqual(["row", "row", "execution", "row", "row", "execution"]);
    const exported = await json(await api.get(`/api/v2/verifications/${jobId}/export?fmt=json`));
    expect(exported.results).toHaveLength(4);
    expect(exported.scenario_results.map((record: { path: string[] }) => record.path).sort()).toEqual([
      ["ask", "explain"],
      ["ask", "push"],
    ]);
  });

  test("a job of questions has no scenarios; question ids are refused for a scenario benchmark", async () => {
    await llm.close();
    llm = await startOpenAiServer(drugReplies());
    const res = await api.post("/api/v2/verifications", {
      config: drugConfig(llm.baseURL),
      checkpoint: drugCheckpoint(1),
    });
    const questions = (await json(res)).job_id;
    await api.waitForStatus(questions, "completed");
    expect(await json(await api.get(`/api/v2/verifications/${questions}/scenarios`))).toEqual({
      scenarios: [],
      scenario_results: [],
      summary: [],
    });
    expect((await json(await api.get(`/api/v2/verifications/${questions}/results`))).scenario_results).toBe(
      undefined,
    );
    const refused = await api.post("/api/v2/verifications", {
      config: pushbackConfig(llm.baseURL),
      checkpoint: pushbackCheckpoint(),
      question_ids: ["ask"],
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await json(refused))).toMatch(/holds scenarios, not questions/);
    expect((await api.get("/api/v2/verifications/no-such-job/scenarios")).status).toBe(404);
  });
});
