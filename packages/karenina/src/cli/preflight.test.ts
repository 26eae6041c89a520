/**
 * `karenina verify`'s preflight, through the CLI, against real sockets on 127.0.0.1: the scripted OpenAI
 * server (its replies are hand-written test data, not output of any model), a port nothing listens on, a
 * server that refuses every key and one that never answers.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  deadEndpoint,
  drugBenchmark,
  runKarenina,
  scriptedVerifyArgs,
  writeDrugTraces,
} from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { EXIT } from "./cli-io.js";

let server: OpenAiTestServer;
let dir: string;
let file: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Runs `fn` with `names` removed from the environment, then restores them as they were. */
async function withoutEnv<T>(names: readonly string[], fn: () => Promise<T>): Promise<T> {
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const name of names) delete process.env[name];
  try {
    return await fn();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/**
 * `verify` of the checkpoint with OpenAI's gpt-4.1-mini answering, OPENAI_API_KEY unset, the scripted judge
 * parsing, and `extra` options.
 */
const verifyOpenAiWithoutKey = (...extra: string[]) =>
  withoutEnv(["OPENAI_API_KEY"], () =>
    runKarenina(
      "verify",
      file,
      "-a",
      "openai:gpt-4.1-mini",
      "-p",
      `openai_endpoint:judge@${server.baseURL}`,
      ...extra,
    ),
  );

const chatRequests = () => server.requests.filter((request) => request.path.endsWith("/chat/completions"));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-preflight-"));
  file = join(dir, "bench.jsonld");
  await drugBenchmark(2, "cli-preflight").save(file);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  server = await startOpenAiServer([
    { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
});
afterEach(async () => {
  await server.close();
});

describe("karenina verify: preflight before the first LLM call", () => {
  test("asks each endpoint once for its model list with the model's key, then runs", async () => {
    const key = "preflight-test-key";
    process.env.KARENINA_TEST_KEY = key;
    try {
      const { code, err } = await runKarenina(
        ...scriptedVerifyArgs(server.baseURL, file, "--endpoint-key-env", "KARENINA_TEST_KEY"),
      );
      expect(code, err).toBe(EXIT.ok);
    } finally {
      delete process.env.KARENINA_TEST_KEY;
    }
    const probes = server.requests.filter((request) => request.method === "GET");
    // The answering and parsing models share one endpoint and key: one probe, before any chat call.
    expect(probes.map((request) => request.path)).toEqual(["/v1/models"]);
    expect(probes[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(server.requests[0]?.method).toBe("GET");
    expect(chatRequests()).toHaveLength(4);
  });

  test("a dead endpoint stops the run with exit 2, naming the model and ECONNREFUSED, no call made", async () => {
    const dead = await deadEndpoint();
    const started = Date.now();
    const { code, out, err } = await runKarenina(
      ...scriptedVerifyArgs({ answerer: dead, judge: server.baseURL }, file, "-o", join(dir, "dead.jsonl")),
    );
    expect(code).toBe(EXIT.usage);
    expect(out).toBe("");
    expect(err).toContain("preflight: a model cannot be used; no LLM call was made");
    expect(err).toContain(
      `answering model openai_endpoint:answerer: cannot reach ${dead}/models (ECONNREFUSED`,
    );
    expect(err).toContain("--no-preflight");
    expect(err).not.toContain("judge:");
    expect(chatRequests()).toHaveLength(0);
    // Stopped before the run: no result was written, and no retry budget was spent.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("a missing API key stops the run with exit 2 and the variable to set", async () => {
    const { code, err } = await verifyOpenAiWithoutKey();
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(
      "answering model openai:gpt-4.1-mini: openai needs an API key: set the environment variable OPENAI_API_KEY",
    );
  });

  test("a key the endpoint refuses (401) stops the run, the key itself never shown", async () => {
    const key = "sk-refused-0123456789";
    const refusing = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }));
    });
    const url = await listen(refusing);
    process.env.KARENINA_TEST_KEY = key;
    try {
      const { code, err } = await runKarenina(
        "verify",
        file,
        "-a",
        `openai_endpoint:answerer@${url}`,
        "-p",
        `openai_endpoint:answerer@${url}`,
        "--endpoint-key-env",
        "KARENINA_TEST_KEY",
      );
      expect(code).toBe(EXIT.usage);
      expect(err).toContain(
        `answering and parsing model openai_endpoint:answerer: ${url}/models refused the API key (HTTP 401: Incorrect API key provided: [redacted])`,
      );
      expect(err).not.toContain(key);
    } finally {
      delete process.env.KARENINA_TEST_KEY;
      await close(refusing);
    }
  });

  test("hosted APIs are probed at their model list with their own key header", async () => {
    const seen: { path: string; headers: Record<string, unknown> }[] = [];
    const refusing = createServer((req, res) => {
      seen.push({ path: req.url ?? "", headers: req.headers });
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "forbidden" } }));
    });
    const url = (await listen(refusing)).replace(/\/v1$/, "");
    const keys = { OPENAI_API_KEY: "k-openai", ANTHROPIC_API_KEY: "k-anthropic", GEMINI_API_KEY: "k-gemini" };
    try {
      const { code, err } = await withoutEnv(
        ["GOOGLE_GENERATIVE_AI_API_KEY", "OPENAI_BASE_URL", ...Object.keys(keys)],
        () => {
          Object.assign(process.env, keys);
          return runKarenina(
            ...[
              "verify",
              file,
              "-a",
              `openai:gpt-4.1-mini@${url}/v1`,
              "-a",
              `anthropic:claude-haiku-4-5@${url}`,
            ],
            ...["-p", `google:gemini-2.5-flash@${url}/v1beta`],
          );
        },
      );
      expect(code).toBe(EXIT.usage);
      expect(err).toContain("preflight: 3 models cannot be used");
      expect(err).toContain(
        `parsing model google:gemini-2.5-flash: ${url}/v1beta/models refused the API key (HTTP 403: forbidden)`,
      );
    } finally {
      await close(refusing);
    }
    const byPath = (path: string) => seen.filter((request) => request.path === path).map((r) => r.headers);
    expect(byPath("/v1/models")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ authorization: "Bearer k-openai" }),
        expect.objectContaining({ "x-api-key": "k-anthropic", "anthropic-version": "2023-06-01" }),
      ]),
    );
    expect(byPath("/v1beta/models")).toEqual([expect.objectContaining({ "x-goog-api-key": "k-gemini" })]);
  });

  test("an endpoint that never answers fails the preflight within its 5 s timeout instead of hanging", async () => {
    const silent = createServer(() => {
      // Never answers.
    });
    const url = await listen(silent);
    const started = Date.now();
    try {
      const { code, err } = await runKarenina(
        ...scriptedVerifyArgs(server.baseURL, file, "-p", `openai_endpoint:slow@${url}`),
      );
      expect(code).toBe(EXIT.usage);
      expect(err).toContain(
        `parsing model openai_endpoint:slow: cannot reach ${url}/models (no answer within 5 s)`,
      );
    } finally {
      await close(silent);
    }
    expect(Date.now() - started).toBeLessThan(9_000);
  }, 15_000);

  test("manual answers need no endpoint: only the judge is checked", async () => {
    const dead = await deadEndpoint();
    const traces = join(dir, "traces.json");
    await writeDrugTraces(traces, 2);
    const manual = ["verify", file, "-a", "manual", "--manual-traces", traces, "--no-progress"];
    const deadJudge = await runKarenina(...manual, "-p", `openai_endpoint:judge@${dead}`);
    expect(deadJudge.code).toBe(EXIT.usage);
    expect(deadJudge.err).toContain("preflight: a model cannot be used");
    expect(deadJudge.err).toContain("  parsing model openai_endpoint:judge: cannot reach");
    expect(deadJudge.err).not.toContain("answering model");
    const live = await runKarenina(...manual, "-p", `openai_endpoint:judge@${server.baseURL}`);
    expect(live.code, live.err).toBe(EXIT.ok);
  });
});

