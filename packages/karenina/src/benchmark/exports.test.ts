/**
 * The benchmark exports of spec 01 §4.10 (`to_dict`, `to_markdown`, `to_csv`, `export_to_file`) and the
 * generated-templates file of §4.8, each compared with the shape and text the spec gives, and read back.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { beforeEach, describe, expect, test } from "vitest";
import { trait } from "../rubrics/index.js";
import type { TemplateSpecInput } from "../templates/index.js";
import { Benchmark } from "./benchmark.js";
import { BenchmarkUsageError, GeneratedTemplatesFileError } from "./errors.js";
import { indentPythonJson, pythonFixed1 } from "./exports.js";

const TARGET_SPEC: TemplateSpecInput = {
  fields: [
    {
      name: "target",
      type: "str",
      description: "Target protein",
      ground_truth: "BCL2",
      verify_with: { type: "ExactMatch" },
    },
  ],
};

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "karenina-exports-"));
}

/** Two questions: one finished with a real template, an author and a rubric; one draft on the placeholder. */
async function drugTargets(): Promise<{ bench: Benchmark; first: string; second: string }> {
  const bench = Benchmark.create({ name: "Drug targets", description: "Targets of drugs", creator: "Ana" });
  const first = bench.addQuestion("What is the target of venetoclax?", 'BCL2, the "B-cell"\nlymphoma 2', {
    author: { "@type": "Person", name: "Zoë" },
  });
  const second = bench.addQuestion("Which drug, if any?", "none", { finished: false });
  await bench.addAnswerTemplate(first, TARGET_SPEC);
  bench.setGlobalRubric([
    trait.llm.boolean({ name: "clear", description: "Is it clear?" }),
    trait.regex({ name: "cites", pattern: String.raw`\[\d+\]` }),
  ]);
  bench.addQuestionRubricTrait(first, trait.llm.score({ name: "depth", description: "How deep" }));
  return { bench, first, second };
}

describe("toDict", () => {
  test("has the original's four keys, the summary, question dicts and rubric dumps", async () => {
    const { bench, first } = await drugTargets();
    const dict = bench.toDict();
    expect(Object.keys(dict)).toEqual(["metadata", "statistics", "questions", "global_rubric"]);
    expect(dict.metadata).toEqual({
      name: "Drug targets",
      description: "Targets of drugs",
      version: "0.1.0",
      creator: "Ana",
      created_at: bench.createdAt,
      modified_at: bench.modifiedAt,
    });
    expect(dict.statistics).toEqual(bench.getSummary());
    expect(dict.questions.map((q) => q.id)).toEqual(bench.getQuestionIds());
    // the question dict of spec 01 §3.1, in its key order (pinned by benchmark.test.ts)
    expect(Object.keys(dict.questions[0] ?? {})).toEqual(Object.keys(bench.getQuestion(first)));
    const rubric = dict.questions[0]?.question_rubric;
    expect(Object.keys(rubric ?? {})).toEqual([
      "llm_traits",
      "regex_traits",
      "callable_traits",
      "metric_traits",
      "agentic_traits",
    ]);
    expect(rubric?.llm_traits?.[0]).toMatchObject({ name: "depth", kind: "score" });
    expect(rubric?.llm_traits?.[0]).not.toHaveProperty("type");
    expect(dict.global_rubric?.regex_traits?.[0]).toMatchObject({ name: "cites" });
    expect(dict.questions[0]?.id).toBe(first);
  });

  test("a benchmark without global traits has global_rubric null", () => {
    expect(Benchmark.create({ name: "empty" }).toDict().global_rubric).toBeNull();
  });
});

describe("toMarkdown", () => {
  test("is the original's report, line for line", async () => {
    const { bench } = await drugTargets();
    expect(bench.toMarkdown()).toBe(
      [
        "# Drug targets",
        "",
        "Targets of drugs",
        "",
        "## Metadata",
        "- **Version**: 0.1.0",
        "- **Creator**: Ana",
        `- **Created**: ${bench.createdAt}`,
        `- **Modified**: ${bench.modifiedAt}`,
        "",
        "## Statistics",
        "- **Questions**: 2.0",
        "- **Finished**: 1",
        "- **Progress**: 50.0%",
        "- **Has Templates**: 1",
        "",
        "## Global Rubric",
        "- **clear**: Is it clear?",
        "",
        "## Questions",
        "### 1. What is the target of venetoclax?",
        "**Status**: ✅ | **Template**: 📝",
        "",
        '**Expected Answer**: BCL2, the "B-cell"\nlymphoma 2',
        "",
        "### 2. Which drug, if any?",
        "**Status**: ❌ | **Template**: 📝",
        "",
        "**Expected Answer**: none",
        "",
      ].join("\n"),
    );
  });

  test("no description line when empty, no rubric section without global traits", () => {
    const bench = Benchmark.create({ name: "n" });
    bench.description = "";
    const lines = bench.toMarkdown().split("\n");
    expect(lines.slice(0, 3)).toEqual(["# n", "", "## Metadata"]);
    expect(lines).not.toContain("## Global Rubric");
    expect(lines.at(-1)).toBe("## Questions");
  });
});

