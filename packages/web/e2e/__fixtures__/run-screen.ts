import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { z } from "zod";
import type { Benchmark } from "../../../karenina/src/benchmark/index.js";
import { drugReplies } from "../../../karenina/src/server/__fixtures__/verification-jobs.js";
import { mcpHttpServerPerTest } from "../../../karenina/src/test-support/mcp-http-server.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../../../karenina/src/test-support/openai-server/index.js";
import { type BrowserApp, openBrowserApp } from "./browser.js";

// Steps of the run screen's browser tests (run.test.ts, run-dialogs.test.ts, run-settings.test.ts,
// run-to-results.test.ts).

/** What a run screen suite's tests share; `beforeAll` fills it in. */
export interface RunScreenSuite {
  app: BrowserApp;
  /** The scripted OpenAI-compatible server, answering the drug questions. */
  llm: OpenAiTestServer;
  /** A scratch folder for the files a test uploads; removed after the suite. */
  folder: string;
  /** Starts an MCP server for the running test (closed after it). */
  startMcp: ReturnType<typeof mcpHttpServerPerTest>;
}

/**
 * Registers a suite's `beforeAll` and `afterAll`: the browser app with `benchmark` stored (and `defaultTimeout`
 * for its page, when given), the scripted server answering drug questions and a scratch folder named after
 * `name`. Call it in the suite's body; read the returned object's fields in its tests.
 */
export function runScreenSuite(
  name: string,
  benchmark: Benchmark,
  options: { defaultTimeout?: number } = {},
): RunScreenSuite {
  const suite = { startMcp: mcpHttpServerPerTest() } as RunScreenSuite;
  beforeAll(async () => {
    suite.app = await openBrowserApp();
    if (options.defaultTimeout !== undefined) suite.app.page.setDefaultTimeout(options.defaultTimeout);
    suite.llm = await startOpenAiServer(drugReplies());
    suite.folder = await mkdtemp(join(tmpdir(), `karenina-${name}-`));
    await suite.app.server.deps.storage.saveBenchmark(benchmark);
  }, 120_000);
  afterAll(async () => {
    await suite.app?.close();
    await suite.llm?.close();
    if (suite.folder !== undefined) await rm(suite.folder, { recursive: true, force: true });
  });
  return suite;
}

/** An MCP server "bio" with `tools` (name → description); each takes a string `q` and answers "ok". */
export function bioMcpServer(tools: Record<string, string>): McpServer {
  const mcp = new McpServer({ name: "bio", version: "1" });
  for (const [name, description] of Object.entries(tools))
    mcp.registerTool(name, { description, inputSchema: { q: z.string() } }, async () => ({
      content: [{ type: "text", text: "ok" }],
    }));
  return mcp;
}

/** A model card of the run screen by its title ("Answering model 1"). */
export const card = (page: Page, title: string): Locator => page.getByRole("group", { name: title, exact: true });

