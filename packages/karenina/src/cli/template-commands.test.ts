import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { questionUrn } from "../model/index.js";
import { BUNDLED_EXAMPLE, EXIT } from "./cli-io.js";
import { runCli } from "./program.js";

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const VENETOCLAX = questionUrn("What is the putative target of venetoclax?");

describe("karenina template check", () => {
  // The parsed answers below are written by hand for these tests; no model produced them.
  test("--json prints schema, verify, verifyGranular, regex and error; a passing answer exits 0", async () => {
    const { code, out } = await run(
      "template",
      "check",
      BUNDLED_EXAMPLE,
      "--question",
      VENETOCLAX,
      "--answer",
      '{"target": " bcl-2 "}',
      "--json",
    );
    const report = JSON.parse(out);
    expect(Object.keys(report)).toEqual(["schema", "verify", "verifyGranular", "regex", "error"]);
    expect(report.verify).toBe(true);
    expect(report.error).toBeNull();
    expect(report.regex).toEqual({ success: true, results: {}, details: {} });
    expect(report.schema.title).toBe("Answer");
    expect(Object.keys(report.schema.properties)).toEqual(["id", "target"]);
    expect(JSON.stringify(report.schema)).not.toContain("BCL2");
    expect(code).toBe(EXIT.ok);
  });

  test("a wrong answer is reported and exits 1", async () => {
    const { code, out } = await run(
      "template",
      "check",
      BUNDLED_EXAMPLE,
      "--question",
      VENETOCLAX,
      "--answer",
      '{"target": "MCL1"}',
    );
    expect(out).toContain("verify: false");
    expect(code).toBe(EXIT.checkFailed);
  });

  test("an answer that does not fit the schema is a failed verification with the field named", async () => {
    const { code, out } = await run(
      "template",
      "check",
      BUNDLED_EXAMPLE,
      "--question",
      VENETOCLAX,
      "--answer",
      '{"target": 3}',
      "--json",
    );
    const report = JSON.parse(out);
    expect(report.verify).toBe(false);
    expect(report.error).toContain("target");
    expect(code).toBe(EXIT.checkFailed);
  });

  test("an invalid template is reported as the error", async () => {
    const bench = Benchmark.create({ name: "broken" });
    bench.addQuestion("Q?", "A", {
      questionId: "q",
      answerTemplate: "class Answer(BaseAnswer):\n    x: int = Field(description='x'\n",
    });
    const file = join(await mkdtemp(join(tmpdir(), "karenina-")), "b.jsonld");
    await bench.save(file);
    const { code, out } = await run("template", "check", file, "--question", "q", "--answer", "{}", "--json");
    const report = JSON.parse(out);
    expect(report.verify).toBeNull();
    expect(report.error).toMatch(/^Invalid template: /);
    expect(code).toBe(EXIT.checkFailed);
  });

  test("bad arguments exit 2 with a message", async () => {
    const badJson = await run(
      "template",
      "check",
      BUNDLED_EXAMPLE,
      "--question",
      VENETOCLAX,
      "--answer",
      "{target}",
    );
    expect(badJson.code).toBe(EXIT.usage);
    expect(badJson.err).toContain("--answer: not valid JSON");
    const unknown = await run("template", "check", BUNDLED_EXAMPLE, "--question", "nope", "--answer", "{}");
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.err).toContain('no question matches "nope" by id, index');
    const missing = await run("template", "check", BUNDLED_EXAMPLE, "--answer", "{}");
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain("--question");
  });
});

test("a regex check on the raw response counts in the verdict", async () => {
  const bench = Benchmark.create({ name: "regex" });
  bench.addQuestion("Q?", "A", {
    questionId: "q",
    answerTemplate: [
      "class Answer(BaseAnswer):",
      "    def ground_truth(self):",
      "        self.regex = {'cites': {'pattern': r'\\[\\d+\\]', 'expected': 1, 'match_type': 'count'}}",
      "",
    ].join("\n"),
  });
  const file = join(await mkdtemp(join(tmpdir(), "karenina-")), "r.jsonld");
  await writeFile(file, bench.serialize());
  const pass = await run(
    "template",
    "check",
    file,
    "--question",
    "q",
    "--answer",
    "{}",
    "--response",
    "See [1].",
    "--json",
  );
  expect(JSON.parse(pass.out)).toMatchObject({
    verify: true,
    regex: { success: true, results: { cites: true } },
  });
  const fail = await run(
    "template",
    "check",
    file,
    "--question",
    "q",
    "--answer",
    "{}",
    "--response",
    "No citation.",
    "--json",
  );
  expect(JSON.parse(fail.out)).toMatchObject({ verify: false, regex: { success: false } });
});