describe("toCsv", () => {
  test("Python's csv dialect: CRLF, minimal quoting, the placeholder counts as a template", async () => {
    const { bench, first, second } = await drugTargets();
    const text = bench.toCsv();
    const q1 = bench.getQuestion(first);
    const q2 = bench.getQuestion(second);
    expect(text).toBe(
      "Question ID,Question,Raw Answer,Has Template,Finished,Author,Created,Modified\r\n" +
        `${first},What is the target of venetoclax?,"BCL2, the ""B-cell""\nlymphoma 2",Yes,Yes,Zoë,${q1.date_created},${q1.date_modified}\r\n` +
        `${second},"Which drug, if any?",none,Yes,No,,${q2.date_created},${q2.date_modified}\r\n`,
    );
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row["Raw Answer"])).toEqual(['BCL2, the "B-cell"\nlymphoma 2', "none"]);
  });
});

describe("exportToFile", () => {
  let bench: Benchmark;
  let dir: string;
  beforeEach(async () => {
    ({ bench } = await drugTargets());
    dir = await tempDir();
  });

  test("the extension picks the format; each file reads back as what it was made from", async () => {
    const read = (name: string) => readFile(join(dir, name), "utf8");
    await bench.exportToFile(join(dir, "b.json"));
    expect(JSON.parse(await read("b.json"))).toEqual(JSON.parse(JSON.stringify(bench.toDict())));
    await bench.exportToFile(join(dir, "b.csv"));
    expect(await read("b.csv")).toBe(bench.toCsv());
    await bench.exportToFile(join(dir, "b.md"));
    expect(await read("b.md")).toBe(bench.toMarkdown());
    await bench.exportToFile(join(dir, "b.markdown"));
    expect(await read("b.markdown")).toBe(bench.toMarkdown());
    await bench.exportToFile(join(dir, "b.jsonld")); // saving bumps the modification date
    await bench.exportToFile(join(dir, "b.data"));
    expect((await Benchmark.load(join(dir, "b.jsonld"))).equals(bench)).toBe(true);
    expect(JSON.parse(await read("b.data"))).toEqual(JSON.parse(JSON.stringify(bench.toDict())));
  });

  test("JSON as Python's json.dumps(indent=2, ensure_ascii=False): floats keep .0, UTF-8 kept", async () => {
    await bench.exportToFile(join(dir, "b.json"));
    const text = await readFile(join(dir, "b.json"), "utf8");
    expect(text.startsWith('{\n  "metadata": {\n    "name": "Drug targets",')).toBe(true);
    expect(text).toContain('\n    "question_count": 2.0,\n');
    expect(text).toContain('\n    "progress_percentage": 50.0,\n');
    expect(text).toContain('"name": "Zoë"');
    expect(text).toContain('"sources": null');
    expect(text).toContain('"callable_traits": [],');
    expect(text.endsWith("\n}")).toBe(true);
  });

  test("an explicit format wins over the extension; an unknown one is refused", async () => {
    await bench.exportToFile(join(dir, "questions.txt"), "csv");
    expect(await readFile(join(dir, "questions.txt"), "utf8")).toBe(bench.toCsv());
    await expect(bench.exportToFile(join(dir, "x.json"), "yaml" as never)).rejects.toThrow(
      BenchmarkUsageError,
    );
    await expect(bench.exportToFile(join(dir, "x.json"), "yaml" as never)).rejects.toThrow(
      "Unsupported export format: yaml",
    );
  });
});

