/**
 * `karenina verify --record DIR` / `--replay-recordings DIR`: an agentic run (a tool-loop agent fixing a file in
 * its workspace, an agentic judge reading it) recorded live over real HTTP to the scripted OpenAI-compatible
 * server on 127.0.0.1, then replayed through the CLI with the models pointing at a port nothing listens on
 * and no key. Every scripted turn is hand-written test data (agentic/__fixtures__/sum-project.ts).
 */
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  FINAL_ANSWER,
  SUM_PROJECT,
  SUM_QUESTION,
  scriptAnswerer,
  scriptJudge,
  TESTS_PASS_TEMPLATE,
} from "../agentic/__fixtures__/sum-project.js";
import { Benchmark } from "../benchmark/index.js";
import { deadEndpoint, dirPerTest, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";

const server = serverPerTest(startOpenAiServer);
const dir = dirPerTest("karenina-cli-recordings-");
afterEach(() => {
  vi.restoreAllMocks();
});

/** A one-question checkpoint: fix sum.js in the `sum-project` workspace (under `<dir>/ws`). */
async function checkpoint(question = SUM_QUESTION, name = "bench.jsonld"): Promise<string> {
  const bench = Benchmark.create({ name: "cli-recordings" });
  bench.addQuestion(question, "node sum.test.js passes", {
    questionId: "fix-sum",
    answerTemplate: TESTS_PASS_TEMPLATE,
    workspacePath: "sum-project",
  });
  const file = join(dir(), name);
  await bench.save(file);
  await cp(SUM_PROJECT, join(dir(), "ws", "sum-project"), { recursive: true });
  return file;
}

const agentic = () => ["--workspace-root", join(dir(), "ws"), "--agentic-parsing"];
const recordings = () => join(dir(), "recordings");

async function firstResult(file: string) {
  const [line] = (await readFile(file, "utf8")).split("\n");
  return JSON.parse(line as string);
}

/** Records the agentic run live into {@link recordings}; returns its result. */
async function recordLive(file: string) {
  scriptAnswerer(server);
  scriptJudge(server);
  const log = join(dir(), "live.jsonl");
  const live = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, file, ...agentic(), "--record", recordings(), "-o", log),
  );
  expect(live.code, live.err).toBe(EXIT.ok);
  return firstResult(log);
}

