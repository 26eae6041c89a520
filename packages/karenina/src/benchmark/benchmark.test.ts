import { mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import { CheckpointError, CheckpointFileError } from "../checkpoint/index.js";
import { defaultTemplate, Question } from "../model/index.js";
import { CLASSIC_TEMPLATE } from "../test-support/classic-template.js";
import { Benchmark } from "./benchmark.js";
import {
  BenchmarkUsageError,
  DuplicateQuestionError,
  MissingTemplateError,
  QuestionNotFoundError,
} from "./errors.js";

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "karenina-"));
}

async function roundTrip(bench: Benchmark, options: { workspaceRoot?: string } = {}): Promise<Benchmark> {
  const file = join(await tempDir(), "bench.jsonld");
  await bench.save(file);
  return Benchmark.load(file, options);
}

describe("creating a benchmark", () => {
  test("metadata defaults follow the original", () => {
    const bench = Benchmark.create({ name: "Drug targets" });
    expect(bench.name).toBe("Drug targets");
    expect(bench.description).toBe("Benchmark containing questions");
    expect(bench.version).toBe("0.1.0");
    expect(bench.creator).toBe("Karenina Benchmarking System");
    expect(bench.id).toMatch(/^urn:uuid:karenina-checkpoint-\d+\.\d+$/);
    expect(bench.getAllCustomProperties()).toEqual({ benchmark_format_version: "3.0.0-jsonld" });
    expect(bench.questionCount).toBe(0);
    expect(bench.isEmpty).toBe(true);
    expect(bench.getProgress()).toBe(0);
  });

  test("create and the constructor are the same", () => {
    const options = { name: "n", description: "d", version: "1.0.0", creator: "me" };
    const a = Benchmark.create(options);
    const b = new Benchmark(options);
    expect([a.name, a.description, a.version, a.creator]).toEqual([
      b.name,
      b.description,
      b.version,
      b.creator,
    ]);
  });
});

describe("adding questions", () => {
  let bench: Benchmark;
  beforeEach(() => {
    bench = Benchmark.create({ name: "b" });
  });

  test("text + raw answer: URN id, finished by default, placeholder template", () => {
    const id = bench.addQuestion("What is 2+2?", "4");
    expect(id).toBe("urn:uuid:question-what-is-2+2-936dbc87");
    expect(bench.addQuestion("What is 2+2?", "4")).toBe("urn:uuid:question-what-is-2+2-936dbc87-1");
    expect(bench.isFinished(id)).toBe(true);
    expect(bench.getQuestion(id).answer_template).toBe(defaultTemplate("What is 2+2?"));
    expect(bench.hasTemplate(id)).toBe(false);
  });

  test("a Question object: its MD5 id, its metadata, and a refusal when added twice", () => {
    const q = new Question({
      question: "What are the FDA-approved indications for venetoclax?",
      raw_answer: "CLL and AML",
      keywords: ["pharmacology"],
      author: { name: "Dr. Smith" },
      answer_template: CLASSIC_TEMPLATE,
    });
    const id = bench.addQuestion(q);
    expect(id).toBe(q.id);
    expect(bench.getQuestion(id).keywords).toEqual(["pharmacology"]);
    expect(bench.getQuestionAuthor(id)).toEqual({ name: "Dr. Smith" });
    // As in the original, a Question's own template is not copied (quirk Q2).
    expect(bench.hasTemplate(id)).toBe(false);
    expect(() => bench.addQuestion(q)).toThrow(DuplicateQuestionError);
    expect(() => bench.addQuestionFromObject(q)).toThrow(`Question with ID ${q.id} already exists`);
  });

  test("with an inline template", () => {
    const id = bench.addQuestion("What is the putative target of venetoclax?", "BCL2", {
      answerTemplate: CLASSIC_TEMPLATE,
    });
    expect(bench.hasTemplate(id)).toBe(true);
    expect(bench.getTemplate(id)).toBe(CLASSIC_TEMPLATE);
    expect(bench.getTemplateLanguage(id)).toBe("Python");
  });

  test("with a custom id, refused when taken", () => {
    const id = bench.addQuestion("Q?", "A", { questionId: "my-id" });
    expect(id).toBe("my-id");
    expect(() => bench.addQuestion("Other?", "B", { questionId: "my-id" })).toThrow(
      "Question with ID my-id already exists",
    );
  });

  test("the record form reads the original's dict keys and ignores others", () => {
    const id = bench.addQuestion({
      question: "Q?",
      raw_answer: "A",
      question_id: "q-1",
      finished: false,
      custom_metadata: { difficulty: "hard" },
      keywords: ["ignored"],
    });
    expect(id).toBe("q-1");
    expect(bench.isFinished(id)).toBe(false);
    expect(bench.getQuestion(id).custom_metadata).toEqual({ difficulty: "hard" });
    expect(bench.getQuestion(id).keywords).toBeNull();
  });

  test("a text without a raw answer is refused", () => {
    expect(() => bench.addQuestion("Q?", "")).toThrow(BenchmarkUsageError);
    expect(() => bench.addQuestion({ question: "Q?" })).toThrow(/raw_answer is required/);
  });

  test("addQuestions adds in order with one finished flag", () => {
    const ids = bench.addQuestions(
      [{ question: "A?", raw_answer: "a" }, new Question({ question: "B?", raw_answer: "b" })],
      {
        finished: false,
      },
    );
    expect(ids).toHaveLength(2);
    expect(ids.map((id) => bench.isFinished(id))).toEqual([false, false]);
  });

  test("a workspace path that leaves the workspace root is refused", () => {
    expect(() => bench.addQuestion("Q?", "A", { workspacePath: "../elsewhere" })).toThrow(/climbs out/);
    expect(() => bench.addQuestion("Q?", "A", { workspacePath: "/etc" })).toThrow(/absolute/);
    expect(bench.addQuestion("Q?", "A", { workspacePath: "task_01" })).toBe("urn:uuid:question-q-7a48af14");
  });

  test("removing and clearing", () => {
    const a = bench.addQuestion("A?", "a");
    bench.addQuestion("B?", "b");
    expect(bench.removeQuestion(a)).toBe(true);
    expect(bench.removeQuestion(a)).toBe(false);
    expect(bench.getQuestionIds()).toHaveLength(1);
    expect(bench.clearQuestions()).toBe(1);
    expect(bench.size).toBe(0);
  });
});

