import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { parseVerificationConfig } from "../pipeline/index.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { endpointModel } from "../test-support/pipeline-context.js";
import { EXIT } from "./cli-io.js";

const run = runKarenina;

let server: OpenAiTestServer;
let dir: string;

const benchmark = (questions: number) => drugBenchmark(questions, "cli-status");

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-status-"));
  // Hand-written test replies, not output of any model: question 2 gets a wrong answer, the others a right one.
  server = await startOpenAiServer([
    { match: { model: "answerer", lastUserIncludes: "(2)" }, reply: { text: "Navitoclax." }, repeat: true },
    { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs: 20 }, repeat: true },
    {
      match: { model: "judge", lastUserIncludes: "Navitoclax" },
      reply: { json: { drug: "navitoclax" } },
      repeat: true,
    },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("karenina status", () => {
  test("a finished run shows its counts, and its state file holds no API key", async () => {
    const file = join(dir, "bench.jsonld");
    await benchmark(3).save(file);
    const log = join(dir, "run.jsonl");
    vi.stubEnv("KARENINA_STATUS_TEST_KEY", "test-key");
    const verify = await run(
      ...scriptedVerifyArgs(
        server.baseURL,
        file,
        "--endpoint-key-env",
        "KARENINA_STATUS_TEST_KEY",
        "-o",
        log,
      ),
    );
    expect(verify.code).toBe(EXIT.ok);
    expect(server.requests.some((r) => r.headers.authorization === "Bearer test-key")).toBe(true);
    const stateText = await readFile(`${log}.state.json`, "utf8");
    expect(stateText).not.toContain("test-key");
    expect(JSON.parse(stateText)).toMatchObject({ finished: true, aborted: false, total_tasks: 3 });

    const text = await run("status", log);
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toContain("done: 3/3 (100%)");
    expect(text.out).toContain("passed: 2");
    expect(text.out).toContain("failed: 1 (content 1)");
    expect(text.out).toContain("status: finished");
    expect(text.out).not.toContain("--resume");

    const json = await run("status", log, "--json");
    expect(JSON.parse(json.out)).toMatchObject({
      done: 3,
      total: 3,
      percent: 100,
      passed: 2,
      failed: 1,
      failed_by_category: { content: 1 },
      resumed: 0,
      status: "finished",
      torn_lines: 0,
      resume_hint: null,
    });
  });

  test("an interrupted run shows interrupted and how to resume", async () => {
    const log = join(dir, "run.jsonl");
    const controller = new AbortController();
    const config = parseVerificationConfig({
      answering_models: [endpointModel(server.baseURL, "answerer")],
      parsing_models: [endpointModel(server.baseURL, "judge")],
      async_enabled: false,
    });
    const first = await benchmark(6).runVerification(config, {
      output: log,
      runName: "nightly",
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === "result" && event.done === 2) controller.abort();
      },
    });
    expect(first.summary.aborted).toBe(true);
    expect(await readFile(`${log}.state.json`, "utf8")).not.toContain("test-key");

    const text = await run("status", log);
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toContain("run: nightly");
    expect(text.out).toContain("done: 2/6 (33.3%)");
    expect(text.out).toContain("status: interrupted");
    expect(text.out).toContain(`resume with: karenina verify ... -o ${log} --resume`);
    const json = JSON.parse((await run("status", log, "--json")).out);
    expect(json).toMatchObject({ run_name: "nightly", done: 2, total: 6, status: "interrupted" });
  });

  test("without a state file the log alone is shown and the total is unknown; torn lines are counted", async () => {
    const log = join(dir, "run.jsonl");
    const file = join(dir, "bench.jsonld");
    await benchmark(2).save(file);
    await run(...scriptedVerifyArgs(server.baseURL, file, "-o", log));
    await rm(`${log}.state.json`);
    await writeFile(log, `${await readFile(log, "utf8")}{"metadata":{"quest`, "utf8");
    const text = await run("status", log);
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toContain("done: 2 (total unknown");
    expect(text.out).toContain("1 torn lines skipped");
    expect(text.out).toContain("status: unknown");
    expect(JSON.parse((await run("status", log, "--json")).out)).toMatchObject({
      done: 2,
      total: null,
      percent: null,
      state_file: null,
      torn_lines: 1,
    });
  });

  test("a missing run log is an error naming the file (exit 2)", async () => {
    const log = join(dir, "nothing.jsonl");
    const result = await run("status", log);
    expect(result.code).toBe(EXIT.usage);
    expect(result.err).toContain(`${log}: no such run log`);
  });

  test("a file that is not a run log is refused with what it is instead (exit 2)", async () => {
    const file = join(dir, "bench.jsonld");
    await benchmark(2).save(file);
    const exported = join(dir, "run.json");
    expect((await run(...scriptedVerifyArgs(server.baseURL, file, "-o", exported))).code).toBe(EXIT.ok);
    const asExport = await run("status", exported);
    expect(asExport.code).toBe(EXIT.usage);
    expect(asExport.err).toContain(`${exported}: not a run log: a results export (JSON)`);
    expect(asExport.err).toContain(`karenina results ${exported}`);
    expect(asExport.out).toBe("");

    const random = join(dir, "random.json");
    await writeFile(random, `${JSON.stringify({ hello: "world", items: [1, 2, 3] }, null, 2)}\n`, "utf8");
    const asRandom = await run("status", random);
    expect(asRandom.code).toBe(EXIT.usage);
    expect(asRandom.err).toContain(`${random}: not a run log: a JSON document`);

    const lines = join(dir, "lines.jsonl");
    await writeFile(lines, '{"a":1}\n{"b":2}\n', "utf8");
    const asLines = await run("status", lines);
    expect(asLines.code).toBe(EXIT.usage);
    expect(asLines.err).toContain("none of its 2 lines is a verification result");

    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, "", "utf8");
    const asEmpty = await run("status", empty);
    expect(asEmpty.code).toBe(EXIT.usage);
    expect(asEmpty.err).toContain(`${empty}: not a run log: the file is empty and has no state file`);
  });

  test("an empty run log with its state file is a run that has no result yet", async () => {
    const log = join(dir, "run.jsonl");
    await writeFile(log, "", "utf8");
    const now = new Date().toISOString();
    await writeFile(
      `${log}.state.json`,
      JSON.stringify({
        format: "karenina-run-state/1",
        run_name: "just-started",
        total_tasks: 4,
        resumed: 0,
        started_at: now,
        updated_at: now,
        finished: false,
        aborted: false,
        config: {},
      }),
      "utf8",
    );
    const result = await run("status", log);
    expect(result.code).toBe(EXIT.ok);
    expect(result.out).toContain("done: 0/4 (0%)");
  });

  test("a state file that is not valid is an error naming the file and field (exit 2)", async () => {
    const log = join(dir, "run.jsonl");
    await writeFile(log, "", "utf8");
    await writeFile(`${log}.state.json`, JSON.stringify({ format: "karenina-run-state/1" }), "utf8");
    const result = await run("status", log);
    expect(result.code).toBe(EXIT.usage);
    expect(result.err).toContain(`${log}.state.json: invalid run state`);
    expect(result.err).toContain("total_tasks:");
  });
});