describe("karenina verify --no-preflight: a run whose tasks fail for a system cause", () => {
  test("connection refused on every call: the run ends with exit 1 and the cause on screen", async () => {
    const dead = await deadEndpoint();
    const { code, err } = await runKarenina(...scriptedVerifyArgs(dead, file, "-q", "q0", "--no-preflight"));
    expect(code).toBe(EXIT.checkFailed);
    expect(err).toMatch(/1\/1 done · 0 passed, 1 failed/);
    expect(err).toContain("1 of 1 task failed for a system cause, not on the answers (exit code 1):");
    expect(err).toMatch(/1 × connection: ECONNREFUSED 127\.0\.0\.1:\d+/);
  }, 30_000);

  test("no API key: every task fails at once, exit 1 with the variable to set", async () => {
    const { code, err } = await verifyOpenAiWithoutKey("--no-preflight", "--no-progress");
    expect(code).toBe(EXIT.checkFailed);
    expect(err).toContain("2 of 2 tasks failed for a system cause");
    expect(err).toContain("2 × unexpected_error:");
    expect(err).toContain("openai needs an API key");
    expect(server.requests).toHaveLength(0);
  });
});

describe("exit codes", () => {
  test("verify --help and karenina --help document 0, 1, 2 and 130, the preflight and the drafts", async () => {
    const verify = await runKarenina("verify", "--help");
    expect(verify.code).toBe(EXIT.ok);
    for (const text of [
      "--no-preflight",
      "--include-drafts",
      "karenina checkpoint finish FILE",
      "Exit codes:",
    ])
      expect(verify.out).toContain(text);
    const top = await runKarenina("--help");
    for (const help of [verify.out, top.out]) {
      expect(help).toMatch(/^ {2}0 {4}done: every task ran, whatever its verdicts$/m);
      expect(help).toMatch(/^ {2}1 {4}some task failed for a system cause/m);
      expect(help).toMatch(/^ {2}2 {4}bad usage or input/m);
      expect(help).toMatch(/^ {2}130 {2}interrupted \(Ctrl-C\)/m);
    }
  });
});
