/**
 * A benchmark is a trust domain (issue 12, point 3): its Python code runs in a sandbox of its own, and within
 * it a template that tampers with the trusted bridge cannot change another question's verdict in a real run.
 * The templates and every model reply are written for this test, not output of any model.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseVerificationConfig } from "../pipeline/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { endpointModel } from "../test-support/pipeline-context.js";
import { TAMPERING_RUN_SCRIPT, tamperingBenchmark } from "../test-support/tampering-templates.js";

let server: OpenAiTestServer;

beforeAll(async () => {
  server = await startOpenAiServer([...TAMPERING_RUN_SCRIPT]);
});

afterAll(async () => {
  await server.close();
});

describe.each([undefined, "strict"] as const)("isolation %s", (isolation) => {
  test("a template replacing the bridge's evaluation leaves the other question's verdict alone", async () => {
    const bench = await tamperingBenchmark(isolation ? { isolation } : {});
    try {
      const config = parseVerificationConfig({
        answering_models: [endpointModel(server.baseURL, "answerer")],
        parsing_models: [endpointModel(server.baseURL, "judge")],
        replicate_count: 3,
      });
      const run = await bench.runVerification(config);
      const verdicts = (id: string) =>
        run.results.filter((r) => r.metadata.question_id === id).map((r) => r.template?.verify_result);
      expect(verdicts("hostile")).toEqual([true, true, true]);
      expect(verdicts("honest")).toEqual([false, false, false]);
    } finally {
      await bench.close();
    }
  });
});

test("each benchmark has its own sandbox, with the isolation it was loaded with", async () => {
  const first = await tamperingBenchmark();
  const second = await tamperingBenchmark({ isolation: "strict" });
  try {
    expect(first.pythonSandbox).not.toBe(second.pythonSandbox);
    expect(first.isolation).toBe("checkpoint");
    expect(second.isolation).toBe("strict");
    await (await first.getAnswerTemplate("hostile")).evaluate({ x: "x" });
    const honest = await second.getAnswerTemplate("honest");
    expect((await honest.evaluate({ city: "Rome" })).verify).toBe(false);
    expect(second.clone().isolation).toBe("strict");
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});
