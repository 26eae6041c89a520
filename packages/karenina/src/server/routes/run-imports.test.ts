import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { manyResults } from "../../storage/__fixtures__/results.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

describe("POST /api/v2/verification-runs/imports (a results file uploaded to view)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const post = (body: unknown) =>
    fetch(`${server.url}/api/v2/verification-runs/imports`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` },
      body: JSON.stringify(body),
    });

  test("stores a run log as an imported run the stored-run routes list", async () => {
    const content = manyResults(["q1", "q2"], 3)
      .map((r) => JSON.stringify(r))
      .join("\n");
    const response = await post({ content, filename: "nightly.jsonl", run_name: "uploaded" });
    expect(response.status).toBe(201);
    const imported = (await response.json()) as { run_id: string; benchmark_name: string };
    expect(imported).toMatchObject({
      run_name: "uploaded",
      benchmark_name: "nightly.jsonl",
      imported_count: 3,
    });
    const runs = (await (
      await fetch(`${server.url}/api/v2/verification-runs`, {
        headers: { authorization: `Bearer ${server.token}` },
      })
    ).json()) as { items: { id: string; is_imported: boolean }[] };
    expect(runs.items).toContainEqual(expect.objectContaining({ id: imported.run_id, is_imported: true }));
  });

  test("refuses text that is not results, and a file name of another kind, with 422", async () => {
    const notResults = await post({ content: '{"hello": 1}\n', filename: "x.jsonl" });
    expect(notResults.status).toBe(422);
    expect(((await notResults.json()) as { error: { message: string } }).error.message).toMatch(/x\.jsonl/);
    expect((await post({ content: "a,b", filename: "x.csv" })).status).toBe(422);
  });
});
