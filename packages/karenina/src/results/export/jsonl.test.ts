import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { RunLogWriter } from "../../pipeline/index.js";
import { parseVerificationResult } from "../verification-result.js";
import { row } from "./__fixtures__/rows.js";
import {
  exportResultsJson,
  jsonlToResultsJson,
  ResultsFileError,
  ResultsRowError,
  readResultsJson,
} from "./index.js";

const metadata = { job_id: "job-1", export_timestamp: "2026-04-21 12:00:00 UTC", karenina_version: "0.1.0" };

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "karenina-jsonl-"));
}

describe("run log (JSONL) → JSON v2.2", () => {
  test("the export holds every valid line in order, with the bytes exportResultsJson gives the same rows", async () => {
    const dir = await tempDir();
    const log = await RunLogWriter.open(join(dir, "run.jsonl"));
    const failed = { failure: { category: "timeout", stage: "generate_answer", reason: "slow" } };
    const rows = [row("q1", { metadata: failed }), row("q2", { metadata: { execution_time: 3 } }), row("q1")];
    for (const result of rows) await log.append(parseVerificationResult(result));
    await log.close();
    const summary = await jsonlToResultsJson(join(dir, "run.jsonl"), join(dir, "run.json"), metadata);
    expect(summary).toEqual({ rows: 3, skippedLines: 0 });
    const text = await readFile(join(dir, "run.json"), "utf8");
    expect(text).toBe(exportResultsJson(rows, { metadata }));
    expect(text).toContain('"execution_time": 3.0');
    expect(text).toContain('"total_questions": 2, "successful_count": 2, "failed_count": 0');
    expect(await readdir(dir)).toEqual(["run.json", "run.jsonl"]);
  });

  test("a half line left by a crash is skipped and counted; with strict it is an error naming the line", async () => {
    const dir = await tempDir();
    const jsonl = join(dir, "run.jsonl");
    await writeFile(jsonl, `${JSON.stringify(parseVerificationResult(row("q1")))}\n\n{"metadata": {"quest`);
    expect(await jsonlToResultsJson(jsonl, join(dir, "run.json"), metadata)).toEqual({
      rows: 1,
      skippedLines: 1,
    });
    expect((await readResultsJson(join(dir, "run.json"))).results).toHaveLength(1);
    await expect(
      jsonlToResultsJson(jsonl, join(dir, "strict.json"), metadata, { strict: true }),
    ).rejects.toThrow(`${jsonl}: line 3: not valid JSON`);
    expect(await readdir(dir)).toEqual(["run.json", "run.jsonl"]);
  });

  test("with strict, a line with a wrong field names the file, the line and the field", async () => {
    const dir = await tempDir();
    const jsonl = join(dir, "run.jsonl");
    const bad = { ...parseVerificationResult(row("q2")), used_full_trace: "yes" };
    await writeFile(jsonl, `${JSON.stringify(parseVerificationResult(row("q1")))}\n${JSON.stringify(bad)}\n`);
    const error = await jsonlToResultsJson(jsonl, join(dir, "run.json"), metadata, { strict: true }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ResultsRowError);
    expect(error.message).toBe(`${jsonl}: line 2: $.used_full_trace: expected boolean, found a string "yes"`);
    expect(await jsonlToResultsJson(jsonl, join(dir, "run.json"), metadata)).toEqual({
      rows: 1,
      skippedLines: 1,
    });
  });

  test("given the job summary and models, the header uses them as given", async () => {
    const dir = await tempDir();
    const jsonl = join(dir, "run.jsonl");
    await writeFile(jsonl, `${JSON.stringify(parseVerificationResult(row("q1")))}\n`);
    const given = {
      ...metadata,
      verification_config: {
        answering_models: [{ provider: "openai", name: "gpt-4o", temperature: 1, interface: "langchain" }],
        parsing_models: [],
      },
      job_summary: {
        total_questions: 5,
        successful_count: 1,
        failed_count: 0,
        start_time: 10,
        end_time: 12.5,
        is_complete: false,
      },
    };
    await jsonlToResultsJson(jsonl, join(dir, "run.json"), given, {
      rubricDefinition: { trait_names: ["clarity"] },
    });
    const header = (await readFile(join(dir, "run.json"), "utf8")).split("\n")[0];
    expect(header).toContain('"temperature": 1.0');
    expect(header).toContain(
      '"job_summary": {"total_questions": 5, "successful_count": 1, "failed_count": 0, "start_time": 10.0, "end_time": 12.5, "total_duration": 2.5, "is_complete": false}',
    );
    expect(header).toContain(
      '"shared_data": {"rubric_definition": {"trait_names": ["clarity"]}},"results":[',
    );
  });

  test("a missing run log is a ResultsFileError naming it", async () => {
    const dir = await tempDir();
    const jsonl = join(dir, "absent.jsonl");
    await expect(jsonlToResultsJson(jsonl, join(dir, "out.json"), metadata)).rejects.toThrow(
      ResultsFileError,
    );
    await expect(jsonlToResultsJson(jsonl, join(dir, "out.json"), metadata)).rejects.toThrow(
      `${jsonl}: cannot read the run log (no such file)`,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
