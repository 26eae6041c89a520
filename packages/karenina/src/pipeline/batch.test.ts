import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { endpointModel, FAST_RETRIES, pipelineQuestion } from "../test-support/pipeline-context.js";
import { parseVerificationConfig } from "./config/index.js";
import { runVerification } from "./run-verification.js";
import type { PipelineQuestion } from "./task.js";

const questions: PipelineQuestion[] = Array.from({ length: 8 }, (_, i) =>
  pipelineQuestion({ id: `q${i}`, text: `Which drug inhibits BCL2? (${i})` }),
);

let server: OpenAiTestServer;
beforeEach(async () => {
  // Hand-written test replies, slowed down so that calls overlap.
  server = await startOpenAiServer([
    { match: { model: "a1" }, reply: { text: "Venetoclax.", delayMs: 40 }, repeat: true },
    { match: { model: "a2" }, reply: { text: "Venetoclax.", delayMs: 40 }, repeat: true },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" }, delayMs: 40 }, repeat: true },
  ]);
});
afterEach(() => server.close());

function config(extra: Record<string, unknown>, answerers = ["a1"]) {
  const model = (id: string) => endpointModel(server.baseURL, id);
  return parseVerificationConfig({
    answering_models: answerers.map(model),
    parsing_models: [model("judge")],
    retry_policy: FAST_RETRIES,
    ...extra,
  });
}

describe("concurrency of a run, observed at the server", () => {
  test("max_concurrent_requests caps the calls in flight, whatever the number of task workers", async () => {
    const run = await runVerification(
      questions,
      config({ async_max_workers: 8, max_concurrent_requests: 2 }),
    );
    expect(run.summary.passed).toBe(8);
    expect(server.peakInFlight.all).toBe(2);
  });

  test("async_max_workers tasks run at once", async () => {
    await runVerification(questions, config({ async_max_workers: 4 }));
    expect(server.peakInFlight.all).toBe(4);
  });

  test("a run without async runs one task at a time", async () => {
    await runVerification(questions, config({ async_enabled: false, async_max_workers: 8 }));
    expect(server.peakInFlight.all).toBe(1);
    expect(server.requests).toHaveLength(16);
  });

  test("a per-endpoint limit caps the calls to that base URL", async () => {
    await runVerification(questions, config({ async_max_workers: 8 }), {
      endpointLimits: { [server.baseURL]: 3 },
    });
    expect(server.peakInFlight.all).toBe(3);
  });

  test("answerer_concurrency_limits caps the tasks of one answering model, not the others", async () => {
    await runVerification(
      questions,
      config({ async_max_workers: 8, answerer_concurrency_limits: { a1: 1 } }, ["a1", "a2"]),
    );
    expect(server.peakInFlight.a1).toBe(1);
    expect(server.peakInFlight.a2).toBeGreaterThan(1);
  });
});
