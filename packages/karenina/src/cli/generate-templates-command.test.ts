/**
 * `karenina generate-templates` end to end, in-process, against the scripted OpenAI-compatible server. Every
 * model reply is hand-written test data (see authoring/template-generation/__fixtures__).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  drugReplies,
  generationRules,
} from "../authoring/template-generation/__fixtures__/generation-replies.js";
import { Benchmark } from "../benchmark/index.js";
import { runKarenina } from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";

const server = serverPerTest(startOpenAiServer);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-gentemplates-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (i: number) => `Which drug inhibits BCL2? (${i})`;

/** A checkpoint of `count` unfinished questions q0… on the placeholder template. */
async function checkpoint(count: number): Promise<string> {
  const bench = Benchmark.create({ name: "cli gen" });
  for (let i = 0; i < count; i++)
    bench.addQuestion(text(i), `drug-${i}`, { questionId: `q${i}`, finished: false });
  const file = join(dir, "bench.jsonld");
  await bench.save(file);
  return file;
}

const scriptQuestion = (i: number, plan = true) => {
  const replies = drugReplies(`drug-${i}`);
  server.script(...generationRules(text(i), { ...replies, plan: plan ? replies.plan : null }));
};

const generate = (file: string, ...extra: string[]) =>
  runKarenina(
    "generate-templates",
    file,
    "-m",
    `openai_endpoint:writer@${server.baseURL}`,
    "--no-progress",
    ...extra,
  );

describe("karenina generate-templates", () => {
  test("writes the templates in place without marking questions finished; once marked, the checkpoint validates", async () => {
    const file = await checkpoint(2);
    scriptQuestion(0);
    scriptQuestion(1);
    const { code, out, err } = await generate(file);
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^ {2}q0 +generated +1 warning$/m);
    expect(out).toMatch(/^ {2}q1: "drug" is a free-text str field/m);
    expect(err).toMatch(/2 generated, 0 failed · 6 LLM calls · \d+ in \/ \d+ out tokens · wrote /);
    expect(err).toContain("not marked finished");
    expect(err).toContain(`karenina checkpoint finish ${file} --questions all`);
    expect(existsSync(join(dir, "cli_gen_templates_backup.json"))).toBe(false);

    const bench = await Benchmark.load(file);
    expect(bench.getTemplate("q1")).toContain("ground_truth='drug-1'");
    expect(bench.isFinished("q0") || bench.isFinished("q1")).toBe(false);
    expect((await runKarenina("checkpoint", "validate", file)).code).toBe(EXIT.checkFailed);

    expect((await runKarenina("checkpoint", "finish", file, "--questions", "all")).code).toBe(EXIT.ok);
    const validate = await runKarenina("checkpoint", "validate", file);
    expect(validate.out).toContain("ready for verification");
    expect(validate.code).toBe(EXIT.ok);
  });

  test("-o writes elsewhere and --questions limits the job; the input is untouched", async () => {
    const file = await checkpoint(2);
    const before = await readFile(file, "utf8");
    const output = join(dir, "out.jsonld");
    scriptQuestion(1);
    const { code } = await generate(file, "-o", output, "--questions", "q1");
    expect(code).toBe(EXIT.ok);
    expect(await readFile(file, "utf8")).toBe(before);
    const bench = await Benchmark.load(output);
    expect(bench.hasTemplate("q1")).toBe(true);
    expect(bench.hasTemplate("q0")).toBe(false);
  });

  test("--no-plan makes two calls per question", async () => {
    const file = await checkpoint(1);
    scriptQuestion(0, false);
    const { code } = await generate(file, "--no-plan");
    expect(code).toBe(EXIT.ok);
    expect(server.requests).toHaveLength(2);
  });

  test("a failed question exits 1 and keeps the backup; the rerun makes no call for the done question", async () => {
    const file = await checkpoint(2);
    const output = join(dir, "out.jsonld");
    scriptQuestion(0);
    server.script({ match: { lastUserIncludes: text(1) }, reply: { status: 404, message: "overloaded" } });
    const first = await generate(file, "-o", output);
    expect(first.code).toBe(EXIT.checkFailed);
    expect(first.out).toMatch(/^ {2}q1 +failed +template generation for .*overloaded/m);
    const backup = join(dir, "cli_gen_templates_backup.json");
    expect(first.err).toContain(`Progress is kept in ${backup}`);
    expect(Object.keys(JSON.parse(await readFile(backup, "utf8")))).toEqual(["q0"]);

    const callsBefore = server.requests.length;
    scriptQuestion(1);
    const second = await generate(file, "-o", output);
    expect(second.code).toBe(EXIT.ok);
    expect(second.out).toMatch(/^ {2}q0 +restored +from the backup$/m);
    const rerun = server.requests.slice(callsBefore);
    expect(rerun).toHaveLength(3);
    expect(rerun.some((r) => JSON.stringify(r.body).includes(text(0)))).toBe(false);
    expect(existsSync(backup)).toBe(false);
  });

  test("when every question fails, no backup is announced or left, and each failure reason is shown in full", async () => {
    const file = await checkpoint(1);
    const reason = `overloaded: ${"the scripted server explains at length why it cannot answer now; ".repeat(4)}end of reason`;
    server.script({ match: { lastUserIncludes: text(0) }, reply: { status: 404, message: reason } });
    const { code, out, err } = await generate(file);
    expect(code).toBe(EXIT.checkFailed);
    expect(out).toMatch(/^ {2}q0 +failed +template generation for /m);
    expect(out).toContain("failures:");
    expect(out).toContain("end of reason");
    const backup = join(dir, "cli_gen_templates_backup.json");
    expect(existsSync(backup)).toBe(false);
    expect(err).not.toContain(backup);
    expect(err).toContain(
      "No template was generated, so there is no progress to keep: run the same command again to retry",
    );
  });

  test("questions that already have a template are skipped and the checkpoint is left as it was", async () => {
    const file = await checkpoint(1);
    scriptQuestion(0);
    expect((await generate(file)).code).toBe(EXIT.ok);
    const before = await readFile(file, "utf8");
    const again = await generate(file);
    expect(again.code).toBe(EXIT.ok);
    expect(again.out).toMatch(/^ {2}q0 +skipped +already has a template$/m);
    expect(again.err).toContain("checkpoint unchanged");
    expect(await readFile(file, "utf8")).toBe(before);
  });

  test("bad usage exits 2 before any call", async () => {
    const file = await checkpoint(1);
    const manual = await runKarenina("generate-templates", file, "-m", "manual");
    expect(manual.code).toBe(EXIT.usage);
    expect(manual.err).toMatch(/templates need an LLM/);
    const noUrl = await runKarenina("generate-templates", file, "-m", "openai_endpoint:writer");
    expect(noUrl.code).toBe(EXIT.usage);
    const unknown = await generate(file, "--questions", "q9");
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.err).toContain("q9");
    expect(server.requests).toHaveLength(0);
  });

  test("--help shows the model SPEC and examples", async () => {
    const { code, out } = await runKarenina("generate-templates", "--help");
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("-m, --model <spec>");
    expect(out).toContain("karenina generate-templates bench.jsonld -m openai:gpt-4.1-mini");
  });
});