describe("templates", () => {
  test("hasTemplate is false for the placeholder, getTemplate refuses it, getMissingTemplates lists it", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    expect(() => bench.getTemplate(id)).toThrow(MissingTemplateError);
    expect(() => bench.getTemplate(id)).toThrow(`Question ${id} has no template`);
    expect(bench.getMissingTemplates().map((q) => q.id)).toEqual([id]);
    await bench.addAnswerTemplate(id, CLASSIC_TEMPLATE);
    expect(bench.hasTemplate(id)).toBe(true);
    expect(bench.getMissingTemplates()).toEqual([]);
    expect(bench.hasTemplate("unknown")).toBe(false);
  });

  test("the placeholder of an old text counts as a template once the text changes (spec 01 §5.2)", () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    bench.updateQuestionMetadata(id, { question: "Q changed?" });
    expect(bench.hasTemplate(id)).toBe(true);
    expect(bench.getQuestion(id).id).toBe(id);
  });

  test("applyGlobalTemplate skips questions on the placeholder (seed 004) and fills empty ones", async () => {
    const doc = Benchmark.create({ name: "b" });
    const placeholder = doc.addQuestion("On placeholder?", "A");
    const empty = doc.addQuestion("Empty?", "A", { answerTemplate: "" });
    const real = doc.addQuestion("Real?", "A", { answerTemplate: CLASSIC_TEMPLATE });
    expect(await doc.applyGlobalTemplate("class Answer(BaseAnswer):\n    pass\n")).toEqual([empty]);
    expect(doc.hasTemplate(placeholder)).toBe(false);
    expect(doc.getTemplate(real)).toBe(CLASSIC_TEMPLATE);
    expect(doc.getTemplate(empty)).toBe("class Answer(BaseAnswer):\n    pass\n");
  });

  test("a JavaScript template keeps its language through a save", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A", {
      answerTemplate: { code: "export default {}", language: "JavaScript" },
    });
    const again = await roundTrip(bench);
    expect(again.getTemplateLanguage(id)).toBe("JavaScript");
    expect(again.getTemplate(id)).toBe("export default {}");
  });

  test("copyTemplate copies code and language; unknown ids are refused", async () => {
    const bench = Benchmark.create({ name: "b" });
    const from = bench.addQuestion("A?", "a", { answerTemplate: CLASSIC_TEMPLATE });
    const to = bench.addQuestion("B?", "b");
    await bench.copyTemplate(from, to);
    expect(bench.getTemplate(to)).toBe(CLASSIC_TEMPLATE);
    await expect(bench.addAnswerTemplate("nope", CLASSIC_TEMPLATE)).rejects.toThrow(QuestionNotFoundError);
  });

  test("getFinishedTemplates lists finished questions for the pipeline", () => {
    const bench = Benchmark.create({ name: "b" });
    const done = bench.addQuestion("A?".repeat(60), "a", { answerTemplate: CLASSIC_TEMPLATE });
    bench.addQuestion("B?", "b", { finished: false });
    const finished = bench.getFinishedTemplates();
    expect(finished.map((t) => t.question_id)).toEqual([done]);
    expect(finished[0]?.question_preview).toBe(`${"A?".repeat(50)}...`);
    expect(finished[0]?.template_code).toBe(CLASSIC_TEMPLATE);
  });
});

