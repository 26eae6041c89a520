import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { conformancePath, hasConformance, SKIP_REASON } from "../../test-support/conformance.js";
import { VerificationResultError } from "../errors.js";
import { row } from "./__fixtures__/rows.js";
import {
  exportResultsJson,
  parseResultsJson,
  type ResultsExportMetadata,
  ResultsFileError,
  readResultsJson,
  writeResultsJson,
} from "./index.js";

const metadata: ResultsExportMetadata = {
  job_id: "job-1",
  export_timestamp: "2026-04-21 12:00:00 UTC",
  karenina_version: "0.1.0",
};

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "karenina-export-"));
}

describe.skipIf(!hasConformance)(`the original's exports (${hasConformance ? "" : SKIP_REASON})`, () => {
  for (const name of ["results_export_empty.json", "results_export_full.json"]) {
    test(`${name} is re-exported byte for byte from its own metadata and rows`, async () => {
      const original = await readFile(conformancePath(`export_format/${name}`), "utf8");
      const read = parseResultsJson(original, name);
      if (read.format !== "v2.2") throw new Error("expected a v2.2 export");
      const again = exportResultsJson(read.results, {
        metadata: read.metadata,
        rubricDefinition: read.rubricDefinition,
        scenarioResults: read.scenarioResults,
      });
      expect(again).toBe(original);
    });

    test(`${name} is written byte for byte by the streaming writer too`, async () => {
      const original = await readFile(conformancePath(`export_format/${name}`), "utf8");
      const read = await readResultsJson(conformancePath(`export_format/${name}`));
      if (read.format !== "v2.2") throw new Error("expected a v2.2 export");
      const out = join(await tempDir(), name);
      async function* rows() {
        yield* read.results;
      }
      await writeResultsJson(out, rows(), {
        metadata: read.metadata,
        rubricDefinition: read.rubricDefinition,
      });
      expect(await readFile(out, "utf8")).toBe(original);
    });
  }
});

describe("JSON v2.2 export", () => {
  test("float fields keep Python's .0 and int fields do not, whatever the JS number", () => {
    const text = exportResultsJson(
      [
        row("q1", {
          metadata: { execution_time: 2, replicate: 1 },
          template: {
            verify_granular_result: 1,
            embedding_similarity_score: 0,
            field_scores: { a: 1, b: null },
          },
          rubric: {
            llm_trait_scores: { clarity: 4 },
            metric_trait_scores: { f1: { precision: 1, recall: 0.5 } },
          },
          deep_judgment: {
            deep_judgment_model_calls: 3,
            extracted_excerpts: { answer: [{ text: "x", confidence: "high", similarity_score: 1 }] },
          },
        }),
      ],
      {
        metadata: {
          ...metadata,
          verification_config: {
            answering_models: [
              { provider: "openai", name: "gpt-4o", temperature: 0, interface: "langchain" },
            ],
            parsing_models: [],
          },
          job_summary: { start_time: 1714000000, end_time: 1714000010 },
        },
      },
    );
    const [header = "", line = ""] = text.split("\n");
    expect(header).toContain('"temperature": 0.0');
    expect(header).toContain('"start_time": 1714000000.0, "end_time": 1714000010.0, "total_duration": 10.0');
    expect(line).toContain('"execution_time": 2.0');
    expect(line).toContain('"replicate": 1,');
    expect(line).toContain('"verify_granular_result": 1.0');
    expect(line).toContain('"field_scores": {"a": 1.0, "b": null}');
    expect(line).toContain('"embedding_similarity_score": 0.0');
    expect(line).toContain('"llm_trait_scores": {"clarity": 4}');
    expect(line).toContain('"metric_trait_scores": {"f1": {"precision": 1.0, "recall": 0.5}}');
    expect(line).toContain('"similarity_score": 1.0');
    expect(line).toContain('"deep_judgment_model_calls": 3,');
  });

  test("missing job summary counts and models are derived from the rows, counting each task's latest row", () => {
    const failed = { failure: { category: "timeout", stage: "generate_answer", reason: "slow" } };
    const text = exportResultsJson(
      [row("q1", { metadata: failed }), row("q1"), row("q2", { metadata: failed })],
      {
        metadata,
      },
    );
    expect(text).toContain(
      '"verification_config": {"answering_models": [{"provider": null, "name": "gpt-4o", "temperature": null, "interface": "langchain"}]',
    );
    expect(text).toContain(
      '"job_summary": {"total_questions": 2, "successful_count": 1, "failed_count": 1, "start_time": null, "end_time": null, "total_duration": null, "is_complete": true}',
    );
  });

  test("scenario results follow the rows when given; non-ASCII stays UTF-8; unknown metadata keys are kept", () => {
    const text = exportResultsJson([row("q-é")], {
      metadata: { ...metadata, note: "café" },
      scenarioResults: [
        { replicate: null, terminal_failure: null, turn_count: 0, status: "completed", scenario_id: "s1" },
      ],
    });
    expect(text).toContain('"job_id": "job-1", "verification_config"');
    expect(text).toContain('"is_complete": true}, "note": "café"}');
    expect(text).toContain('"question_id": "q-é"');
    expect(
      text.endsWith(
        '\n],"scenario_results":[\n{"scenario_id": "s1", "status": "completed", "path": [], "turn_count": 0, "replicate": null, "terminal_failure": null, "outcome_results": {}, "history": []}\n]}\n',
      ),
    ).toBe(true);
  });

  test("an invalid row is refused, naming its index and field", () => {
    const bad = row("q1", { metadata: { execution_time: "fast" } });
    expect(() => exportResultsJson([row("q0"), bad], { metadata })).toThrow(VerificationResultError);
    expect(() => exportResultsJson([row("q0"), bad], { metadata })).toThrow(
      /results\[1\]: \$\.metadata\.execution_time/,
    );
  });

  test("a failed streaming write leaves no file behind and the previous file untouched", async () => {
    const dir = await tempDir();
    const out = join(dir, "run.json");
    await writeFile(out, "previous");
    async function* rows() {
      yield row("q1");
      yield row("q2", { metadata: { question_id: 3 } });
    }
    const summary = { total_questions: 2, successful_count: 2, failed_count: 0 };
    const config = { answering_models: [], parsing_models: [] };
    await expect(
      writeResultsJson(out, rows(), {
        metadata: { ...metadata, job_summary: summary, verification_config: config },
      }),
    ).rejects.toThrow(VerificationResultError);
    expect(await readFile(out, "utf8")).toBe("previous");
    expect(await readdir(dir)).toEqual(["run.json"]);
  });

  test("a file that cannot be written is a ResultsFileError naming it", async () => {
    const out = join(await tempDir(), "no-such-dir", "run.json");
    await expect(writeResultsJson(out, [], { metadata })).rejects.toThrow(ResultsFileError);
    await expect(writeResultsJson(out, [], { metadata })).rejects.toThrow(
      `${out}: cannot write the results file (ENOENT)`,
    );
  });

  test("large runs stream: many rows written and read back", async () => {
    const out = join(await tempDir(), "big.json");
    const count = 5000;
    function* rows() {
      for (let i = 0; i < count; i++) yield row(`q${i}`, { metadata: { execution_time: i / 7 } });
    }
    const summary = { total_questions: count, successful_count: count, failed_count: 0 };
    await writeResultsJson(out, rows(), {
      metadata: {
        ...metadata,
        job_summary: summary,
        verification_config: { answering_models: [], parsing_models: [] },
      },
    });
    const read = await readResultsJson(out);
    expect(read.results).toHaveLength(count);
    expect(read.results[4999]?.metadata.execution_time).toBe(4999 / 7);
  });
});
