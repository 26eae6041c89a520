import { afterEach, describe, expect, test } from "vitest";
import { storageTargets } from "../../storage/__fixtures__/databases.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { callApi } from "../__fixtures__/api-calls.js";
import { pushbackCheckpoint, pushbackConfig, pushbackReplies } from "../__fixtures__/scenario-benchmark.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { apiClient, json } from "../__fixtures__/verification-jobs.js";

let server: TestServer | undefined;
let llm: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  await llm?.close();
  server = undefined;
  llm = undefined;
});

const PUSHBACK = pushbackCheckpoint();

/** Stores the pushback scenario benchmark through the benchmark routes, as the web app saves one. */
const store = (at: TestServer) =>
  callApi(at.url, "PUT", "/api/v2/benchmarks/pushback-bench", { checkpoint: PUSHBACK });

for (const target of storageTargets()) {
  describe(`a scenario benchmark stored in the server's database (${target.name})`, () => {
    test("is listed with its scenario count and comes back with its scenarios", async () => {
      server = await startTestServer({ storageUrl: await target.fresh() });
      const api = apiClient(server.url, server.token);
      const saved = await store(server);
      expect(saved).toMatchObject({
        status: 200,
        json: { name: "pushback-bench", question_count: 0, scenario_count: 1 },
      });
      const list = await json(await api.get("/api/v2/benchmarks"));
      expect(list.items).toEqual([
        expect.objectContaining({ name: "pushback-bench", total_questions: 0, scenario_count: 1 }),
      ]);
      const got = await json(await api.get("/api/v2/benchmarks/pushback-bench"));
      expect(got.checkpoint.hasPart).toEqual(PUSHBACK.hasPart);
    });

    test("started by name, it runs as a scenario job: every execution, its turn rows stored", async () => {
      llm = await startOpenAiServer(pushbackReplies());
      server = await startTestServer({ storageUrl: await target.fresh() });
      const api = apiClient(server.url, server.token);
      await store(server);
      const res = await api.post("/api/v2/verifications", {
        config: pushbackConfig(llm.baseURL),
        benchmark_name: "pushback-bench",
      });
      expect(res.status).toBe(202);
      const jobId = (await json(res)).job_id;
      await api.waitForStatus(jobId, "completed");
      const progress = await json(await api.get(`/api/v2/verifications/${jobId}/progress`));
      expect(progress).toMatchObject({ total: 2, processed: 2, successful: 2, failed: 0 });
      const page = await json(await api.get(`/api/v2/verifications/${jobId}/results?fields=summary`));
      expect(page.total).toBe(4);
      expect(page.scenario_results.map((record: { scenario_id: string }) => record.scenario_id)).toEqual([
        "pushback",
        "pushback",
      ]);
      const scenarios = await json(await api.get(`/api/v2/verifications/${jobId}/scenarios`));
      expect(scenarios.scenarios.map((s: { scenario_id: string }) => s.scenario_id)).toEqual(["pushback"]);
    });
  });
}