describe("the finished flag", () => {
  test("single, toggle and batch; unknown ids are ignored except by toggle", () => {
    const bench = Benchmark.create({ name: "b" });
    const a = bench.addQuestion("A?", "a", { finished: false });
    const b = bench.addQuestion("B?", "b", { finished: false });
    bench.markFinished(a);
    expect(bench.isFinished(a)).toBe(true);
    bench.markUnfinished(a);
    expect(bench.isFinished(a)).toBe(false);
    expect(bench.toggleFinished(a)).toBe(true);
    bench.markFinishedBatch([a, b, "unknown"]);
    expect(bench.finishedCount).toBe(2);
    bench.markUnfinishedBatch([b]);
    expect(bench.getUnfinishedQuestions().map((q) => q.id)).toEqual([b]);
    expect(bench.getFinishedQuestions().map((q) => q.id)).toEqual([a]);
    expect(() => bench.toggleFinished("unknown")).toThrow("Question not found: unknown");
    expect(bench.getProgress()).toBe(50);
  });

  test("survives a save and load", async () => {
    const bench = Benchmark.create({ name: "b" });
    const a = bench.addQuestion("A?", "a", { finished: false });
    bench.markFinished(a);
    expect((await roundTrip(bench)).isFinished(a)).toBe(true);
  });
});

describe("question data", () => {
  test("getQuestion, getQuestionMetadata and getQuestionAsObject", () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("What is the target?", "BCL2", {
      author: { name: "Dr. Smith" },
      sources: [{ title: "Paper" }],
      customMetadata: { difficulty: "hard" },
      fewShotExamples: [{ question: "Q", answer: "A" }],
      answerNotes: "accept Bcl-2",
      keywords: ["oncology"],
      workspacePath: "task_01",
      answerTemplate: CLASSIC_TEMPLATE,
    });
    const record = bench.getQuestion(id);
    expect(Object.keys(record)).toEqual([
      "id",
      "question",
      "raw_answer",
      "answer_template",
      "date_created",
      "date_modified",
      "author",
      "sources",
      "custom_metadata",
      "question_rubric",
      "keywords",
      "few_shot_examples",
      "answer_notes",
      "workspace_path",
    ]);
    expect(record).toMatchObject({
      author: { name: "Dr. Smith" },
      sources: [{ title: "Paper" }],
      custom_metadata: { difficulty: "hard" },
      few_shot_examples: [{ question: "Q", answer: "A" }],
      answer_notes: "accept Bcl-2",
      keywords: ["oncology"],
      workspace_path: "task_01",
    });
    const metadata = bench.getQuestionMetadata(id);
    expect(Object.keys(metadata)).toEqual([
      "id",
      "question",
      "raw_answer",
      "date_created",
      "date_modified",
      "finished",
      "author",
      "sources",
      "custom_metadata",
      "has_template",
      "has_rubric",
    ]);
    expect(metadata).toMatchObject({ finished: true, has_template: true, has_rubric: false });
    const q = bench.getQuestionAsObject(id);
    expect(q).toBeInstanceOf(Question);
    expect(q.keywords).toEqual(["oncology"]);
    expect(q.workspace_path).toBe("task_01");
    expect(() => bench.getQuestion("nope")).toThrow(QuestionNotFoundError);
  });

  test("question custom properties: set, get, remove; null when there are none", () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    expect(bench.getQuestionCustomProperty(id, "reviewed_by")).toBeNull();
    bench.setQuestionCustomProperty(id, "reviewed_by", "Dr. Jones");
    bench.setQuestionCustomProperty(id, "confidence", "high");
    expect(bench.getQuestionCustomProperty(id, "reviewed_by")).toBe("Dr. Jones");
    expect(bench.removeQuestionCustomProperty(id, "reviewed_by")).toBe(true);
    expect(bench.removeQuestionCustomProperty(id, "reviewed_by")).toBe(false);
    expect(bench.getQuestion(id).custom_metadata).toEqual({ confidence: "high" });
    bench.removeQuestionCustomProperty(id, "confidence");
    expect(bench.getQuestion(id).custom_metadata).toBeNull();
  });

  test("benchmark custom properties", () => {
    const bench = Benchmark.create({ name: "b" });
    bench.setCustomProperty("domain", "pharmacology");
    bench.setMultipleCustomProperties({ audience: "teams", domain: "oncology" });
    expect(bench.getCustomProperty("domain")).toBe("oncology");
    expect(bench.getAllCustomProperties()).toEqual({
      benchmark_format_version: "3.0.0-jsonld",
      domain: "oncology",
      audience: "teams",
    });
    expect(bench.removeCustomProperty("audience")).toBe(true);
    expect(bench.getCustomProperty("audience")).toBeNull();
  });

  test("metadata setters bump the modification date", async () => {
    const bench = Benchmark.create({ name: "b" });
    const before = bench.modifiedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    bench.setMetadata({ version: "2.0.0", creator: "team" });
    expect(bench.version).toBe("2.0.0");
    expect(bench.creator).toBe("team");
    expect(bench.modifiedAt).not.toBe(before);
  });
});

