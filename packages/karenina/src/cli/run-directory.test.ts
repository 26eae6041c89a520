import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseVerificationConfig } from "../pipeline/index.js";
import { DRUG_REPLIES, dirPerTest, drugBenchmark, runKarenina } from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";
import {
  makeRunDirectory,
  maskSecretValues,
  planRunDirectory,
  RunManifestWriter,
  runStamp,
} from "./run-directory.js";

const server = serverPerTest(() => startOpenAiServer(DRUG_REPLIES));
const dir = dirPerTest("karenina-run-dir-");

const SECRET = "sk-test-not-a-real-key-4242";

describe("verify --run-root", () => {
  test("writes results.json, run_manifest.json (schema 1.0, secrets masked), traces/ and workspaces/", async () => {
    const file = join(dir(), "bench.jsonld");
    await drugBenchmark(2, "run-dir").save(file);
    const root = join(dir(), "runs");
    process.env.KARENINA_RUN_DIR_TEST_KEY = SECRET;
    let result: Awaited<ReturnType<typeof runKarenina>>;
    try {
      result = await runKarenina(
        ...["verify", file, "-a", `openai_endpoint:answerer@${server.baseURL}`],
        ...[
          "-p",
          `openai_endpoint:judge@${server.baseURL}`,
          "--endpoint-key-env",
          "KARENINA_RUN_DIR_TEST_KEY",
        ],
        ...["--run-root", root, "--run-label", "nightly", "--no-progress"],
      );
    } finally {
      delete process.env.KARENINA_RUN_DIR_TEST_KEY;
    }
    expect(result.code, result.err).toBe(EXIT.ok);
    const [name, ...others] = await readdir(root);
    expect(others).toEqual([]);
    expect(name).toMatch(/^nightly_\d{8}T\d{6}Z$/);
    const runDir = join(root, name as string);
    expect(result.err).toContain(`run directory: ${runDir}`);
    expect((await readdir(runDir)).sort()).toEqual([
      "results.json",
      "run_manifest.json",
      "traces",
      "workspaces",
    ]);
    expect((await stat(join(runDir, "traces"))).isDirectory()).toBe(true);
    const results = JSON.parse(await readFile(join(runDir, "results.json"), "utf8"));
    expect(results.format_version).toBe("2.2");
    expect(results.results).toHaveLength(2);
    const text = await readFile(join(runDir, "run_manifest.json"), "utf8");
    expect(text).not.toContain(SECRET);
    const manifest = JSON.parse(text);
    expect(manifest).toMatchObject({
      schema_version: "1.0",
      status: "completed",
      label: "nightly",
      benchmark_path: file,
      selected_question_count: 2,
      replicate_count: 1,
      answering_models: [{ interface: "openai_endpoint", model_name: "answerer" }],
      parsing_models: [{ interface: "openai_endpoint", model_name: "judge" }],
      results_path: join(runDir, "results.json"),
      traces_path: join(runDir, "traces"),
      workspaces_path: join(runDir, "workspaces"),
      failure_type: null,
      failure_message: null,
    });
    expect(manifest.run_name).toEqual(expect.any(String));
    expect(manifest.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(manifest.completed_at).toMatch(/Z$/);
    expect(manifest.configuration.answering_models[0].endpoint_api_key).toBe("**********");
  });

  test("is refused with --output, with --resume, without a usable label, and --run-label needs it", async () => {
    const file = join(dir(), "bench.jsonld");
    await drugBenchmark(1, "run-dir").save(file);
    const models = [
      "-a",
      `openai_endpoint:answerer@${server.baseURL}`,
      "-p",
      `openai_endpoint:judge@${server.baseURL}`,
    ];
    const root = join(dir(), "runs");
    const cases: [string[], string][] = [
      [["--run-root", root, "-o", join(dir(), "x.json")], "give --run-root or --output, not both"],
      [["--run-root", root, "--resume"], "--resume needs --output"],
      [["--run-label", "x"], "--run-label names the run directory of --run-root"],
      [["--run-root", root, "--run-label", "../escape"], "is not a usable label"],
      [["--run-root", root, "--run-label", "-x"], "is not a usable label"],
    ];
    for (const [flags, message] of cases) {
      const { code, err } = await runKarenina("verify", file, ...models, ...flags);
      expect(code, flags.join(" ")).toBe(EXIT.usage);
      expect(err).toContain(message);
    }
    expect(existsSync(root)).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});

describe("run directories and manifests", () => {
  test("names the directory by label and UTC second, and never reuses one", async () => {
    const now = new Date("2025-06-01T14:03:12.345Z");
    expect(runStamp(now)).toBe("20250601T140312Z");
    const planned = planRunDirectory(dir(), "verification", now);
    expect(planned.path).toBe(join(dir(), "verification_20250601T140312Z"));
    await makeRunDirectory(planned);
    await expect(makeRunDirectory(planRunDirectory(dir(), "verification", now))).rejects.toThrow(
      "already exists: a run directory is never reused",
    );
  });

  test("masks every key ending in api_key, apikey, password, secret or token, at any depth", () => {
    expect(
      maskSecretValues({
        extra_kwargs: { api_key: "k1", openaiApiKey: "k2", nested: [{ auth_token: "t" }] },
        db_password: "p",
        client_secret: "s",
        tokens: 5,
        model_name: "m",
        endpoint_api_key: null,
      }),
    ).toEqual({
      extra_kwargs: {
        api_key: "**********",
        openaiApiKey: "**********",
        nested: [{ auth_token: "**********" }],
      },
      db_password: "**********",
      client_secret: "**********",
      tokens: 5,
      model_name: "m",
      endpoint_api_key: null,
    });
  });

  test("a run that fails or is interrupted says so, with the error's type and message", async () => {
    const config = parseVerificationConfig({
      answering_models: [{ id: "a", model_name: "a", interface: "openai", extra_kwargs: { api_key: "xyz" } }],
      parsing_models: [{ id: "p", model_name: "p", interface: "openai" }],
    });
    const times = [new Date("2025-06-01T14:00:00Z"), new Date("2025-06-01T14:05:00Z")];
    const directory = planRunDirectory(dir(), "failing", times[0]);
    await makeRunDirectory(directory);
    const writer = await RunManifestWriter.start(
      directory,
      { benchmarkPath: "b.jsonld", selectedQuestions: 3, config },
      () => times.shift() ?? new Date(),
    );
    const started = JSON.parse(await readFile(directory.manifest, "utf8"));
    expect(started).toMatchObject({
      status: "running",
      completed_at: null,
      created_at: "2025-06-01T14:00:00Z",
    });
    expect(started.configuration.answering_models[0].extra_kwargs.api_key).toBe("**********");
    await writer.finish({ status: "failed", error: new RangeError("out of tokens") });
    expect(JSON.parse(await readFile(directory.manifest, "utf8"))).toMatchObject({
      status: "failed",
      updated_at: "2025-06-01T14:05:00Z",
      completed_at: null,
      failure_type: "RangeError",
      failure_message: "out of tokens",
    });
    await writer.finish({ status: "interrupted", runName: "run-1" });
    expect(JSON.parse(await readFile(directory.manifest, "utf8"))).toMatchObject({
      status: "interrupted",
      run_name: "run-1",
      failure_type: null,
    });
  });
});
