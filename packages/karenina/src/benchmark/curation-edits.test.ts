import { describe, expect, test } from "vitest";
import { CheckpointError } from "../checkpoint/index.js";
import { PROTO_KEY } from "../plain-data/index.js";
import {
  Benchmark,
  BenchmarkUsageError,
  benchmarkFromLegacyCheckpoint,
  datasetMetadataOf,
  readAnyCheckpoint,
  setDatasetMetadata,
} from "./index.js";

function demo(): { bench: Benchmark; id: string } {
  const bench = Benchmark.create({ name: "demo" });
  const id = bench.addQuestion("What is 2+2?", "4", { keywords: ["math"], finished: false });
  return { bench, id };
}

describe("Benchmark.updateQuestion", () => {
  test("sets every curator field, keeps the id, stamps date_modified, and survives a save and load", async () => {
    const { bench, id } = demo();
    const before = bench.getQuestion(id).date_modified;
    await new Promise((resolve) => setTimeout(resolve, 2));
    bench.updateQuestion(id, {
      question: "What is two plus two?",
      raw_answer: "four",
      answer_template: "not yet valid python (",
      template_language: "JavaScript",
      finished: true,
      author: { name: "Ada" },
      sources: [{ title: "Arithmetic" }],
      keywords: null,
      custom_metadata: { level: 1 },
      few_shot_examples: [{ question: "1+1?", answer: "2" }],
      answer_notes: "easy",
    });
    const reloaded = Benchmark.parse(bench.serialize());
    const record = reloaded.getQuestion(id);
    expect(record).toMatchObject({
      question: "What is two plus two?",
      raw_answer: "four",
      answer_template: "not yet valid python (",
      author: { name: "Ada" },
      sources: [{ title: "Arithmetic" }],
      keywords: null,
      custom_metadata: { level: 1 },
      few_shot_examples: [{ question: "1+1?", answer: "2" }],
      answer_notes: "easy",
    });
    expect(record.date_modified).not.toBe(before);
    expect(reloaded.getTemplateLanguage(id)).toBe("JavaScript");
    expect(reloaded.isFinished(id)).toBe(true);
  });

  test("custom_metadata replaces every custom property; null removes a field", () => {
    const { bench, id } = demo();
    bench.updateQuestion(id, { custom_metadata: { a: 1, b: 2 }, answer_notes: "n" });
    bench.updateQuestion(id, { custom_metadata: { b: 3 }, answer_notes: null });
    expect(bench.getQuestion(id).custom_metadata).toEqual({ b: 3 });
    expect(bench.getQuestion(id).answer_notes).toBeNull();
  });

  test("attack: a __proto__ custom key stays data and pollutes nothing", () => {
    const { bench, id } = demo();
    const custom = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as Record<string, unknown>;
    bench.updateQuestion(id, { custom_metadata: custom });
    const reloaded = Benchmark.parse(bench.serialize());
    const stored = reloaded.getQuestion(id).custom_metadata as Record<string, unknown>;
    expect(Object.hasOwn(stored, PROTO_KEY)).toBe(true);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("Benchmark.reorderQuestions", () => {
  test("puts the questions in the given order, saved so", () => {
    const bench = Benchmark.create({ name: "demo" });
    const ids = ["a", "b", "c"].map((x) => bench.addQuestion(`Q ${x}?`, x));
    bench.reorderQuestions([ids[2], ids[0], ids[1]] as string[]);
    expect(Benchmark.parse(bench.serialize()).getQuestionIds()).toEqual([ids[2], ids[0], ids[1]]);
  });

  test("refuses an order that does not list every id exactly once", () => {
    const bench = Benchmark.create({ name: "demo" });
    const a = bench.addQuestion("Q a?", "a");
    bench.addQuestion("Q b?", "b");
    expect(() => bench.reorderQuestions([a])).toThrow(BenchmarkUsageError);
    expect(() => bench.reorderQuestions([a, a])).toThrow(/every question id once/);
  });
});

describe("dataset metadata", () => {
  test("name/description/version/creator are the benchmark's fields; the rest custom properties", () => {
    const { bench } = demo();
    setDatasetMetadata(bench, {
      description: "Sums",
      version: "2.0.0",
      creator: { "@type": "Organization", name: "Lab", url: "https://lab.example" },
      license: "MIT",
      keywords: ["math"],
      publisher: "Press",
      custom: { domain: "arithmetic" },
    });
    const reloaded = Benchmark.parse(bench.serialize());
    expect(reloaded.creator).toBe("Lab");
    expect(reloaded.getCustomProperty("license")).toBe("MIT");
    expect(datasetMetadataOf(reloaded)).toMatchObject({
      name: "demo",
      description: "Sums",
      version: "2.0.0",
      creator: { "@type": "Organization", name: "Lab", url: "https://lab.example" },
      license: "MIT",
      keywords: ["math"],
      publisher: "Press",
      custom: { domain: "arithmetic" },
    });
    setDatasetMetadata(bench, { creator: "Ada", license: null, keywords: [], custom: {} });
    expect(datasetMetadataOf(bench)).toMatchObject({
      creator: "Ada",
      license: null,
      keywords: [],
      custom: {},
    });
    expect(bench.getCustomProperty("benchmark_format_version")).toBe("3.0.0-jsonld");
  });
});

const legacyFile = () => ({
  version: "2.0",
  checkpoint: {
    "q-1": {
      question: "What is 2+2?",
      raw_answer: "4",
      original_answer_template: "class Answer(BaseAnswer):\n    pass\n",
      answer_template: "class Answer(BaseAnswer):\n    value: int\n",
      last_modified: "2024-05-01T10:00:00",
      date_created: "2024-04-01T10:00:00",
      finished: true,
      keywords: ["math"],
      custom_metadata: { level: "easy" },
      question_rubric: { llm_traits: [{ name: "exact", description: "Exact?", kind: "boolean" }] },
    },
    "q-2": {
      question: "Capital of France?",
      raw_answer: "Paris",
      original_answer_template: "",
      answer_template: "",
      last_modified: "2024-05-02T10:00:00",
      finished: false,
    },
  },
  global_rubric: { traits: [{ name: "clear", description: "Is it clear?", kind: "boolean" }] },
  dataset_metadata: { name: "Legacy set", description: "Old GUI", version: "1.2.0", creator: "Ada" },
});

describe("legacy v2.0 checkpoints", () => {
  test("converts items, dates, rubrics and dataset metadata", () => {
    const { benchmark, format } = readAnyCheckpoint(JSON.stringify(legacyFile()), { file: "old.json" });
    expect(format).toBe("legacy-v2");
    expect(benchmark.name).toBe("Legacy set");
    expect(benchmark.version).toBe("1.2.0");
    expect(benchmark.creator).toBe("Ada");
    expect(benchmark.getQuestionIds()).toEqual(["q-1", "q-2"]);
    expect(benchmark.getQuestion("q-1")).toMatchObject({
      answer_template: "class Answer(BaseAnswer):\n    value: int\n",
      date_created: "2024-04-01T10:00:00",
      date_modified: "2024-05-01T10:00:00",
      keywords: ["math"],
      custom_metadata: { level: "easy" },
    });
    expect(benchmark.isFinished("q-1")).toBe(true);
    expect(benchmark.isFinished("q-2")).toBe(false);
    expect(benchmark.getQuestionRubric("q-1")?.llm_traits[0]?.name).toBe("exact");
    expect(benchmark.getGlobalRubric()?.llm_traits[0]?.name).toBe("clear");
    const item = benchmark.toCheckpoint().dataFeedElement[0];
    expect(item?.item.additionalProperty?.find((p) => p.name === "original_answer_template")?.value).toBe(
      "class Answer(BaseAnswer):\n    pass\n",
    );
  });

  test("attack: a wrong type is refused naming the item and the field", () => {
    const file = legacyFile();
    (file.checkpoint["q-2"] as Record<string, unknown>).finished = "yes";
    let error: unknown;
    try {
      benchmarkFromLegacyCheckpoint(JSON.parse(JSON.stringify(file)), "old.json");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toContain('$.checkpoint["q-2"].finished');
    expect((error as Error).message).toContain("old.json");
  });

  test("attack: a bad rubric in an item names that item's question_rubric", () => {
    const file = legacyFile();
    (file.checkpoint["q-1"] as Record<string, unknown>).question_rubric = { llm_traits: [{ name: 3 }] };
    expect(() => benchmarkFromLegacyCheckpoint(file, "old.json")).toThrow(
      /\$\.checkpoint\["q-1"\]\.question_rubric/,
    );
  });

  test("attack: a legacy file nested too deep or with a __proto__ key is refused by the file limits", () => {
    let deep = "1";
    for (let i = 0; i < 5000; i++) deep = `[${deep}]`;
    const nested = `{"version":"2.0","checkpoint":{},"global_rubric":${deep}}`;
    expect(() => readAnyCheckpoint(nested, { file: "deep.json" })).toThrow(CheckpointError);
    const proto = '{"version":"2.0","checkpoint":{"__proto__":{"question":"x"}}}';
    expect(() => readAnyCheckpoint(proto, { file: "proto.json" })).toThrow(/__proto__/);
  });

  test("JSON-LD text is read as a checkpoint", () => {
    const { bench } = demo();
    const { benchmark, format } = readAnyCheckpoint(bench.serialize());
    expect(format).toBe("jsonld");
    expect(benchmark.equals(bench)).toBe(true);
  });
});
