import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { trait } from "../rubrics/index.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { EXIT } from "./cli-io.js";
import { runCli } from "./program.js";

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const WITH_RUBRICS = conformancePath("checkpoints/with_rubrics.jsonld");
const RQ001 = "urn:karenina:test:rq001";

// The responses below are hand-written for these tests. Expected callable values come from reading the
// conformance file's Python code: ContainsCitations = bool(re.search(r'\[\d+\]', trace)); ResponseLength =
// 1 below 20 words, 2 below 50, 3 below 100, 4 below 200, else 5.
describe.skipIf(!hasConformance)(
  `karenina rubric check on with_rubrics.jsonld ${hasConformance ? "" : SKIP_REASON}`,
  () => {
    test("--json prints exactly {traits, errors} for the regex and base64-Python callable traits", async () => {
      const { code, out, err } = await run(
        "rubric",
        "check",
        WITH_RUBRICS,
        "--question",
        RQ001,
        "--response",
        "BCL2 is an anti-apoptotic protein overexpressed in many cancers [1].",
        "--json",
      );
      expect(code).toBe(EXIT.ok);
      expect(JSON.parse(out)).toEqual({
        traits: { HasCitations: true, HasNumbers: true, ContainsCitations: true, ResponseLength: 1 },
        errors: {},
      });
      expect(err).toContain("skipped, needing an LLM judge");
      expect(err).toContain("Clarity (llm), Accuracy (llm), Completeness (llm)");
    }, 60_000);

    test("a longer response without digits or citations", async () => {
      const words = Array.from({ length: 60 }, () => "apoptosis").join(" ");
      const { code, out } = await run(
        "rubric",
        "check",
        WITH_RUBRICS,
        "--question",
        RQ001,
        "--response",
        words,
        "--json",
      );
      expect(code).toBe(EXIT.ok);
      expect(JSON.parse(out).traits).toEqual({
        HasCitations: false,
        HasNumbers: false,
        ContainsCitations: false,
        ResponseLength: 3,
      });
    }, 60_000);

    test("the text report lists each evaluated trait and the skipped ones", async () => {
      const { code, out } = await run(
        "rubric",
        "check",
        WITH_RUBRICS,
        "--question",
        RQ001,
        "--response",
        "Paris [2]",
      );
      expect(code).toBe(EXIT.ok);
      expect(out).toContain(`question ${RQ001}`);
      expect(out).toContain("regex HasCitations: true");
      expect(out).toContain("callable ResponseLength: 1");
      expect(out).toContain("skipped, needing an LLM judge (metric traits too");
    }, 60_000);
  },
);

describe("karenina rubric check on a benchmark built here", () => {
  async function benchFile(): Promise<string> {
    const bench = Benchmark.create({ name: "rubric-cli" });
    bench.addQuestion("What is the target of venetoclax?", "BCL2", { questionId: "q1" });
    bench.setGlobalRubric([
      trait.regex({ name: "cites", pattern: String.raw`\[\d+\]` }),
      trait.llm.score({ name: "clarity" }),
      trait.metric({ name: "coverage", metrics: ["recall"], tpInstructions: ["BCL2"] }),
      await trait.callable({ name: "short", kind: "boolean", fn: (text) => text.length < 20 }),
    ]);
    // Bytes of Python's pickle.dumps(len), standing in for a cloudpickle'd function.
    bench.addQuestionRubricTrait("q1", {
      type: "callable",
      name: "pickled",
      kind: "boolean",
      callable_code: "gAWVFAAAAAAAAACMCGJ1aWx0aW5zlIwDbGVulJOULg==",
    });
    bench.addQuestionRubricTrait(
      "q1",
      trait.regex({ name: "cites", pattern: "BCL-?2", caseSensitive: false }),
    );
    const file = join(await mkdtemp(join(tmpdir(), "karenina-")), "bench.jsonld");
    await bench.save(file);
    return file;
  }

  test("a question trait replaces the global one of the same name (with a warning); failures go to errors", async () => {
    const { code, out, err } = await run(
      "rubric",
      "check",
      await benchFile(),
      "--question",
      "q1",
      "--response",
      "bcl2",
      "--json",
    );
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(out)).toEqual({
      traits: { cites: true, short: true, pickled: null },
      errors: {
        pickled:
          'callable trait "pickled": field "callable_code": serialized Python function (cloudpickle) cannot run here; register a function for trait \'pickled\'',
      },
    });
    expect(err).toContain(
      'warning: question-specific regex trait "cites" replaces the global regex trait of the same name',
    );
    expect(err).toContain("clarity (llm), coverage (metric)");
  });

  test("usage and file errors exit 2 with a message", async () => {
    const file = await benchFile();
    const unknown = await run("rubric", "check", file, "--question", "nope", "--response", "x");
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.err).toContain('no question matches "nope" by id, index');
    const missing = await run("rubric", "check", file, "--question", "q1");
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain("--response");
    const noFile = await run(
      "rubric",
      "check",
      join(tmpdir(), "does-not-exist.jsonld"),
      "--question",
      "q1",
      "--response",
      "x",
    );
    expect(noFile.code).toBe(EXIT.usage);
  });
});