describe("queries", () => {
  function sample(): { bench: Benchmark; ids: string[] } {
    const bench = Benchmark.create({ name: "b" });
    const ids = [
      bench.addQuestion("What is the target of venetoclax?", "BCL2", {
        answerTemplate: CLASSIC_TEMPLATE,
        author: { name: "Dr. Smith" },
        customMetadata: { domain: "pharmacology", difficulty: "hard" },
      }),
      bench.addQuestion("What is the mechanism of venetoclax?", "BH3 mimetic", {
        finished: false,
        customMetadata: { domain: "pharmacology", difficulty: "easy" },
      }),
      bench.addQuestion("What is the capital of France?", "Paris", {
        author: { name: "Ann Jones" },
        keywords: ["geo"],
      }),
    ];
    return { bench, ids };
  }

  test("filterQuestions combines criteria", () => {
    const { bench, ids } = sample();
    expect(bench.filterQuestions({ finished: true }).map((q) => q.id)).toEqual([ids[0], ids[2]]);
    expect(bench.filterQuestions({ hasTemplate: true }).map((q) => q.id)).toEqual([ids[0]]);
    expect(bench.filterQuestions({ finished: true, hasTemplate: false }).map((q) => q.id)).toEqual([ids[2]]);
    expect(bench.filterQuestions({ author: "smith" }).map((q) => q.id)).toEqual([ids[0]]);
    expect(
      bench
        .filterQuestions({
          customFilter: (q) => (q.custom_metadata as { difficulty: string }).difficulty === "easy",
        })
        .map((q) => q.id),
    ).toEqual([ids[1]]);
  });

  test("filterByCustomMetadata matches all or any pairs", () => {
    const { bench, ids } = sample();
    expect(
      bench.filterByCustomMetadata({ domain: "pharmacology", difficulty: "hard" }).map((q) => q.id),
    ).toEqual([ids[0]]);
    expect(
      bench.filterByCustomMetadata({ difficulty: "hard", domain: "x" }, { matchAll: false }).map((q) => q.id),
    ).toEqual([ids[0]]);
  });

  test("filterByMetadata by dot path and mode", () => {
    const { bench, ids } = sample();
    expect(bench.filterByMetadata("custom_metadata.difficulty", "EAS", "contains").map((q) => q.id)).toEqual([
      ids[1],
    ]);
    expect(bench.filterByMetadata("keywords", "geo", "in").map((q) => q.id)).toEqual([ids[2]]);
    expect(bench.filterByMetadata("finished", false).map((q) => q.id)).toEqual([ids[1]]);
    expect(bench.filterByMetadata("question", "^what is the cap", "regex").map((q) => q.id)).toEqual([
      ids[2],
    ]);
    expect(() => bench.filterByMetadata("question", "x", "fuzzy" as never)).toThrow(/Invalid match mode/);
  });

  test("searchQuestions: substring, all/any terms, regex, fields", () => {
    const { bench, ids } = sample();
    expect(bench.searchQuestions("VENETOCLAX").map((q) => q.id)).toEqual([ids[0], ids[1]]);
    expect(bench.searchQuestions("VENETOCLAX", { caseSensitive: true })).toEqual([]);
    expect(bench.searchQuestions(["target", "France"], { matchAll: false }).map((q) => q.id)).toEqual([
      ids[0],
      ids[2],
    ]);
    expect(bench.searchQuestions(["target", "venetoclax"]).map((q) => q.id)).toEqual([ids[0]]);
    expect(bench.searchQuestions("^what is the (target|capital)", { regex: true }).map((q) => q.id)).toEqual([
      ids[0],
      ids[2],
    ]);
    expect(bench.searchQuestions("paris", { fields: ["raw_answer"] }).map((q) => q.id)).toEqual([ids[2]]);
    expect(bench.searchQuestions([])).toEqual([]);
  });

  test("countByField", () => {
    const { bench } = sample();
    expect(bench.countByField("finished")).toEqual({ true: 2, false: 1 });
    expect(bench.countByField("custom_metadata.domain")).toEqual({ pharmacology: 2, null: 1 });
  });
});

