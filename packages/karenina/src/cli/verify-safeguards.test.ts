/**
 * `karenina verify` guarding the user against surprises: presets by the name they were saved under, config
 * errors in the command line's own terms, and a run log never appended to without `--resume`. Runs use the
 * bundled example offline (its recorded hand-written responses) or a dry run: no model is called.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { drugBenchmark, runKarenina, savePreset } from "../test-support/cli.js";
import { EXIT } from "./cli-io.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-safeguards-"));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

const ENDPOINT = "openai_endpoint:local@http://127.0.0.1:9/v1";

async function checkpoint(): Promise<string> {
  const file = join(dir, "bench.jsonld");
  await drugBenchmark(2, "cli-safeguards").save(file);
  return file;
}

const lines = async (file: string) =>
  (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "").length;

/** A dry run of `verify FILE` with the answering model ENDPOINT, the parsing model `parsing`, and `extra` options. */
const dryRun = (file: string, parsing: string, ...extra: string[]) =>
  runKarenina("verify", file, "-a", ENDPOINT, "-p", parsing, ...extra, "--dry-run");

/** The bundled example, verified offline from its recordings, results to `output`. */
const offlineRun = (output: string, ...extra: string[]) =>
  runKarenina("verify", "--no-progress", "-o", output, ...extra);

describe("verify --preset", () => {
  test("takes the name a preset was saved under, as `preset show` does", async () => {
    const presets = join(dir, "presets");
    const saved = await savePreset("Nightly Smoke", presets, ENDPOINT);
    expect(saved.code).toBe(EXIT.ok);
    expect(existsSync(join(presets, "nightly-smoke.json"))).toBe(true);
    expect((await runKarenina("preset", "show", "Nightly Smoke", "--dir", presets)).code).toBe(EXIT.ok);

    vi.stubEnv("KARENINA_PRESETS_DIR", presets);
    const file = await checkpoint();
    for (const name of ["Nightly Smoke", "nightly-smoke"]) {
      const plan = await runKarenina("verify", file, "--preset", name, "--dry-run", "--json");
      expect(plan.err).toBe("");
      expect(plan.code).toBe(EXIT.ok);
      expect(plan.out).toContain("local");
    }
    const missing = await runKarenina("verify", file, "--preset", "Nightly Smok", "--dry-run");
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain('preset "Nightly Smok" not found');
  });
});

describe("config errors", () => {
  test("name the flag that set the field, not the config field", async () => {
    const file = await checkpoint();
    const { code, err } = await dryRun(
      file,
      ENDPOINT,
      "--agentic-parsing",
      "--workspace-root",
      dir,
      "--mode",
      "rubric_only",
    );
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(
      "error: invalid run settings: --agentic-parsing: is not available in rubric_only evaluation mode\n",
    );
    expect(err).not.toContain("agentic_parsing");
  });

  test("a bad value from the environment names the variable and the flag that overrides it", async () => {
    vi.stubEnv("KARENINA_ASYNC_MAX_WORKERS", "0");
    const file = await checkpoint();
    const { code, err } = await dryRun(file, ENDPOINT);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(
      "environment variable KARENINA_ASYNC_MAX_WORKERS, used when --concurrency is not given: Too small",
    );
    expect(err).not.toContain("async_max_workers");
    // The flag wins over the variable.
    expect((await dryRun(file, ENDPOINT, "-c", "2")).code).toBe(EXIT.ok);
  });

  test("a model's problem names its -a or -p SPEC", async () => {
    const file = await checkpoint();
    const { code, err } = await dryRun(file, "langchain:gpt-4.1-mini");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(
      "--parsing langchain:gpt-4.1-mini: model_provider: is required for the langchain interface",
    );
    expect(err).not.toContain("parsing_models");
  });
});

describe("verify -o an existing run log", () => {
  test("refuses to append without --resume, leaves the log as it was, and says what to do", async () => {
    const log = join(dir, "run.jsonl");
    expect((await offlineRun(log)).code).toBe(EXIT.ok);
    const before = await readFile(log, "utf8");
    expect(await lines(log)).toBe(5);

    const again = await offlineRun(log);
    expect(again.code).toBe(EXIT.usage);
    expect(again.err).toContain(`${log} already holds 5 results of an earlier run`);
    expect(again.err).toContain("--resume");
    expect(again.err).toContain("choose another --output file");
    expect(await readFile(log, "utf8")).toBe(before);

    const resumed = await offlineRun(log, "--resume");
    expect(resumed.code).toBe(EXIT.ok);
    expect(resumed.err).toContain("5 resumed");
    expect(await lines(log)).toBe(5);
  });

  test("an interrupted export's run log is not appended to without --resume either", async () => {
    const log = join(dir, "run.jsonl");
    expect((await offlineRun(log)).code).toBe(EXIT.ok);
    const exported = join(dir, "run.json");
    await copyFile(log, `${exported}.results.jsonl`);
    const refused = await offlineRun(exported);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.err).toContain(`${exported}.results.jsonl already holds 5 results`);
    expect(existsSync(exported)).toBe(false);
  });

  test("a file that is not empty and holds no result is not appended to either", async () => {
    const notes = join(dir, "notes.txt");
    await writeFile(notes, "my notes\n", "utf8");
    const refused = await offlineRun(notes);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.err).toContain(`${notes} is not empty`);
    expect(await readFile(notes, "utf8")).toBe("my notes\n");
    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, "", "utf8");
    expect((await offlineRun(empty)).code).toBe(EXIT.ok);
  });

  test("a completed export leaves no run log and no state file behind", async () => {
    const exported = join(dir, "run.json");
    expect((await offlineRun(exported)).code).toBe(EXIT.ok);
    expect(existsSync(exported)).toBe(true);
    expect(existsSync(`${exported}.results.jsonl`)).toBe(false);
    expect(existsSync(`${exported}.results.jsonl.state.json`)).toBe(false);
  });
});