/** Makes `name` (of the server's database) the working benchmark, as the database browser's Load Benchmark does. */
export async function loadWorkingBenchmark(app: BrowserApp, name: string): Promise<void> {
  const { page } = app;
  await page.goto(`${app.url}/#/benchmark`);
  await page.getByRole("heading", { name: "Run configuration" }).waitFor();
  await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open("karenina-session");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("slices", "readwrite");
      tx.objectStore("slices").put({ version: 1, value: { benchmark: { db: null, name: ${JSON.stringify(name)} } } }, "working-benchmark");
      tx.oncomplete = () => { open.result.close(); resolve(undefined); };
      tx.onerror = () => reject(tx.error);
    };
  })`);
  await page.reload();
  await page.getByText(`Test Selection (`).waitFor();
}

/** Makes stored benchmark `name` the working benchmark through tab 3's Manage Database → Load Benchmark. */
export async function loadThroughManageDatabase(app: BrowserApp, name: string): Promise<void> {
  const { page } = app;
  await page.goto(`${app.url}/#/benchmark`);
  await page.getByRole("button", { name: "Manage Database", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Manage Database" });
  await dialog.getByRole("tab", { name: "Manage Benchmarks" }).click();
  await dialog.getByRole("button", { name: `Load Benchmark ${name}` }).click();
  await dialog.getByRole("button", { name: "Close manage database" }).click();
}

/** Points a card at the scripted server: openai_endpoint, `model`, its base URL and a test key. */
export async function scriptedModel(page: Page, title: string, model: string, baseURL: string): Promise<void> {
  const box = card(page, title);
  await box.getByRole("radio", { name: "openai_endpoint", exact: true }).check();
  await box.getByLabel("Model name").fill(model);
  await box.getByLabel("Endpoint URL").fill(baseURL);
  await box.getByLabel("API key").fill("sk-test");
}

/** Points the first answering and parsing cards at the scripted server's "answerer" and "judge". */
export async function scriptedPair(page: Page, baseURL: string): Promise<void> {
  await scriptedModel(page, "Answering model 1", "answerer", baseURL);
  await scriptedModel(page, "Parsing model 1", "judge", baseURL);
}

/**
 * Opens Answering model 1's Configure MCP, adds the server "bio" at `url` and clicks Validate; returns the dialog,
 * still open.
 */
export async function addBioMcpServer(page: Page, url: string): Promise<Locator> {
  await card(page, "Answering model 1").getByRole("button", { name: "Configure MCP" }).click();
  const dialog = page.getByRole("dialog", { name: "Configure MCP" });
  await dialog.getByRole("button", { name: "Add server" }).click();
  await dialog.getByLabel("Server name").fill("bio");
  await dialog.getByLabel("Server URL").fill(url);
  await dialog.getByRole("button", { name: "Validate" }).click();
  return dialog;
}

/** No serious or critical axe violation on the page as it is. */
export async function noSeriousViolations(app: BrowserApp): Promise<void> {
  expect(await app.seriousAccessibilityViolations()).toEqual([]);
}

/** Clicks `button`; returns the job config the page POSTed, the response status and the job id. */
export async function runAndCapture(
  page: Page,
  button: RegExp | string = /^Run Selected/,
): Promise<{ config: Record<string, unknown>; status: number; jobId: string }> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (res) => res.request().method() === "POST" && res.url().endsWith("/api/v2/verifications"),
    ),
    page.getByRole("button", { name: button }).click(),
  ]);
  const { config } = response.request().postDataJSON() as { config: Record<string, unknown> };
  const { job_id } = (await response.json()) as { job_id: string };
  return { config, status: response.status(), jobId: job_id };
}

/** Waits until the server says the job has ended; returns its final status. */
export async function jobEnd(app: BrowserApp, jobId: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${app.url}/api/v2/verifications/${jobId}/progress`, {
      headers: { authorization: `Bearer ${app.server.token}` },
    });
    const { status } = (await res.json()) as { status: string };
    if (["completed", "failed", "cancelled"].includes(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${jobId} did not end`);
}

/**
 * From any tab: tab 3, the one finished question of the working benchmark answered by `answerer` and judged by
 * `judge` on the scripted server, run to completion; then its row's "View detailed trace" opened. Returns the
 * detail dialog.
 */
export async function runOneAndOpenDetail(app: BrowserApp, baseURL: string): Promise<Locator> {
  const { page } = app;
  await page.getByRole("tab", { name: "3. Benchmark" }).click();
  await page.getByText("Test Selection (1 available)").waitFor({ timeout: 20_000 });
  await scriptedPair(page, baseURL);
  await page.getByRole("checkbox", { name: "Select all visible questions" }).check();
  await page.getByRole("button", { name: "Run Selected (1 × 1 = 1)" }).click();
  await page.getByRole("tabpanel").getByText("Verification completed: 1 of 1 done").waitFor({ timeout: 60_000 });
  await page
    .locator('.results-body tr[aria-rowindex="2"]')
    .getByRole("button", { name: "View detailed trace" })
    .click({ timeout: 20_000 });
  const dialog = page.getByRole("dialog", { name: "Detailed Answering Trace" });
  await dialog.getByRole("heading", { name: "Raw Question" }).waitFor();
  return dialog;
}