describe("readiness and health", () => {
  const syntaxOk = async () => null;

  test("an empty benchmark is not ready and scores 0", async () => {
    const bench = Benchmark.create({ name: "b" });
    const report = await bench.getHealthReport(syntaxOk);
    expect(report.readiness.ready_for_verification).toBe(false);
    expect(report.health_score).toBe(0);
    expect(report.health_status).toBe("critical");
    expect(report.recommendations[0]).toBe("Add questions to the benchmark");
  });

  test("readiness lists missing templates and unfinished questions", async () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("A?", "a", { answerTemplate: CLASSIC_TEMPLATE });
    const b = bench.addQuestion("B?", "b", { finished: false });
    const report = await bench.checkReadiness(syntaxOk);
    expect(report).toMatchObject({
      ready_for_verification: false,
      has_questions: true,
      all_have_templates: false,
      all_finished: false,
      missing_templates: [b],
      unfinished_questions: [b],
      unfinished_count: 1,
    });
    await bench.addAnswerTemplate(b, CLASSIC_TEMPLATE);
    bench.markFinished(b);
    expect((await bench.checkReadiness(syntaxOk)).ready_for_verification).toBe(true);
  });

  test("the health score follows seed 004's table", async () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("A?", "a", { answerTemplate: CLASSIC_TEMPLATE });
    bench.addQuestion("B?", "b", { finished: false });
    bench.addQuestion("C?", "c", { finished: false });
    // 20 (questions) + int(33.3% of 30) = 9 + 25 (templates parse) + 15 (rubrics) + 0 (not all finished)
    let report = await bench.getHealthReport(syntaxOk);
    expect(report.health_score).toBe(69);
    expect(report.health_status).toBe("fair");
    expect(report.recommendations).toEqual([
      "Add templates to 2 questions",
      "Mark 2.0 questions as finished",
      "Consider adding more questions for a robust benchmark",
      "Consider adding a global rubric for consistent evaluation",
    ]);
    report = await bench.getHealthReport(async () => "Syntax error: invalid syntax at line 1");
    expect(report.health_score).toBe(44);
    expect(report.health_status).toBe("poor");
    expect(report.readiness.template_errors).toHaveLength(3);
    bench.markFinishedBatch(bench.getQuestionIds());
    report = await bench.getHealthReport(syntaxOk);
    expect(report.health_score).toBe(100);
    expect(report.health_status).toBe("excellent");
  });
});

describe("the collection protocol", () => {
  test("size, membership, iteration, index and slice", () => {
    const bench = Benchmark.create({ name: "b" });
    const ids = ["A?", "B?", "C?"].map((text) => bench.addQuestion(text, "x"));
    expect(bench.size).toBe(3);
    expect(bench.has(ids[1] as string)).toBe(true);
    expect(bench.has("nope")).toBe(false);
    expect([...bench].map((q) => q.question)).toEqual(["A?", "B?", "C?"]);
    expect(bench.at(0).text).toBe("A?");
    expect(bench.at(-1).text).toBe("C?");
    expect(() => bench.at(3)).toThrow("Question index 3 out of range (0-2)");
    expect(bench.slice(0, 2).map((q) => q.text)).toEqual(["A?", "B?"]);
    const view = bench.get(ids[0] as string);
    expect(view["@id"]).toBe(ids[0]);
    expect(view.acceptedAnswer["@id"]).toBe(`${ids[0]}-answer`);
    expect(view.hasPart.name).toBe("A?... Answer Template");
    expect(view.additionalProperty).toEqual([{ "@type": "PropertyValue", name: "finished", value: true }]);
  });

  test("equality compares name, version and question records", async () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("A?", "a");
    const again = await roundTrip(bench);
    expect(again.equals(bench)).toBe(true);
    again.addQuestion("B?", "b");
    expect(again.equals(bench)).toBe(false);
  });
});

