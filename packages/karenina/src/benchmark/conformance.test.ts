import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CHECKPOINT_CONTEXT } from "../checkpoint/index.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { Benchmark } from "./benchmark.js";

type Json = Record<string, unknown>;

/**
 * The normalisations a save applies on purpose, each named:
 * - "standard @context": every save writes the current `@context` (spec 01 §6.2);
 * - "dateModified bumped": saving sets the root `dateModified` to now (spec 01 §8);
 * - "deep-judgment settings stripped": `deep_judgment_*` properties of LLM traits are dropped unless asked (§6.10).
 */
function normaliseAsSaveDoes(original: Json, saved: Json): Json {
  const expected = structuredClone(original);
  expected["@context"] = CHECKPOINT_CONTEXT;
  expected.dateModified = saved.dateModified;
  const stripLlmDeepJudgment = (ratings: Json[] | undefined) => {
    for (const rating of ratings ?? []) {
      if (
        !/RubricTrait$/.test(String(rating.additionalType)) ||
        /Metric|Agentic|Dynamic/.test(String(rating.additionalType))
      )
        continue;
      const props = (rating.additionalProperty as Json[]).filter(
        (p) => !String(p.name).startsWith("deep_judgment_"),
      );
      if (props.length > 0) rating.additionalProperty = props;
      else delete rating.additionalProperty;
    }
  };
  stripLlmDeepJudgment(expected.rating as Json[] | undefined);
  for (const element of expected.dataFeedElement as Json[])
    stripLlmDeepJudgment((element.item as Json).rating as Json[]);
  return expected;
}

describe.skipIf(!hasConformance)(
  `conformance checkpoints round-trip without loss (${hasConformance ? "" : SKIP_REASON})`,
  () => {
    for (const name of ["minimal.jsonld", "with_rubrics.jsonld"]) {
      test(`${name}: load → save gives the same JSON tree, but for the named normalisations`, async () => {
        const source = conformancePath(`checkpoints/${name}`);
        const original = JSON.parse(await readFile(source, "utf8")) as Json;
        const out = join(await mkdtemp(join(tmpdir(), "karenina-")), name);
        await (await Benchmark.load(source)).save(out);
        const saved = JSON.parse(await readFile(out, "utf8")) as Json;
        expect(saved).toEqual(normaliseAsSaveDoes(original, saved));
      });

      test(`${name}: load → save (keeping deep-judgment settings) → load keeps questions, templates and traits identical`, async () => {
        const source = conformancePath(`checkpoints/${name}`);
        const first = await Benchmark.load(source);
        const out = join(await mkdtemp(join(tmpdir(), "karenina-")), name);
        await first.save(out, { saveDeepJudgmentConfig: true });
        const second = await Benchmark.load(out);
        expect(second.getAllQuestions()).toEqual(first.getAllQuestions());
        expect(second.getGlobalRubric()).toEqual(first.getGlobalRubric());
        for (const id of first.getQuestionIds()) expect(second.getTemplate(id)).toBe(first.getTemplate(id));
      });
    }

    test("minimal.jsonld reads as the original reads it", async () => {
      const bench = await Benchmark.load(conformancePath("checkpoints/minimal.jsonld"));
      expect(bench.name).toBe("minimal-test");
      expect(bench.getQuestionIds()).toEqual(["urn:karenina:test:q001"]);
      const q = bench.getQuestion("urn:karenina:test:q001");
      expect(q.question).toBe("What is 2+2?");
      expect(q.raw_answer).toBe("4");
      expect(q.keywords).toEqual(["arithmetic", "math"]);
      expect(bench.hasTemplate("urn:karenina:test:q001")).toBe(true);
      expect(bench.isFinished("urn:karenina:test:q001")).toBe(false);
    });

    test("with_rubrics.jsonld keeps callable code byte-identical through a save", async () => {
      const source = conformancePath("checkpoints/with_rubrics.jsonld");
      const codes = (doc: Json) =>
        (doc.rating as Json[]).flatMap((r) =>
          ((r.additionalProperty as Json[]) ?? [])
            .filter((p) => p.name === "callable_code")
            .map((p) => p.value),
        );
      const out = join(await mkdtemp(join(tmpdir(), "karenina-")), "r.jsonld");
      await (await Benchmark.load(source)).save(out);
      const before = codes(JSON.parse(await readFile(source, "utf8")));
      expect(before).toHaveLength(2);
      expect(codes(JSON.parse(await readFile(out, "utf8")))).toEqual(before);
    });
  },
);
