/**
 * `verify --extend` (cli/verify-extend.ts) against a scripted OpenAI-compatible server on 127.0.0.1: a prior run
 * is written to a run log, then extended through `verifyExtend` with the files `karenina results` reads.
 * Every scripted reply is hand-written test data, not output of any model.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseRubric } from "../model/index.js";
import { parseVerificationConfig, type VerificationConfig } from "../pipeline/index.js";
import {
  DRUG_REPLIES,
  dirPerTest,
  drugBenchmark,
  runKarenina,
  scriptedVerifyArgs,
} from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { CliUsageError } from "./cli-io.js";
import { loadResults } from "./results-command.js";
import { verifyExtend } from "./verify-extend.js";

let server: OpenAiTestServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(() => server.close());
const dir = dirPerTest("karenina-verify-extend-");

function config(judges: readonly string[], extra: Record<string, unknown> = {}): VerificationConfig {
  const model = (id: string) => ({
    id,
    model_name: id,
    interface: "openai_endpoint",
    endpoint_base_url: server.baseURL,
    endpoint_api_key: "test-key",
  });
  return parseVerificationConfig({
    answering_models: [model("answerer")],
    parsing_models: judges.map(model),
    ...extra,
  });
}

const answererCalls = () => server.requests.filter((r) => r.body.model === "answerer").length;

function captureIo() {
  const io = { out: "", err: "" };
  const cli = {
    out: (text: string) => {
      io.out += text;
    },
    err: (text: string) => {
      io.err += text;
    },
  };
  return { io, cli };
}

describe("verify --extend", () => {
  test("template mode: a new judge, the merged run exported as .json, no answering call", async () => {
    server.script(...DRUG_REPLIES, {
      match: { model: "judge2" },
      reply: { json: { drug: "venetoclax" } },
      repeat: true,
    });
    const bench = drugBenchmark(2);
    const prior = join(dir(), "prior.jsonl");
    await bench.runVerification(config(["judge"]), { output: prior, runName: "nightly" });
    const answered = answererCalls();
    const output = join(dir(), "extended.json");
    const { io, cli } = captureIo();
    await verifyExtend(bench, config(["judge", "judge2"]), { extend: prior, output, progress: false }, cli);
    expect(answererCalls()).toBe(answered);
    const merged = await loadResults(output);
    expect(merged.results).toHaveLength(4);
    expect(new Set(merged.results.map((r) => r.metadata.run_name))).toEqual(new Set(["nightly"]));
    expect(merged.results.filter((r) => r.metadata.parsing.model_name === "judge2")).toHaveLength(2);
    expect(io.err).toContain("2 prior rows kept, 2 new");
  });

  test("rubric mode: same rows, new trait scores, written to a .jsonl run log", async () => {
    server.script(...DRUG_REPLIES);
    const bench = drugBenchmark(2);
    const prior = join(dir(), "prior.jsonl");
    const before = await bench.runVerification(config(["judge"]), { output: prior, runName: "nightly" });
    bench.setGlobalRubric(parseRubric({ regex_traits: [{ name: "names_drug", pattern: "Venetoclax" }] }));
    const answered = answererCalls();
    const output = join(dir(), "rescored.jsonl");
    const { cli } = captureIo();
    await verifyExtend(
      bench,
      config(["judge"]),
      { extend: prior, extendMode: "rubric", output, progress: false },
      cli,
    );
    expect(answererCalls()).toBe(answered);
    const rescored = await loadResults(output);
    expect(rescored.results.map((r) => r.metadata.result_id).sort()).toEqual(
      before.results.map((r) => r.metadata.result_id).sort(),
    );
    expect(rescored.results.map((r) => r.rubric?.regex_trait_scores)).toEqual([
      { names_drug: true },
      { names_drug: true },
    ]);
  });

  test("--replay, --dry-run and rubric --resume are refused with --extend", async () => {
    const bench = drugBenchmark(1);
    const { cli } = captureIo();
    for (const [flags, message] of [
      [{ replay: "answers.json" }, /--extend cannot be combined with --replay/],
      [{ dryRun: true }, /--extend cannot be combined with --dry-run/],
      [{ resume: true, extendMode: "rubric" as const }, /--resume in rubric mode/],
    ] as const) {
      const error = await verifyExtend(
        bench,
        config(["judge"]),
        { extend: "prior.jsonl", ...flags },
        cli,
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CliUsageError);
      expect((error as Error).message).toMatch(message);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("karenina verify --extend (the command)", () => {
  test("a prior run extended with a second judge replays every answer and exports prior and new rows", async () => {
    server.script(...DRUG_REPLIES, {
      match: { model: "judge2" },
      reply: { json: { drug: "venetoclax" } },
      repeat: true,
    });
    const file = join(dir(), "bench.jsonld");
    await drugBenchmark(2).save(file);
    const prior = join(dir(), "prior.jsonl");
    const first = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "-o", prior));
    expect(first.code, first.err).toBe(0);
    const answered = answererCalls();
    const extended = join(dir(), "extended.json");
    const { code, err } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "-p", `openai_endpoint:judge2@${server.baseURL}`),
      "--extend",
      prior,
      "-o",
      extended,
    );
    expect(code, err).toBe(0);
    expect(answererCalls()).toBe(answered);
    const rows = (await loadResults(extended)).results;
    expect(rows.map((row) => row.metadata.parsing.model_name).sort()).toEqual([
      "judge",
      "judge",
      "judge2",
      "judge2",
    ]);
  });
});
