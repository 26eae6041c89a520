/**
 * The sum-project fix task end to end with the answering agent's commands in a bubblewrap container: every
 * model turn goes over real HTTP to the scripted OpenAI-compatible server on 127.0.0.1 (the scripted turns
 * are hand-written test data). The agent's escape attempts come back as tool results and the task goes on.
 */

import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { parseVerificationConfig } from "../../pipeline/index.js";
import type { VerificationResult } from "../../results/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { endpointModel, FAST_RETRIES } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import {
  FINAL_ANSWER,
  FIXED_SUM,
  SUM_PROJECT,
  SUM_QUESTION,
  scriptJudge,
  TESTS_PASS_TEMPLATE,
} from "../__fixtures__/sum-project.js";
import { onPath } from "./bubblewrap.js";

const hasBwrap = onPath("bwrap") !== null;
const SKIP = hasBwrap ? "" : " (skipped: no bwrap on PATH; .ci/run installs bubblewrap)";

const server = serverPerTest(startOpenAiServer);
let root = "";
let listener: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.on("error", () => undefined);
    socket.end();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "karenina-container-e2e-"));
  await cp(SUM_PROJECT, join(root, "sum-project"), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const command = (name: string, ...args: string[]) => ({
  match: { model: "answerer" },
  reply: { toolCalls: [{ name: "run_command", arguments: { command: name, args } }] },
});

function benchmark(): Benchmark {
  const bench = Benchmark.create({ name: "container-e2e" });
  bench.addQuestion(SUM_QUESTION, "node sum.test.js passes", {
    questionId: "fix-sum",
    answerTemplate: TESTS_PASS_TEMPLATE,
    workspacePath: "sum-project",
  });
  return bench;
}

async function verify(agentRuntime: Record<string, unknown> | null): Promise<VerificationResult> {
  const config = parseVerificationConfig({
    answering_models: [{ ...endpointModel(server.baseURL, "answerer"), agent_runtime: agentRuntime }],
    parsing_models: [endpointModel(server.baseURL, "judge")],
    retry_policy: FAST_RETRIES,
    agentic_parsing: true,
  });
  const run = await benchmark().runVerification(config, { workspaceRoot: root, agentCommands: true });
  return run.results[0] as VerificationResult;
}

/** The tool results the answering model was sent, as JSON text. */
const answererSaw = () =>
  JSON.stringify(server.requests.filter((request) => request.body.model === "answerer").at(-1)?.body);

describe.skipIf(!hasBwrap)(`the sum-project fix task with commands in bubblewrap${SKIP}`, () => {
  test("escape attempts are contained with readable tool results, the fix is made and its test passes inside", async () => {
    const before = connections;
    server.script(
      command("cat", "/etc/shadow"),
      command(
        "node",
        "-e",
        `require("net").connect(${port}, "127.0.0.1").on("connect", () => process.exit(0)).on("error", (e) => { console.error(e.code); process.exit(3); })`,
      ),
      command("sh", "-c", "f() { f | f & }; f; sleep 2; echo done"),
      command("node", "sum.test.js"),
      {
        match: { model: "answerer" },
        reply: { toolCalls: [{ name: "write_file", arguments: { path: "sum.js", content: FIXED_SUM } }] },
      },
      command("node", "sum.test.js"),
      { match: { model: "answerer" }, reply: { text: FINAL_ANSWER } },
    );
    scriptJudge(server);
    const result = await verify({ container_max_processes: 32 });
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.verify_result).toBe(true);
    const seen = answererSaw();
    expect(seen).toContain("/etc/shadow: No such file or directory");
    expect(seen).toContain("ECONNREFUSED");
    expect(seen).toMatch(/could not start more processes|time limit/);
    expect(seen).toContain("bubblewrap container");
    // The unfixed test failed inside (exit 1), the fixed one passed (exit 0).
    expect(seen).toContain("sum([1,2,3]) = 5, expected 6");
    expect(seen).toContain("all tests pass");
    expect(connections).toBe(before);
    expect(await readFile(join(root, "sum-project", "sum.js"), "utf8")).not.toBe(FIXED_SUM);
  }, 60_000);

  test("a container runtime we do not have fails the task with a clear error before any model call", async () => {
    const result = await verify({ backend: "container", container_runtime: "singularity" });
    expect(result.metadata.failure?.reason).toContain(
      "container backend singularity is unavailable: karenina has no Singularity backend",
    );
    expect(server.requests.filter((request) => request.body.model === "answerer")).toHaveLength(0);
  });

  test("the host backend, asked for by name (local_shell), runs commands unconfined", async () => {
    const secret = join(root, "beside.txt");
    await cp(join(root, "sum-project", "sum.js"), secret);
    server.script(command("cat", secret), { match: { model: "answerer" }, reply: { text: "read it" } });
    scriptJudge(server, "judge", false);
    await verify({ backend: "local_shell" });
    expect(answererSaw()).toContain("function sum");
    expect(answererSaw()).toContain("runs on the host");
  });
});
