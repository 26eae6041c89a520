/**
 * A benchmark is a trust domain (issue 12, point 3): its Python code runs in a sandbox of its own, and within
 * it a template that tampers with the trusted bridge cannot change another question's verdict in a real run.
 * The templates and every model reply below are written for this test, not output of any model.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseVerificationConfig } from "../pipeline/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import {
  HONEST_CITY_TEMPLATE as HONEST,
  BRIDGE_FORGING_TEMPLATE as HOSTILE,
} from "../test-support/tampering-templates.js";
import { Benchmark } from "./benchmark.js";

let server: OpenAiTestServer;

beforeAll(async () => {
  server = await startOpenAiServer();
});

afterAll(async () => {
  await server.close();
});

function benchmark(isolation?: "checkpoint" | "strict"): {
  bench: Benchmark;
  honest: string;
  hostile: string;
} {
  const bench = Benchmark.create({ name: "isolation", ...(isolation ? { isolation } : {}) });
  const hostile = bench.addQuestion("Hostile question?", "anything", { finished: true });
  const honest = bench.addQuestion("What is the capital of France?", "Paris", { finished: true });
  return { bench, honest, hostile };
}

describe.each([undefined, "strict"] as const)("isolation %s", (isolation) => {
  test("a template replacing the bridge's evaluation leaves the other question's verdict alone", async () => {
    const { bench, honest, hostile } = benchmark(isolation);
    try {
      await bench.addAnswerTemplate(hostile, HOSTILE);
      await bench.addAnswerTemplate(honest, HONEST);
      server.script(
        {
          match: { model: "answerer", lastUserIncludes: "Hostile" },
          reply: { text: "HOSTILE-ANSWER" },
          repeat: true,
        },
        { match: { model: "answerer", lastUserIncludes: "France" }, reply: { text: "Rome." }, repeat: true },
        {
          match: { model: "judge", lastUserIncludes: "HOSTILE-ANSWER" },
          reply: { json: { x: "x" } },
          repeat: true,
        },
        {
          match: { model: "judge", lastUserIncludes: "Rome." },
          reply: { json: { city: "Rome" } },
          repeat: true,
        },
      );
      const model = (id: string) => ({
        id,
        model_name: id,
        interface: "openai_endpoint",
        endpoint_base_url: server.baseURL,
        endpoint_api_key: "test-key",
      });
      const config = parseVerificationConfig({
        answering_models: [model("answerer")],
        parsing_models: [model("judge")],
        replicate_count: 3,
      });
      const run = await bench.runVerification(config);
      const verdicts = run.results.map((r) => [r.metadata.question_id, r.template?.verify_result]);
      expect(verdicts.filter(([id]) => id === hostile).map(([, v]) => v)).toEqual([true, true, true]);
      expect(verdicts.filter(([id]) => id === honest).map(([, v]) => v)).toEqual([false, false, false]);
    } finally {
      await bench.close();
    }
  });
});

test("each benchmark has its own sandbox, with the isolation it was loaded with", async () => {
  const first = benchmark();
  const second = benchmark("strict");
  try {
    expect(first.bench.pythonSandbox).not.toBe(second.bench.pythonSandbox);
    expect(first.bench.isolation).toBe("checkpoint");
    expect(second.bench.isolation).toBe("strict");
    await first.bench.addAnswerTemplate(first.hostile, HOSTILE);
    await (await first.bench.getAnswerTemplate(first.hostile)).evaluate({ x: "x" });
    await second.bench.addAnswerTemplate(second.honest, HONEST);
    const honest = await second.bench.getAnswerTemplate(second.honest);
    expect((await honest.evaluate({ city: "Rome" })).verify).toBe(false);
    expect(second.bench.clone().isolation).toBe("strict");
  } finally {
    await Promise.all([first.bench.close(), second.bench.close()]);
  }
});