describe("generated templates file", () => {
  test("exports real templates only, as the original's json.dump(indent=2)", async () => {
    const { bench, first } = await drugTargets();
    const file = join(await tempDir(), "templates.json");
    expect(await bench.exportGeneratedTemplates(file)).toBe(1);
    const text = await readFile(file, "utf8");
    expect(text).toBe(`{\n  ${JSON.stringify(first)}: ${JSON.stringify(bench.getTemplate(first))}\n}`);
  });

  test("non-ASCII is escaped as \\uXXXX, as Python's default ensure_ascii", async () => {
    const bench = Benchmark.create({ name: "u" });
    const spec = structuredClone(TARGET_SPEC) as { fields: { ground_truth: unknown }[] };
    (spec.fields[0] as { ground_truth: unknown }).ground_truth = "Zoë";
    bench.addQuestion("Q?", "A", { questionId: "q1", answerTemplate: spec as TemplateSpecInput });
    const file = join(await tempDir(), "t.json");
    await bench.exportGeneratedTemplates(file);
    const text = await readFile(file, "utf8");
    expect(text).toContain("Zo\\u00eb");
    expect(JSON.parse(text).q1).toBe(bench.getTemplate("q1"));
  });

  test("round trip: imports into matching questions; unknown ids, kept templates and bad code give false", async () => {
    const source = Benchmark.create({ name: "source" });
    source.addQuestion("Q1?", "BCL2", { questionId: "q1", answerTemplate: TARGET_SPEC });
    source.addQuestion("Q2?", "BCL2", { questionId: "q2", answerTemplate: TARGET_SPEC });
    const dir = await tempDir();
    const file = join(dir, "templates.json");
    await source.exportGeneratedTemplates(file);

    const target = Benchmark.create({ name: "target" });
    target.addQuestion("Q1?", "BCL2", { questionId: "q1" });
    target.addQuestion("Q2?", "BCL2", {
      questionId: "q2",
      answerTemplate: { ...TARGET_SPEC, class_name: "Kept" },
    });
    const kept = target.getTemplate("q2");
    expect(await target.importGeneratedTemplates(file)).toEqual({ q1: true, q2: false });
    expect(target.getTemplate("q1")).toBe(source.getTemplate("q1"));
    expect(target.getTemplate("q2")).toBe(kept);
    expect(target.isFinished("q1")).toBe(true);

    expect(await target.importGeneratedTemplates(file, true)).toEqual({ q1: true, q2: true });
    expect(target.getTemplate("q2")).toBe(source.getTemplate("q2"));

    const other = join(dir, "other.json");
    await writeFile(other, '{"nope": "x", "q1": "this is not python (", "__proto__": "x"}');
    const outcome = await target.importGeneratedTemplates(other, true);
    expect(Object.entries(outcome)).toEqual([
      ["nope", false],
      ["q1", false],
      ["__proto__", false],
    ]);
    expect(Object.getPrototypeOf(outcome)).toBe(Object.prototype);
    expect(target.getTemplate("q1")).toBe(source.getTemplate("q1"));
  });

  test("a file that is not {id: code} is refused with the file name and what was expected", async () => {
    const bench = Benchmark.create({ name: "b" });
    const dir = await tempDir();
    const cases: [string, string][] = [
      ["not-json.json", "{"],
      ["array.json", "[]"],
      ["number-code.json", '{"q1": 3}'],
    ];
    for (const [name, text] of cases) {
      const file = join(dir, name);
      await writeFile(file, text);
      await expect(bench.importGeneratedTemplates(file)).rejects.toThrow(GeneratedTemplatesFileError);
      await expect(bench.importGeneratedTemplates(file)).rejects.toThrow(file);
    }
    await expect(bench.importGeneratedTemplates(join(dir, "missing.json"))).rejects.toThrow(
      "cannot read the file",
    );
  });
});

describe("Python number and layout rules", () => {
  test('f"{x:.1f}" rounds exact ties to even, as Python does', () => {
    expect(pythonFixed1(0.25)).toBe("0.2");
    expect(pythonFixed1(0.75)).toBe("0.8");
    expect(pythonFixed1(2.25)).toBe("2.2");
    expect(pythonFixed1(100 / 3)).toBe("33.3");
    expect(pythonFixed1(0)).toBe("0.0");
    expect(pythonFixed1(0.35)).toBe("0.3"); // 0.35 is stored just below the tie
  });

  test("indent=2 layout keeps empty containers and leaves strings alone", () => {
    expect(indentPythonJson('{"a": [], "b": {}, "c": ["x, y", "[{"], "d": {"e": 1}}')).toBe(
      '{\n  "a": [],\n  "b": {},\n  "c": [\n    "x, y",\n    "[{"\n  ],\n  "d": {\n    "e": 1\n  }\n}',
    );
    expect(indentPythonJson('{"q\\"": "a\\\\"}')).toBe('{\n  "q\\"": "a\\\\"\n}');
  });
});
