/**
 * `karenina verify` never verifies zero questions in silence: drafts, questions without a template and
 * questions whose template does not load are counted, named and given the command that brings them in. Runs
 * go to the scripted OpenAI server on 127.0.0.1 (hand-written test replies, not output of any model).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../test-support/pipeline-context.js";
import { EXIT } from "./cli-io.js";

let server: OpenAiTestServer;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-skipped-"));
  server = await startOpenAiServer([
    { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** `questions` drug questions q0, q1, ..., every one a draft (as `import` without `--finished` leaves them). */
async function draftCheckpoint(questions: number): Promise<string> {
  const bench = drugBenchmark(questions, "drafts");
  bench.markUnfinishedBatch(bench.getQuestionIds());
  const file = join(dir, "drafts.jsonld");
  await bench.save(file);
  return file;
}

const BROKEN_TEMPLATE = "class Answer(BaseAnswer):\n    def verify(self) return True\n";

/**
 * One question of each kind: `ok` (finished, with a template), `draft`, `placeholder` (finished, on the default
 * placeholder template) and `broken` (finished, a template with a Python syntax error, written into the file
 * as a stranger's checkpoint would hold it).
 */
async function mixedCheckpoint(): Promise<string> {
  const bench = Benchmark.create({ name: "mixed" });
  const add = (id: string, options: { answerTemplate?: string; finished?: boolean }) =>
    bench.addQuestion(`Which drug inhibits BCL2? (${id})`, "venetoclax", { questionId: id, ...options });
  add("ok", { answerTemplate: DRUG_TEMPLATE });
  add("draft", { answerTemplate: DRUG_TEMPLATE, finished: false });
  add("placeholder", {});
  add("broken", { answerTemplate: DRUG_TEMPLATE });
  const file = join(dir, "mixed.jsonld");
  await bench.save(file);
  const doc = JSON.parse(await readFile(file, "utf8"));
  const broken = doc.dataFeedElement.find((element: { item: { text: string } }) =>
    element.item.text.endsWith("(broken)"),
  );
  broken.item.hasPart.text = BROKEN_TEMPLATE;
  await writeFile(file, JSON.stringify(doc, null, 2));
  return file;
}

const chatRequests = () => server.requests.filter((request) => request.path.endsWith("/chat/completions"));

describe("karenina verify: drafts", () => {
  test("the dry run of a file of drafts says why nothing would run, with the command that finishes them", async () => {
    const file = await draftCheckpoint(4);
    const { code, out } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--dry-run"));
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^ {2}tasks +0 {2}\(0 questions × 1 model pair × 1 replicate\)$/m);
    expect(out).toContain(
      "Nothing to verify: no question would run, so the real run would stop with exit code 2.",
    );
    expect(out).toContain("4 questions skipped:\n  4 drafts (not finished): q0, q1, q2 and 1 more\n");
    expect(out).toContain(
      `    to verify them: karenina checkpoint finish ${file} --questions all   (or verify with --include-drafts)`,
    );
    expect(server.requests).toHaveLength(0);
  });

  test("the model pairs of the plan are the config's, even when no question would run", async () => {
    const file = await draftCheckpoint(1);
    const twoJudges = scriptedVerifyArgs(
      server.baseURL,
      file,
      "-p",
      `openai_endpoint:judge2@${server.baseURL}`,
    );
    const { out } = await runKarenina(...twoJudges, "--dry-run", "--json");
    const plan = JSON.parse(out);
    expect(plan).toMatchObject({ tasks: 0, questions: 0, modelPairs: 2 });
    expect(plan.skippedQuestions).toEqual([{ id: "q0", reason: "draft" }]);
  });

  test("a run of drafts only stops with exit 2 before any call, and says how to finish them", async () => {
    const file = await draftCheckpoint(2);
    const { code, out, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file));
    expect(code).toBe(EXIT.usage);
    expect(out).toBe("");
    expect(err).toContain(`error: nothing to verify in ${file}: every question is left out.`);
    expect(err).toContain("2 drafts (not finished): q0, q1");
    expect(err).toContain(`karenina checkpoint finish ${file} --questions all`);
    expect(server.requests).toHaveLength(0);
  });

  test("-q of a draft names it as a draft instead of running zero tasks", async () => {
    const file = await draftCheckpoint(2);
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "-q", "q1"));
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("1 draft (not finished): q1");
    expect(err).toContain(`karenina checkpoint finish ${file} --questions q1`);
    expect(err).not.toContain("q0");
  });

  test("--include-drafts verifies the drafts too", async () => {
    const file = await draftCheckpoint(2);
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--include-drafts"));
    expect(code, err).toBe(EXIT.ok);
    expect(err).toMatch(/2\/2 done · 2 passed, 0 failed/);
    expect(err).not.toMatch(/questions? skipped/);
    expect(chatRequests()).toHaveLength(4);
  });

  test("the README's path: import, then verify says to finish; finish; then verify runs", async () => {
    const file = await draftCheckpoint(2);
    const before = await runKarenina(...scriptedVerifyArgs(server.baseURL, file));
    expect(before.code).toBe(EXIT.usage);
    const finish = await runKarenina("checkpoint", "finish", file, "--questions", "all");
    expect(finish.code).toBe(EXIT.ok);
    const after = await runKarenina(...scriptedVerifyArgs(server.baseURL, file));
    expect(after.code, after.err).toBe(EXIT.ok);
    expect(after.err).toMatch(/2\/2 done · 2 passed/);
  });
});

describe("karenina verify: questions without a usable template", () => {
  test("a mixed checkpoint runs what it can and lists the rest, each with its reason and its fix", async () => {
    const file = await mixedCheckpoint();
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file));
    expect(code, err).toBe(EXIT.ok);
    expect(err).toContain("3 questions skipped:\n");
    expect(err).toContain("  1 draft (not finished): draft\n");
    expect(err).toContain(
      "  1 question without a template (1 on the default placeholder, which always fails): placeholder\n",
    );
    expect(err).toContain(`    to write them: karenina generate-templates ${file} -m SPEC\n`);
    expect(err).toContain("  1 question whose template does not load:\n    broken: ");
    expect(err).toContain("expected ':'");
    expect(err).toContain(`karenina checkpoint unfinish ${file} --questions broken`);
    expect(err).toMatch(
      /1\/1 done · 1 passed, 0 failed .* · 3 questions skipped \(1 draft, 1 without a template, 1 with an invalid template\)/,
    );
    // Only the usable question was asked.
    expect(chatRequests().every((request) => JSON.stringify(request.body).includes("(ok)"))).toBe(true);

    const dry = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--dry-run", "--json"));
    expect(
      JSON.parse(dry.out).skippedQuestions.map((s: { id: string; reason: string }) => [s.id, s.reason]),
    ).toEqual([
      ["draft", "draft"],
      ["placeholder", "no_template"],
      ["broken", "invalid_template"],
    ]);
  }, 60_000);

  test("in rubric_only mode a question needs no template, so none is skipped for lacking one", async () => {
    const bench = Benchmark.create({ name: "rubric" });
    bench.addQuestion("Which drug inhibits BCL2? (r)", "venetoclax", { questionId: "r" });
    const file = join(dir, "rubric.jsonld");
    await bench.save(file);
    const { code, out } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "--mode", "rubric_only", "--dry-run"),
    );
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^ {2}tasks +1 /m);
    expect(out).not.toMatch(/questions? skipped/);
  });
});