describe("saving and loading", () => {
  test("every field survives a round trip", async () => {
    const bench = Benchmark.create({ name: "Full", description: "d", version: "1.2.3", creator: "me" });
    const id = bench.addQuestion("What is the target?", "BCL2", {
      answerTemplate: CLASSIC_TEMPLATE,
      author: { name: "Zoë" },
      sources: [{ title: "Paper", year: 2020 }],
      customMetadata: { difficulty: "hard", score: 3 },
      fewShotExamples: [{ question: "Q", answer: "A" }],
      answerNotes: "notes",
      keywords: ["k1", "k2"],
      workspacePath: "task_01",
      finished: false,
    });
    bench.setCustomProperty("domain", { nested: [1, 2] });
    const again = await roundTrip(bench);
    expect(again.getQuestion(id)).toEqual(bench.getQuestion(id));
    expect(again.isFinished(id)).toBe(false);
    expect(again.getAllCustomProperties()).toEqual(bench.getAllCustomProperties());
    expect([again.name, again.description, again.version, again.creator]).toEqual([
      "Full",
      "d",
      "1.2.3",
      "me",
    ]);
  });

  test("the file is written as the original writes it", async () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("Q?", "A", { author: { name: "Zoë" } });
    const file = join(await tempDir(), "b.jsonld");
    await bench.save(file);
    const text = await readFile(file, "utf8");
    expect(text.endsWith("}")).toBe(true);
    expect(text).toContain('"name": "author",\n');
    expect(text).toContain(String.raw`"value": "{\"name\": \"Zo\\u00eb\"}"`);
    expect(text.indexOf('"@context"')).toBeLessThan(text.indexOf('"@type": "DataFeed"'));
    expect(text).not.toContain("null");
  });

  test("an extension other than .json/.jsonld becomes .jsonld", async () => {
    const dir = await tempDir();
    const written = await Benchmark.create({ name: "b" }).save(join(dir, "bench.txt"));
    expect(written).toBe(join(dir, "bench.jsonld"));
    expect((await stat(written)).isFile()).toBe(true);
  });

  test("a failed save leaves the previous file intact", async () => {
    const dir = await tempDir();
    const file = join(dir, "bench.jsonld");
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("Q?", "A");
    await bench.save(file);
    const before = await readFile(file, "utf8");
    bench.setCustomProperty("breaks", {
      toJSON: () => {
        throw new Error("cannot serialize");
      },
    });
    await expect(bench.save(file)).rejects.toThrow("cannot serialize");
    expect(await readFile(file, "utf8")).toBe(before);
    const target = join(dir, "a-directory.jsonld");
    await mkdir(target);
    bench.removeCustomProperty("breaks");
    await expect(bench.save(target)).rejects.toThrow(CheckpointFileError);
    await expect(bench.save(target)).rejects.toThrow(/previous file is unchanged/);
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  test("unknown properties and keys are kept", async () => {
    const dir = await tempDir();
    const file = join(dir, "b.jsonld");
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("Q?", "A", { questionId: "q" });
    await bench.save(file);
    const doc = JSON.parse(await readFile(file, "utf8"));
    doc.additionalProperty.push({
      "@type": "PropertyValue",
      name: "conversion_metadata",
      value: { by: "gui" },
    });
    doc.dataFeedElement[0].item.additionalProperty.push({
      "@type": "PropertyValue",
      name: "original_answer_template",
      value: "x",
    });
    doc.dataFeedElement[0].item.extraKey = { kept: true };
    await writeFile(file, JSON.stringify(doc));
    const loaded = await Benchmark.load(file);
    loaded.markUnfinished("q");
    await loaded.save(file);
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved.additionalProperty.at(-1)).toEqual({
      "@type": "PropertyValue",
      name: "conversion_metadata",
      value: { by: "gui" },
    });
    expect(saved.dataFeedElement[0].item.additionalProperty).toContainEqual({
      "@type": "PropertyValue",
      name: "original_answer_template",
      value: "x",
    });
    expect(saved.dataFeedElement[0].item.extraKey).toEqual({ kept: true });
    expect(loaded.getQuestion("q").custom_metadata).toBeNull();
  });

  test("workspace paths stay relative; the root is given at load and never saved", async () => {
    const bench = Benchmark.create({ name: "b", workspaceRoot: "/tmp/ws-a" });
    const id = bench.addQuestion("Q?", "A", { workspacePath: "task_01" });
    expect(bench.resolveWorkspace(id)).toBe("/tmp/ws-a/task_01");
    expect(bench.serialize()).not.toContain("/tmp/ws-a");
    const again = await roundTrip(bench, { workspaceRoot: "/srv/ws" });
    expect(again.getQuestion(id).workspace_path).toBe("task_01");
    expect(again.resolveWorkspace(id)).toBe("/srv/ws/task_01");
  });

  test.each([
    ["/etc/passwd", /absolute/],
    ["../outside", /climbs out/],
    ["a/../../b", /climbs out/],
    ["C:\\Windows", /absolute/],
  ])("a workspace_path %j is refused at load", async (path, reason) => {
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("Q?", "A", { questionId: "q" });
    const doc = JSON.parse(bench.serialize());
    doc.dataFeedElement[0].item.additionalProperty.push({
      "@type": "PropertyValue",
      name: "workspace_path",
      value: path,
    });
    const error = (() => {
      try {
        Benchmark.parse(JSON.stringify(doc), { file: "w.jsonld" });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toMatch(
      /^w\.jsonld: \$\.dataFeedElement\[0\]\.item\.additionalProperty\[1\]\.value: /,
    );
    expect((error as Error).message).toMatch(reason);
  });

  test("finished accepts the original's lax booleans and refuses anything else", () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion("Q?", "A", { questionId: "q" });
    const withFinished = (value: unknown) => {
      const doc = JSON.parse(bench.serialize());
      doc.dataFeedElement[0].item.additionalProperty[0] =
        value === undefined
          ? { "@type": "PropertyValue", name: "finished" }
          : { "@type": "PropertyValue", name: "finished", value };
      return JSON.stringify(doc);
    };
    expect(Benchmark.parse(withFinished("yes")).isFinished("q")).toBe(true);
    expect(Benchmark.parse(withFinished(0)).isFinished("q")).toBe(false);
    expect(() => Benchmark.parse(withFinished("maybe"), { file: "f.jsonld" })).toThrow(
      'f.jsonld: $.dataFeedElement[0].item.additionalProperty[0].value: expected a boolean for `finished`, found a string "maybe"',
    );
    expect(() => Benchmark.parse(withFinished(undefined))).toThrow(
      /expected a boolean for `finished`, found nothing/,
    );
  });
});

describe("the complete example of spec 01 §6.13", () => {
  const EXAMPLE = {
    "@context": {},
    "@type": "DataFeed",
    "@id": "urn:uuid:karenina-checkpoint-1767261600.5",
    name: "Enzyme Facts Mini",
    description: "Two-trait demo benchmark",
    version: "1.0.0",
    creator: "Spec Team",
    dateCreated: "2026-01-01T10:00:00.500000",
    dateModified: "2026-01-01T10:05:00.250000",
    rating: [
      {
        "@type": "Rating",
        name: "clarity",
        description: "How clear is the answer (1 = confusing, 5 = crystal clear)?",
        bestRating: 5.0,
        worstRating: 1.0,
        additionalType: "karenina:GlobalRubricTrait",
        additionalProperty: [
          { "@type": "PropertyValue", name: "higher_is_better", value: true },
          { "@type": "PropertyValue", name: "min_score", value: 1 },
          { "@type": "PropertyValue", name: "max_score", value: 5 },
        ],
      },
      {
        "@type": "Rating",
        name: "has_citation",
        description: "Contains a bracketed numeric citation such as [1]",
        bestRating: 1.0,
        worstRating: 0.0,
        additionalType: "karenina:GlobalRegexTrait",
        additionalProperty: [
          { "@type": "PropertyValue", name: "pattern", value: "\\[\\d+\\]" },
          { "@type": "PropertyValue", name: "case_sensitive", value: true },
          { "@type": "PropertyValue", name: "invert_result", value: false },
          { "@type": "PropertyValue", name: "higher_is_better", value: true },
        ],
      },
    ],
    dataFeedElement: [
      {
        "@type": "DataFeedItem",
        "@id": "urn:uuid:question-which-enzyme-does-aspirin-irreversibly-inhibit-616603af",
        dateCreated: "2026-01-01T10:01:00.000100",
        dateModified: "2026-01-01T10:04:00.000200",
        item: {
          "@type": "Question",
          text: "Which enzyme does aspirin irreversibly inhibit?",
          acceptedAnswer: { "@type": "Answer", text: "Cyclooxygenase (COX-1 and COX-2)" },
          hasPart: {
            "@type": "SoftwareSourceCode",
            name: "x",
            text: CLASSIC_TEMPLATE,
            programmingLanguage: "Python",
          },
          rating: [
            {
              "@type": "Rating",
              name: "mentions_acetylation",
              description: "True if the answer explains that aspirin acetylates a serine residue",
              bestRating: 1.0,
              worstRating: 0.0,
              additionalType: "karenina:QuestionSpecificRubricTrait",
              additionalProperty: [
                { "@type": "PropertyValue", name: "higher_is_better", value: true },
                { "@type": "PropertyValue", name: "min_score", value: 1 },
                { "@type": "PropertyValue", name: "max_score", value: 5 },
              ],
            },
          ],
          additionalProperty: [
            { "@type": "PropertyValue", name: "finished", value: true },
            { "@type": "PropertyValue", name: "author", value: '{"name": "R. Vane"}' },
            { "@type": "PropertyValue", name: "custom_difficulty", value: "easy" },
            { "@type": "PropertyValue", name: "answer_notes", value: "Accept COX or cyclooxygenase" },
          ],
          keywords: ["pharmacology", "enzymes"],
        },
      },
    ],
    additionalProperty: [
      { "@type": "PropertyValue", name: "benchmark_format_version", value: "3.0.0-jsonld" },
    ],
  };

  test("loads as the spec says", () => {
    const bench = Benchmark.parse(JSON.stringify(EXAMPLE));
    const id = "urn:uuid:question-which-enzyme-does-aspirin-irreversibly-inhibit-616603af";
    expect(bench.getQuestionIds()).toEqual([id]);
    expect(bench.isFinished(id)).toBe(true);
    const q = bench.getQuestion(id);
    expect(q.author).toEqual({ name: "R. Vane" });
    expect(q.custom_metadata).toEqual({ difficulty: "easy" });
    expect(q.keywords).toEqual(["pharmacology", "enzymes"]);
    expect(bench.hasTemplate(id)).toBe(true);
    expect(bench.getGlobalRubric()?.llm_traits.map((t) => [t.name, t.kind])).toEqual([["clarity", "score"]]);
    expect(bench.getGlobalRubric()?.regex_traits.map((t) => t.name)).toEqual(["has_citation"]);
    expect(q.question_rubric?.llm_traits.map((t) => [t.name, t.kind])).toEqual([
      ["mentions_acetylation", "boolean"],
    ]);
    const merged = bench.getMergedRubricForQuestion(id).rubric;
    expect([...(merged?.llm_traits ?? []), ...(merged?.regex_traits ?? [])].map((t) => t.name)).toEqual([
      "clarity",
      "mentions_acetylation",
      "has_citation",
    ]);
  });

  test("saves back to the same tree but for @context and the modification date", () => {
    const bench = Benchmark.parse(JSON.stringify(EXAMPLE));
    const saved = JSON.parse(bench.serialize());
    expect({ ...saved, "@context": {} }).toEqual(EXAMPLE);
    expect(bench.serialize()).toContain('"bestRating": 5.0,');
    expect(bench.serialize()).toContain('"worstRating": 0.0,');
  });
});

describe("rubrics", () => {
  test("global and question traits are stored, merged and survive a save", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    bench.setGlobalRubric([{ type: "llm", name: "conciseness", kind: "boolean", description: "Concise?" }]);
    bench.addGlobalRubricTrait({ type: "regex", name: "cites", pattern: String.raw`\[\d+\]` });
    bench.addQuestionRubricTrait(id, { type: "regex", name: "mentions_bcl2", pattern: "(?i)bcl[-\\s]?2" });
    expect(bench.getQuestionsWithRubric().map((q) => q.id)).toEqual([id]);
    const again = await roundTrip(bench);
    expect(again.getGlobalRubric()).toEqual(bench.getGlobalRubric());
    expect(again.getQuestionRubric(id)?.regex_traits.map((t) => t.name)).toEqual(["mentions_bcl2"]);
    const merged = again.getMergedRubricForQuestion(id);
    expect(merged.provenance).toEqual({
      conciseness: "global",
      cites: "global",
      mentions_bcl2: "question_specific",
    });
  });

  test("a question trait with a global trait's name replaces it for that question, with a warning (seed 004)", () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    const other = bench.addQuestion("Other?", "A");
    bench.setGlobalRubric([{ type: "llm", name: "clarity", kind: "score" }]);
    bench.addQuestionRubricTrait(id, { type: "llm", name: "clarity", kind: "boolean" });
    const merged = bench.getMergedRubricForQuestion(id);
    expect(merged.rubric?.llm_traits.map((t) => [t.name, t.kind])).toEqual([["clarity", "boolean"]]);
    expect(merged.warnings).toHaveLength(1);
    expect(merged.warnings[0]).toContain('"clarity"');
    expect(bench.getMergedRubricForQuestion(other).rubric?.llm_traits.map((t) => t.kind)).toEqual(["score"]);
  });

  test("adding a global trait keeps the stored ratings of the others untouched", () => {
    const doc = JSON.parse(Benchmark.create({ name: "b" }).serialize());
    doc.rating = [
      {
        "@type": "Rating",
        "@id": "urn:x:r1",
        name: "r1",
        bestRating: 1,
        worstRating: 0,
        additionalType: "karenina:GlobalRegexTrait",
        additionalProperty: [
          { "@type": "PropertyValue", name: "pattern", value: "x" },
          { "@type": "PropertyValue", name: "gui_note", value: "kept" },
        ],
      },
    ];
    const bench = Benchmark.parse(JSON.stringify(doc));
    bench.addGlobalRubricTrait({ type: "regex", name: "r2", pattern: "y" });
    const saved = JSON.parse(bench.serialize());
    expect(saved.rating[0]["@id"]).toBe("urn:x:r1");
    expect(saved.rating[0].additionalProperty).toContainEqual({
      "@type": "PropertyValue",
      name: "gui_note",
      value: "kept",
    });
    expect(saved.rating[1].name).toBe("r2");
  });

  test("setting, clearing and validating rubrics", () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    bench.setQuestionRubric(id, { regex_traits: [{ name: "r", pattern: "x" }] });
    expect(bench.validateRubrics()).toEqual([
      { source: `question:${id}`, error: expect.stringContaining("description") },
    ]);
    bench.setGlobalRubric([{ type: "llm", name: "g", kind: "boolean", description: "d" }]);
    expect(bench.clearAllRubrics()).toBe(2);
    expect(bench.getGlobalRubric()).toBeNull();
    expect(bench.getQuestionRubric(id)).toBeNull();
    expect(bench.removeQuestionRubric(id)).toBe(false);
    expect(() => bench.setGlobalRubric([{ type: "regex", name: "bad", pattern: "(" }])).toThrow(/pattern/);
    expect(() =>
      bench.setGlobalRubric([
        { type: "regex", name: "dup", pattern: "x" },
        { type: "llm", name: "dup", kind: "boolean" },
      ]),
    ).toThrow(/dup/);
  });
});
