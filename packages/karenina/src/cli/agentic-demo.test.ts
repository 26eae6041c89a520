/**
 * The bundled agentic example offline, through the CLI, with no key and models that cannot be reached:
 * `karenina demo --agentic`, and the same run spelled out with `karenina verify ... --replay-recordings`.
 * Live, `karenina demo --agentic --ollama URL` runs the agent against the scripted OpenAI-compatible server
 * on 127.0.0.1 (hand-written replies) in a scratch copy of the workspaces.
 */
import { cp, readdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import type { VerificationResult } from "../results/index.js";
import {
  deadEndpoint,
  runKarenina,
  runLogResults,
  scratchWorkingDir,
  withoutProviderKeys,
} from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import {
  AGENTIC_DEMO_CHECKPOINT,
  AGENTIC_DEMO_OUTPUT,
  AGENTIC_DEMO_RECORDINGS,
  AGENTIC_DEMO_WORKSPACES,
} from "./agentic-demo.js";
import { EXIT } from "./cli-io.js";

const scratch = scratchWorkingDir("karenina-agentic-demo-test-");
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** What the example's two tasks come to: the verdict, the judge's finding and the trait's score. */
function verdicts(results: readonly VerificationResult[]) {
  return Object.fromEntries(
    results.map((result) => [
      result.metadata.question_id,
      {
        failure: result.metadata.failure?.category ?? null,
        verify_result: result.template?.verify_result,
        parsed: result.template?.parsed_llm_response,
        agentic_parsing: result.template?.agentic_parsing_performed,
        fix_quality: result.rubric?.agentic_trait_scores?.fix_quality,
      },
    ]),
  );
}

const EXPECTED = {
  "fix-sum": {
    failure: null,
    verify_result: true,
    parsed: { tests_pass: true },
    agentic_parsing: true,
    fix_quality: 5,
  },
  "fix-median": {
    failure: "content",
    verify_result: false,
    parsed: { tests_pass: false },
    agentic_parsing: true,
    fix_quality: 2,
  },
};

/** The tools the answering agent called, in order. */
const toolsCalled = (result: VerificationResult | undefined) =>
  (result?.template?.trace_messages ?? []).flatMap((message) =>
    ((message.tool_calls ?? []) as { name?: string }[]).map((call) => call.name),
  );

/** Every file of a directory tree with its contents, to show that nothing was changed. */
async function treeContents(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(root, { recursive: true })) {
    const path = join(root, name);
    if ((await stat(path)).isFile()) files[name] = await readFile(path, "utf8");
  }
  return files;
}

describe("karenina demo --agentic, offline", () => {
  test("replays the hand-written agent runs with no key and no network: one fix passes, one fails", async () => {
    withoutProviderKeys();
    const before = await treeContents(AGENTIC_DEMO_WORKSPACES);
    const fetches = vi.spyOn(globalThis, "fetch");
    const { code, out, err } = await runKarenina("demo", "--agentic", "--no-progress");
    expect(code, err).toBe(EXIT.ok);
    expect(fetches).not.toHaveBeenCalled();
    expect(err).toContain("Mode: offline");
    expect(err).toContain("WRITTEN BY HAND for this demo, not produced");
    expect(err).toMatch(/2\/2 done · 1 passed, 1 failed · 0 LLM calls \(22 replayed from recordings\)/);
    expect(out).toContain("agentic demo run (offline, hand-written example responses)");
    expect(out).toMatch(/fix_quality\s+agentic\s+global\s+2\s+mean 3\.50, min 2, max 5/);
    const results = await runLogResults(join(scratch(), AGENTIC_DEMO_OUTPUT));
    expect(verdicts(results)).toEqual(EXPECTED);
    const sum = results.find((result) => result.metadata.question_id === "fix-sum");
    expect(toolsCalled(sum)).toEqual(["list_files", "read_file", "write_file"]);
    expect(sum?.template?.investigation_trace).toContain("every case of run-tests.mjs holds");
    expect(await treeContents(AGENTIC_DEMO_WORKSPACES)).toEqual(before);
  }, 60_000);

  test("karenina verify with --replay-recordings gives the same verdicts from the example's recordings", async () => {
    withoutProviderKeys();
    const workspaces = join(scratch(), "workspaces");
    await cp(AGENTIC_DEMO_WORKSPACES, workspaces, { recursive: true });
    const nowhere = await deadEndpoint();
    const fetches = vi.spyOn(globalThis, "fetch");
    const output = join(scratch(), "verify.jsonl");
    const { code, err } = await runKarenina(
      "verify",
      AGENTIC_DEMO_CHECKPOINT,
      "-a",
      `openai_endpoint:handwritten-agent@${nowhere}`,
      "-p",
      `openai_endpoint:handwritten-judge@${nowhere}`,
      "--mode",
      "template_and_rubric",
      "--agentic-parsing",
      "--workspace-root",
      workspaces,
      "--replay-recordings",
      AGENTIC_DEMO_RECORDINGS,
      "-o",
      output,
      "--no-progress",
    );
    expect(code, err).toBe(EXIT.ok);
    expect(fetches).not.toHaveBeenCalled();
    expect(verdicts(await runLogResults(output))).toEqual(EXPECTED);
    // The working copies made under the root are removed after the run.
    expect((await readdir(workspaces)).sort()).toEqual(["median-project", "sum-project"]);
  }, 60_000);
});

describe("karenina demo --agentic, live", () => {
  let server: OpenAiTestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  test("--ollama URL: the model works as an agent in a scratch copy of each workspace, removed afterwards", async () => {
    // Hand-written test replies, not output of any model.
    server = await startOpenAiServer([
      {
        match: { lastUserIncludes: "Investigation report" },
        reply: { json: { tests_pass: true } },
        repeat: true,
      },
      { match: { lastUserIncludes: "Evaluation report" }, reply: { json: { score: 3 } }, repeat: true },
      { reply: { text: "Hand-written test reply." }, repeat: true },
    ]);
    withoutProviderKeys();
    const { code, err } = await runKarenina(
      "demo",
      "--agentic",
      "--ollama",
      server.url,
      "--model",
      "tiny",
      "--no-progress",
      "-o",
      "live.jsonl",
    );
    expect(code, err).toBe(EXIT.ok);
    expect(err).toContain(`Mode: live (--ollama ${server.url}). openai_endpoint:tiny@${server.url} works on`);
    const workspaces = server.requests
      .map((request) => JSON.stringify(request.body.messages))
      .map((text) => /Your workspace is the directory (.+?)\. Any input/.exec(text)?.[1])
      .filter((path): path is string => path !== undefined);
    expect(workspaces).toHaveLength(2);
    for (const workspace of workspaces) {
      expect(workspace.startsWith(AGENTIC_DEMO_WORKSPACES)).toBe(false);
      await expect(stat(dirname(workspace))).rejects.toThrow();
    }
    const results = await runLogResults(join(scratch(), "live.jsonl"));
    expect(results.map((result) => result.metadata.answering.model_name)).toEqual(["tiny", "tiny"]);
  }, 60_000);
});

test("demo --help describes --agentic and the verify command that replays recordings", async () => {
  const { code, out } = await runKarenina("demo", "--help");
  expect(code).toBe(EXIT.ok);
  const help = out.replace(/\s+/g, " ");
  expect(help).toContain("--agentic");
  expect(help).toContain("karenina demo --agentic # the agentic demo, offline without a key");
  expect(help).toContain("karenina verify ... --replay-recordings DIR");
});
