import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { runKarenina } from "../test-support/cli.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { BUNDLED_EXAMPLE, EXIT } from "./cli-io.js";

const run = runKarenina;

const syntaxOk = async () => null;

describe("karenina checkpoint inspect", () => {
  test("with no file it inspects the bundled example, and says so", async () => {
    const { code, out, err } = await run("checkpoint", "inspect");
    expect(code).toBe(EXIT.ok);
    expect(err).toContain(BUNDLED_EXAMPLE);
    const bench = await Benchmark.load(BUNDLED_EXAMPLE);
    expect(out).toContain(bench.name);
    expect(out).toContain(`questions: ${bench.size}`);
  });

  test.skipIf(!hasConformance)(
    `--json prints exactly the documented shape ${hasConformance ? "" : SKIP_REASON}`,
    async () => {
      const { code, out } = await run(
        "checkpoint",
        "inspect",
        conformancePath("checkpoints/with_rubrics.jsonld"),
        "--json",
      );
      expect(code).toBe(EXIT.ok);
      const summary = JSON.parse(out);
      expect(Object.keys(summary)).toEqual([
        "name",
        "version",
        "description",
        "creator",
        "questionCount",
        "globalRubric",
        "questions",
      ]);
      expect(summary.questionCount).toBe(3);
      expect(summary.globalRubric).toEqual([
        { name: "Clarity", kind: "llm_score" },
        { name: "Accuracy", kind: "llm_boolean" },
        { name: "Completeness", kind: "llm_score" },
        { name: "HasCitations", kind: "regex" },
        { name: "HasNumbers", kind: "regex" },
        { name: "ContainsCitations", kind: "callable" },
        { name: "ResponseLength", kind: "callable" },
      ]);
      expect(summary.questions[0]).toEqual({
        id: "urn:karenina:test:rq001",
        question: "What is BCL2 and what role does it play in cancer?",
        rawAnswer: "BCL2 is a proto-oncogene that encodes an anti-apoptotic protein",
        finished: true,
        hasTemplate: true,
        templateLanguage: "Python",
        keywords: ["biology", "genetics", "cancer"],
        rubric: [],
      });
    },
  );

  test("--json reports every trait kind of a question rubric", async () => {
    const bench = Benchmark.create({ name: "kinds" });
    const id = bench.addQuestion("Q?", "A", { questionId: "q" });
    bench.setQuestionRubric(id, [
      { type: "llm", name: "b", kind: "boolean" },
      { type: "llm", name: "s", kind: "score" },
      { type: "llm", name: "l", kind: "literal", classes: { low: "low", high: "high" } },
      { type: "regex", name: "r", pattern: "x" },
      { type: "callable", name: "c", kind: "boolean", callable_code: "" },
      { type: "metric", name: "m", metrics: ["precision"], tp_instructions: ["x"] },
      { type: "agentic", name: "a", description: "look", kind: "boolean" },
    ]);
    const file = join(await mkdtemp(join(tmpdir(), "karenina-")), "k.jsonld");
    await bench.save(file);
    const summary = JSON.parse((await run("checkpoint", "inspect", file, "--json")).out);
    expect(summary.questions[0].rubric.map((t: { kind: string }) => t.kind)).toEqual([
      "llm_boolean",
      "llm_score",
      "llm_literal",
      "regex",
      "callable",
      "metric",
      "agentic",
    ]);
  });

  test("a missing file exits 2 with the message on stderr", async () => {
    const { code, out, err } = await run("checkpoint", "inspect", "/nonexistent/bench.jsonld");
    expect(code).toBe(EXIT.usage);
    expect(out).toBe("");
    expect(err).toMatch(/^error: \/nonexistent\/bench\.jsonld: cannot read the checkpoint: no such file/);
  });

  test("a file that is not a checkpoint exits 2 naming the path in the file", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "karenina-")), "bad.jsonld");
    await writeFile(file, '{"@context": {}, "@type": "DataFeed", "name": "x"}');
    const { code, err } = await run("checkpoint", "inspect", file);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(`${file}: 3 problems:\n  $.dateCreated: missing required field`);
  });
});

describe("karenina checkpoint validate", () => {
  test("the bundled example is ready: exit 0", async () => {
    const { code, out } = await run("checkpoint", "validate", BUNDLED_EXAMPLE);
    expect(out).toContain("ready for verification");
    expect(code).toBe(EXIT.ok);
  });

  test("a benchmark with a placeholder template is not ready: exit 1 with the reason", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    const file = join(await mkdtemp(join(tmpdir(), "karenina-")), "b.jsonld");
    await bench.save(file);
    expect((await bench.checkReadiness(syntaxOk)).ready_for_verification).toBe(false);
    const { code, out } = await run("checkpoint", "validate", file);
    expect(code).toBe(EXIT.checkFailed);
    expect(out).toContain("NOT ready for verification");
    expect(out).toContain(`missing for ${id}`);
  });
});

describe("karenina checkpoint convert", () => {
  test("loads and saves, printing where it wrote", async () => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-"));
    const { code, out } = await run("checkpoint", "convert", BUNDLED_EXAMPLE, join(dir, "copy.txt"));
    expect(code).toBe(EXIT.ok);
    expect(out).toContain(join(dir, "copy.jsonld"));
    const copy = await Benchmark.load(join(dir, "copy.jsonld"));
    expect(copy.equals(await Benchmark.load(BUNDLED_EXAMPLE))).toBe(true);
    expect((await readFile(join(dir, "copy.jsonld"), "utf8")).endsWith("}")).toBe(true);
  });
});

describe("usage", () => {
  test.each([
    [["--help"]],
    [["checkpoint", "--help"]],
    [["checkpoint", "inspect", "--help"]],
    [["checkpoint", "validate", "--help"]],
    [["checkpoint", "convert", "--help"]],
  ])("%j prints help and exits 0", async (args) => {
    const { code, out } = await run(...args);
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^Usage: karenina/);
  });

  test("an unknown command or a missing argument exits 2", async () => {
    expect((await run("checkpoint", "frobnicate")).code).toBe(EXIT.usage);
    const missing = await run("checkpoint", "convert", "only-one.jsonld");
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain("missing required argument");
  });

  test("the installed command sets the process exit code", async () => {
    const main = fileURLToPath(new URL("./main.ts", import.meta.url));
    const result = await promisify(execFile)(process.execPath, [
      "--import",
      "tsx",
      main,
      "checkpoint",
      "inspect",
      "/nonexistent.jsonld",
    ]).catch((error: { code: number; stderr: string }) => error);
    expect((result as { code: number }).code).toBe(EXIT.usage);
    expect((result as { stderr: string }).stderr).toContain("no such file");
  });
});