describe("karenina verify --record, then --replay-recordings", () => {
  test("an agentic run recorded live replays with no key and no network: the same verdict, trace and tool calls", async () => {
    const file = await checkpoint();
    const live = await recordLive(file);
    expect(live.template.verify_result).toBe(true);
    const files = await readdir(recordings());
    expect(files.length).toBeGreaterThanOrEqual(3);
    const liveRequests = server.requests.length;

    const fetches = vi.spyOn(globalThis, "fetch");
    const offline = join(dir(), "offline.jsonl");
    const replay = await runKarenina(
      ...scriptedVerifyArgs(await deadEndpoint(), file, ...agentic(), "--replay-recordings", recordings()),
      "-o",
      offline,
    );
    expect(replay.code, replay.err).toBe(EXIT.ok);
    expect(fetches).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(liveRequests);
    expect(replay.err).toMatch(
      /1\/1 done · 1 passed, 0 failed · 0 LLM calls \(\d+ replayed from recordings\)/,
    );
    const result = await firstResult(offline);
    expect(result.metadata.failure).toBeNull();
    for (const field of [
      "verify_result",
      "parsed_llm_response",
      "raw_llm_response",
      "trace_messages",
      "investigation_trace",
      "agent_metrics",
    ]) {
      expect(result.template[field], field).toEqual(live.template[field]);
    }
    expect(JSON.stringify(result.template.trace_messages)).toContain('"name":"write_file"');
    expect(result.template.raw_llm_response).toContain(FINAL_ANSWER);
  });

  test("a replay miss fails the question and names it, the call and the request; it says how to re-record", async () => {
    await recordLive(await checkpoint());
    const changed = await checkpoint(
      "Fix the bug in sum.js, then say which line was wrong.",
      "changed.jsonld",
    );
    const fetches = vi.spyOn(globalThis, "fetch");
    const { code, err } = await runKarenina(
      ...scriptedVerifyArgs(await deadEndpoint(), changed, ...agentic(), "--replay-recordings", recordings()),
    );
    expect(fetches).not.toHaveBeenCalled();
    expect(code).toBe(EXIT.checkFailed);
    expect(err).toContain(`1 result failed on a request not in the recordings ${recordings()}:`);
    expect(err).toContain(
      'question fix-sum: no recorded agent run of openai_endpoint:answerer for the request whose last user message is "Fix the bug in sum.js, then say which line was wrong.',
    );
    expect(err).toContain(`Record them with the same command and --record ${recordings()}`);
  });

  test("--run-root: traces/ holds one file per agent result, with the agent's turns and the judge's investigation", async () => {
    const file = await checkpoint();
    const live = await recordLive(file);
    const root = join(dir(), "runs");
    const { code, err } = await runKarenina(
      ...scriptedVerifyArgs(await deadEndpoint(), file, ...agentic(), "--replay-recordings", recordings()),
      "--run-root",
      root,
    );
    expect(code, err).toBe(EXIT.ok);
    const [run] = await readdir(root);
    const traces = join(root, run as string, "traces");
    const names = await readdir(traces);
    expect(names).toEqual([expect.stringMatching(/^fix-sum__[0-9a-f]+\.json$/)]);
    const trace = JSON.parse(await readFile(join(traces, names[0] as string), "utf8"));
    expect(trace).toMatchObject({
      question_id: "fix-sum",
      answering_model: "openai_endpoint:answerer",
      parsing_model: "openai_endpoint:judge",
      answering_agent: {
        trace_messages: live.template.trace_messages,
        agent_metrics: live.template.agent_metrics,
      },
      agentic_judge_investigation: live.template.investigation_trace,
      agentic_trait_investigations: null,
    });
  });

  test("--run-root without agents leaves traces/ empty", async () => {
    const bench = Benchmark.create({ name: "plain" });
    bench.addQuestion("Which drug inhibits BCL2?", "venetoclax", {
      questionId: "q0",
      answerTemplate: TESTS_PASS_TEMPLATE,
    });
    const file = join(dir(), "plain.jsonld");
    await bench.save(file);
    server.script(
      { match: { model: "answerer" }, reply: { text: "The tests pass." } },
      { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
    );
    const root = join(dir(), "runs");
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--run-root", root));
    expect(code, err).toBe(EXIT.ok);
    const [run] = await readdir(root);
    expect(await readdir(join(root, run as string, "traces"))).toEqual([]);
  });
});

test("--dry-run with --replay-recordings says the run would call no model", async () => {
  const file = await checkpoint();
  await recordLive(file);
  const requests = server.requests.length;
  const { code, out, err } = await runKarenina(
    ...scriptedVerifyArgs(await deadEndpoint(), file, ...agentic(), "--replay-recordings", recordings()),
    "--dry-run",
  );
  expect(code, err).toBe(EXIT.ok);
  expect((out + err).replace(/\s+/g, " ")).toContain(
    "--replay-recordings: every call is answered from the recordings, so running it calls no model and costs nothing.",
  );
  expect(server.requests).toHaveLength(requests);
});

describe("recording flags refused", () => {
  const replayWith = async (recordingsDir: string) =>
    runKarenina(
      ...scriptedVerifyArgs(
        await deadEndpoint(),
        await checkpoint(),
        ...agentic(),
        "--replay-recordings",
        recordingsDir,
      ),
    );

  test("--replay-recordings with a missing directory, a file or no recording says to record first", async () => {
    const missing = await replayWith(join(dir(), "nowhere"));
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain(
      `--replay-recordings: ${join(dir(), "nowhere")} does not exist; record the run into it first with --record`,
    );
    await writeFile(join(dir(), "file.json"), "{}");
    const file = await replayWith(join(dir(), "file.json"));
    expect(file.code).toBe(EXIT.usage);
    expect(file.err).toContain("is not a directory");
    await mkdir(join(dir(), "empty"));
    const empty = await replayWith(join(dir(), "empty"));
    expect(empty.code).toBe(EXIT.usage);
    expect(empty.err).toContain(`${join(dir(), "empty")} holds no recording (*.json)`);
    expect(server.requests).toHaveLength(0);
  });

  test.each([
    [
      ["--record", "a", "--replay-recordings", "b"],
      "--record writes recordings and --replay-recordings reads them",
    ],
    [["--record", "a", "--cache", "c"], "--record and --cache both answer calls from files"],
    [["--replay-recordings", "b", "--cache", "c"], "--replay-recordings and --cache both answer calls"],
  ])("%j is a usage error", async (flags, message) => {
    const { code, err } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, await checkpoint(), ...flags),
    );
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(message);
    expect(server.requests).toHaveLength(0);
  });

  test("on the bundled example (no models given) the flags are refused: it replays its own recordings", async () => {
    const { code, err } = await runKarenina("verify", "--record", join(dir(), "r"), "--no-progress");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("--record needs the models to record or replay: give --answering and --parsing");
  });

  test("--help documents both flags with an example", async () => {
    const { out } = await runKarenina("verify", "--help");
    const help = out.replace(/\s+/g, " ");
    expect(help).toContain("--record <dir>");
    expect(help).toContain("--replay-recordings <dir>");
    expect(help).toContain("--agentic-parsing --replay-recordings ./recordings");
  });
});
