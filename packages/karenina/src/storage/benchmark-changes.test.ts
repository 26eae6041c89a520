import { afterEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { rawQuery, storageTargets } from "./__fixtures__/databases.js";
import { plannedPositions } from "./benchmark-changes.js";
import { openStorage, type Storage, StorageInputError, StorageNotFoundError } from "./index.js";

function benchmarkWith(name: string, ids: readonly string[]): Benchmark {
  const bench = Benchmark.create({ name, version: "1.0.0" });
  for (const id of ids)
    bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id, finished: false });
  return bench;
}

type MemberRow = { question_id: string; position: number; updated_at: string; item_json: string };

async function members(url: string, benchmark = "demo"): Promise<MemberRow[]> {
  const rows = await rawQuery(
    url,
    `select bq.question_id, bq.position, bq.updated_at, bq.item_json from benchmark_questions bq
     join benchmarks b on b.id = bq.benchmark_id where b.name = '${benchmark}' order by bq.position`,
  );
  return rows.map((row) => ({ ...(row as MemberRow), position: Number(row.position) }));
}

describe("plannedPositions", () => {
  test("keeps stored positions when the order is unchanged and new questions come last", () => {
    const stored = new Map([
      ["a", 0],
      ["c", 5],
    ]);
    expect([...plannedPositions(["a", "c", "d"], stored)]).toEqual([
      ["a", 0],
      ["c", 5],
      ["d", 6],
    ]);
  });

  test("renumbers every question when the order changed or a question is inserted in the middle", () => {
    const stored = new Map([
      ["a", 0],
      ["b", 1],
    ]);
    expect([...plannedPositions(["b", "a"], stored)]).toEqual([
      ["b", 0],
      ["a", 1],
    ]);
    expect([...plannedPositions(["a", "n", "b"], stored)]).toEqual([
      ["a", 0],
      ["n", 1],
      ["b", 2],
    ]);
  });
});

for (const target of storageTargets()) {
  describe(`saveBenchmarkChanges on ${target.name}`, () => {
    let storage: Storage | undefined;
    afterEach(async () => {
      await storage?.close();
      storage = undefined;
    });

    async function stored(ids: readonly string[]): Promise<{ url: string; storage: Storage }> {
      const url = await target.fresh();
      storage = await openStorage(url);
      await storage.saveBenchmark(benchmarkWith("demo", ids));
      return { url, storage };
    }

    test("writes only the changed question's rows; the others keep their row as it was", async () => {
      const { url, storage } = await stored(["a", "b", "c"]);
      const before = await members(url);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const saved = await storage.saveBenchmarkChanges("demo", (bench) => {
        bench.updateQuestion("b", { raw_answer: "New answer", finished: true });
        return { changed: ["b"], removed: [] };
      });
      expect(saved.repositioned).toBe(0);
      const after = await members(url);
      expect(after.map((m) => m.question_id)).toEqual(["a", "b", "c"]);
      expect(after[0]).toEqual(before[0]);
      expect(after[2]).toEqual(before[2]);
      expect(after[1]?.updated_at).not.toBe(before[1]?.updated_at);
      const reloaded = await storage.loadBenchmark("demo");
      expect(reloaded.getQuestion("b").raw_answer).toBe("New answer");
      expect(reloaded.isFinished("b")).toBe(true);
      const shared = await rawQuery(url, "select raw_answer from questions where id = 'b'");
      expect(shared[0]?.raw_answer).toBe("New answer");
    });

    test("adds, removes and reorders in one save; positions follow the new order", async () => {
      const { url, storage } = await stored(["a", "b", "c"]);
      await storage.saveBenchmarkChanges("demo", (bench) => {
        bench.removeQuestion("a");
        bench.addQuestion("Question n?", "Answer n", { questionId: "n" });
        bench.reorderQuestions(["c", "n", "b"]);
        return { changed: ["n"], removed: ["a"] };
      });
      expect((await members(url)).map((m) => [m.question_id, m.position])).toEqual([
        ["c", 0],
        ["n", 1],
        ["b", 2],
      ]);
      expect((await storage.loadBenchmark("demo")).getQuestionIds()).toEqual(["c", "n", "b"]);
    });

    test("a failing edit writes nothing (one transaction)", async () => {
      const { url, storage } = await stored(["a", "b"]);
      const before = await members(url);
      await expect(
        storage.saveBenchmarkChanges("demo", (bench) => {
          bench.removeQuestion("a");
          bench.updateQuestion("b", { question: "Changed?" });
          throw new Error("refused by the edit");
        }),
      ).rejects.toThrow(/refused by the edit/);
      expect(await members(url)).toEqual(before);
    });

    test("a changed id the benchmark lacks, a rename and an unknown benchmark are refused", async () => {
      const { storage } = await stored(["a"]);
      await expect(
        storage.saveBenchmarkChanges("demo", () => ({ changed: ["zz"], removed: [] })),
      ).rejects.toThrow(StorageInputError);
      await expect(
        storage.saveBenchmarkChanges("demo", (bench) => {
          bench.name = "other";
          return { changed: [], removed: [] };
        }),
      ).rejects.toThrow(/cannot be renamed/);
      await expect(
        storage.saveBenchmarkChanges("missing", () => ({ changed: [], removed: [] })),
      ).rejects.toThrow(StorageNotFoundError);
      expect((await storage.loadBenchmark("demo")).name).toBe("demo");
    });

    test("metadata and the global rubric are stored with the benchmark row", async () => {
      const { storage } = await stored(["a"]);
      await storage.saveBenchmarkChanges("demo", (bench) => {
        bench.description = "Edited";
        bench.setGlobalRubric({
          llm_traits: [{ name: "clear", description: "Is it clear?", kind: "boolean" }],
        });
        return { changed: [], removed: [] };
      });
      const reloaded = await storage.loadBenchmark("demo");
      expect(reloaded.description).toBe("Edited");
      expect(reloaded.getGlobalRubric()?.llm_traits.map((t) => t.name)).toEqual(["clear"]);
      expect((await storage.listBenchmarks())[0]?.description).toBe("Edited");
    });

    test("two concurrent edits of different questions both persist", async () => {
      const { storage } = await stored(["a", "b"]);
      await Promise.all([
        storage.saveBenchmarkChanges("demo", (bench) => {
          bench.updateQuestion("a", { raw_answer: "A2" });
          return { changed: ["a"], removed: [] };
        }),
        storage.saveBenchmarkChanges("demo", (bench) => {
          bench.updateQuestion("b", { raw_answer: "B2" });
          bench.description = "from the second edit";
          return { changed: ["b"], removed: [] };
        }),
      ]);
      const reloaded = await storage.loadBenchmark("demo");
      expect(reloaded.getQuestion("a").raw_answer).toBe("A2");
      expect(reloaded.getQuestion("b").raw_answer).toBe("B2");
      expect(reloaded.description).toBe("from the second edit");
    });
  });
}
