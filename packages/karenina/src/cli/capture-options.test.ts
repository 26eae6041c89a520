/**
 * `karenina verify --capture-workspaces`: workspaces captured through the command line. Models answer from the
 * scripted OpenAI-compatible server on 127.0.0.1; every scripted turn is hand-written test data.
 */
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { SUM_PROJECT, TESTS_PASS_TEMPLATE } from "../agentic/__fixtures__/sum-project.js";
import { Benchmark } from "../benchmark/index.js";
import { runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";

const server = serverPerTest(startOpenAiServer);
let dir = "";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-capture-"));
  await cp(SUM_PROJECT, join(dir, "workspaces", "sum-project"), { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function checkpoint(): Promise<string> {
  const bench = Benchmark.create({ name: "cli-capture" });
  bench.addQuestion("Fix the bug in sum.js.", "it passes", {
    questionId: "fix-sum",
    answerTemplate: TESTS_PASS_TEMPLATE,
    workspacePath: "sum-project",
  });
  const file = join(dir, "bench.jsonld");
  await bench.save(file);
  return file;
}

test("spec 05 §12.8 verify --capture-workspaces produced --capture-dir writes the capture and manifest.json", async () => {
  server.script(
    {
      match: { model: "answerer" },
      reply: { toolCalls: [{ name: "write_file", arguments: { path: "out.txt", content: "done\n" } }] },
    },
    { match: { model: "answerer" }, reply: { text: "Done." } },
    { match: { model: "judge" }, reply: { text: '{"tests_pass": true}' } },
    { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
  );
  const captures = join(dir, "captures");
  const { code, err } = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, await checkpoint(), "--workspace-root", join(dir, "workspaces")),
    "--agentic-parsing",
    "--capture-workspaces",
    "produced",
    "--capture-dir",
    captures,
    "--capture-exclude",
    "*.log",
  );
  expect(err).toContain("1 passed");
  expect(code).toBe(EXIT.ok);
  const [row] = JSON.parse(await readFile(join(captures, "manifest.json"), "utf8"));
  expect(row).toMatchObject({
    question_id: "fix-sum",
    capture_mode: "produced",
    status: "captured",
    copied_file_count: 1,
  });
  expect(await readdir(row.destination)).toEqual(["out.txt"]);
});

test("spec 05 §12.8 verify refuses a capture mode without --capture-dir, and --capture-exclude for a full capture", async () => {
  const file = await checkpoint();
  const noDir = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, file, "--capture-workspaces", "full"),
  );
  expect(noDir.code).toBe(EXIT.usage);
  expect(noDir.err).toContain("--capture-workspaces full needs --capture-dir DIR");
  const fullExclude = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, file, "--capture-workspaces", "full", "--capture-dir", dir),
    "--capture-exclude",
    "*.log",
  );
  expect(fullExclude.code).toBe(EXIT.usage);
  expect(fullExclude.err).toContain("--capture-exclude applies to produced captures only");
  expect(server.requests).toEqual([]);
});
