/**
 * Config warnings (spec 04 §2.2) reach the user: `runVerification` reports them as `warning` progress events
 * before the run starts, and `karenina verify` prints them on stderr. Models answer from the scripted
 * OpenAI-compatible server on 127.0.0.1; every scripted reply is hand-written test data.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type ProgressEvent, parseVerificationConfig, runVerification } from "../pipeline/index.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { endpointModel, pipelineQuestion } from "../test-support/pipeline-context.js";
import { serverPerTest } from "../test-support/server-per-test.js";

const server = serverPerTest(startOpenAiServer);
let dir = "";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-config-warnings-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const EQUIVALENT = "is equivalent to classical parsing (Stage 7a)";

describe("trace_only agentic judge warnings", () => {
  test("runVerification reports them as warning events before the run starts", async () => {
    const config = parseVerificationConfig({
      answering_models: [endpointModel(server.baseURL, "answerer")],
      parsing_models: [endpointModel(server.baseURL, "judge")],
      agentic_parsing: true,
      agentic_judge_context: "trace_only",
      agentic_parsing_trigger: "dynamic",
      evaluation_mode: "template_only",
    });
    const events: ProgressEvent[] = [];
    const controller = new AbortController();
    controller.abort();
    await runVerification([pipelineQuestion()], config, {
      signal: controller.signal,
      onProgress: (event) => events.push(event),
    });
    const kinds = events.map((event) => event.type);
    expect(kinds.slice(0, 3)).toEqual(["warning", "warning", "start"]);
    const messages = events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
    expect(messages[0]).toContain(EQUIVALENT);
    expect(messages[1]).toContain("can only escalate to the same trace context");
  });

  test("karenina verify prints them on stderr", async () => {
    const file = join(dir, "bench.jsonld");
    await drugBenchmark(1).save(file);
    server.script({ reply: { status: 400, message: "hand-written refusal" }, repeat: true });
    const { err } = await runKarenina(
      ...scriptedVerifyArgs(
        server.baseURL,
        file,
        "--agentic-parsing",
        "--judge-context",
        "trace_only",
        "--workspace-root",
        dir,
      ),
    );
    expect(err).toContain(
      `warning: agentic_parsing=True with agentic_judge_context='trace_only' ${EQUIVALENT}`,
    );
  });

  test("karenina verify prints no warning for a classical run", async () => {
    const file = join(dir, "bench.jsonld");
    await drugBenchmark(1).save(file);
    server.script({ reply: { status: 400, message: "hand-written refusal" }, repeat: true });
    const { err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file));
    expect(err).not.toContain("warning:");
  });
});
