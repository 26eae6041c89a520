import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { drugBenchmark, runKarenina } from "../test-support/cli.js";
import { EXIT } from "./cli-io.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-finish-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Drug questions q0, q1, ... as drafts, plus `extra` added to the benchmark before it is saved. */
async function drafts(questions: number, extra?: (bench: Benchmark) => void): Promise<string> {
  const bench = drugBenchmark(questions, "finish");
  bench.markUnfinishedBatch(bench.getQuestionIds());
  extra?.(bench);
  const file = join(dir, "bench.jsonld");
  await bench.save(file, { saveDeepJudgmentConfig: true });
  return file;
}

const finishedIds = async (file: string) =>
  (await Benchmark.load(file)).getFinishedQuestions().map((q) => q.id);

/** The checkpoint text without its modification dates, which a save always moves. */
const withoutDates = (text: string) => text.replace(/"dateModified": "[^"]*"/g, "");

describe("karenina checkpoint finish | unfinish", () => {
  test("finish with no --questions marks every question finished, in place, and says what changed", async () => {
    const file = await drafts(3);
    const { code, out } = await runKarenina("checkpoint", "finish", file);
    expect(code).toBe(EXIT.ok);
    expect(out).toBe(`Marked 3 questions finished in ${file}: q0, q1, q2\n  now 3 of 3 questions finished\n`);
    expect(await finishedIds(file)).toEqual(["q0", "q1", "q2"]);
  });

  test("--questions takes ids (and indexes); those already finished are counted apart", async () => {
    const file = await drafts(3);
    await runKarenina("checkpoint", "finish", file, "--questions", "q0");
    const { code, out } = await runKarenina("checkpoint", "finish", file, "--questions", "q0, 2");
    expect(code).toBe(EXIT.ok);
    expect(out).toContain(`Marked 1 question finished in ${file} (1 already was): q2`);
    expect(out).toContain("now 2 of 3 questions finished");
    expect(await finishedIds(file)).toEqual(["q0", "q2"]);
  });

  test("unfinish makes drafts again; finish then unfinish leaves the file as it was but for its dates", async () => {
    const file = await drafts(2, (bench) => {
      bench.setGlobalRubric([
        {
          type: "llm",
          name: "clear",
          kind: "boolean",
          description: "Is it clear?",
          deep_judgment_enabled: true,
        },
      ]);
    });
    const original = await readFile(file, "utf8");
    expect((await runKarenina("checkpoint", "finish", file, "--questions", "all")).code).toBe(EXIT.ok);
    const { code, out } = await runKarenina("checkpoint", "unfinish", file, "--questions", "all");
    expect(code).toBe(EXIT.ok);
    expect(out).toContain(`Marked 2 questions drafts (not finished) in ${file}: q0, q1`);
    const after = await readFile(file, "utf8");
    expect(withoutDates(after)).toBe(withoutDates(original));
    // The trait's deep-judgment setting, which a plain save strips, is still there.
    expect(after).toContain("deep_judgment_enabled");
  });

  test("nothing to change: says so and does not write the file", async () => {
    const file = await drafts(2);
    await runKarenina("checkpoint", "finish", file);
    const before = await stat(file);
    const { code, out } = await runKarenina("checkpoint", "finish", file);
    expect(code).toBe(EXIT.ok);
    expect(out).toBe(`Nothing changed: the 2 questions were already finished; ${file} was not written.\n`);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
  });

  test("a question without a template is finished with a warning and the command that writes one", async () => {
    const file = await drafts(1, (bench) => {
      bench.addQuestion("Which gene is mutated in cystic fibrosis?", "CFTR", {
        questionId: "cf",
        finished: false,
      });
    });
    const { code, out } = await runKarenina("checkpoint", "finish", file);
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("1 of them has no template (or only the default placeholder)");
    expect(out).toContain(`karenina generate-templates ${file} -m SPEC --questions cf`);
  });

  test("an unknown question is a usage error and the file is left alone", async () => {
    const file = await drafts(2);
    const original = await readFile(file, "utf8");
    const { code, err } = await runKarenina("checkpoint", "finish", file, "--questions", "q0,nosuch");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("nosuch");
    expect(await readFile(file, "utf8")).toBe(original);
  });

  test("--help shows both commands and the default", async () => {
    const help = await runKarenina("checkpoint", "--help");
    expect(help.out).toMatch(/finish .*Mark questions finished/);
    expect(help.out).toMatch(/unfinish .*Mark questions as drafts/);
    const finish = await runKarenina("checkpoint", "finish", "--help");
    expect(finish.out).toContain('"all" (the default)');
  });
});
