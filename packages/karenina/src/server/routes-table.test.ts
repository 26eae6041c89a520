import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServer, type TestServer } from "./__fixtures__/test-server.js";
import { OPENAPI_PATH } from "./app.js";
import { ROUTES_TABLE_END, ROUTES_TABLE_START, routesTable } from "./routes-table.js";

const DOC = fileURLToPath(new URL("../../../../docs/server.md", import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// Run with UPDATE_ROUTES_TABLE=1 to rewrite the table after changing routes.
test("docs/server.md lists exactly the routes the OpenAPI document has", async () => {
  const res = await fetch(`${server.url}${OPENAPI_PATH}`);
  expect(res.status).toBe(200);
  const table = routesTable((await res.json()) as Parameters<typeof routesTable>[0]);
  const text = await readFile(DOC, "utf8");
  const start = text.indexOf(ROUTES_TABLE_START);
  const end = text.indexOf(ROUTES_TABLE_END) + ROUTES_TABLE_END.length;
  expect(start).toBeGreaterThanOrEqual(0);
  const current = text.slice(start, end);
  if (process.env.UPDATE_ROUTES_TABLE === "1" && current !== table) {
    await writeFile(DOC, `${text.slice(0, start)}${table}${text.slice(end)}`);
    return;
  }
  expect(current).toBe(table);
});
