/**
 * Issue 19 points 4 and 5 in Chromium against the real server: a verification job of a scenario benchmark run
 * through the server's API (the scripted OpenAI-compatible server answers: `answerer` right then caving under the
 * pushback, `guesser` wrong; hand-written replies, not model output), then its run opened in the results view
 * as `karenina view` opens one. The Scenarios panel shows one row per execution with its path as node chips,
 * its turns and outcome badges, and a summary per scenario; the graph picture draws nodes, END and the edges
 * with their conditions, and selecting an execution highlights exactly its path. Screenshot, axe-core, no
 * console errors.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  pushbackCheckpoint,
  pushbackConfig,
  pushbackReplies,
} from "../../karenina/src/server/__fixtures__/scenario-benchmark.js";
import { apiClient, json } from "../../karenina/src/server/__fixtures__/verification-jobs.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../../karenina/src/test-support/openai-server/index.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";

/** The execution row whose path is `path` (nodes joined by `>`). */
const executionRow = (page: Page, path: string) =>
  page.locator(".scenario-executions tbody tr", { has: page.locator(`.scenario-path[data-path="${path}"]`) });

/** The classes of the graph's edge `a→b` or node. */
const edgeClass = (page: Page, edge: string) =>
  page.locator(`.scenario-graph [data-edge="${edge}"]`).getAttribute("class");
const nodeClass = (page: Page, node: string) =>
  page.locator(`.scenario-graph [data-node="${node}"]`).getAttribute("class");

describeInBrowser("the scenarios of a run in the results view", () => {
  let app: BrowserApp;
  let llm: OpenAiTestServer;
  let jobId = "";
  beforeAll(async () => {
    app = await openBrowserApp();
    llm = await startOpenAiServer(pushbackReplies());
    const api = apiClient(app.server.url, app.server.token);
    const res = await api.post("/api/v2/verifications", {
      config: pushbackConfig(llm.baseURL),
      checkpoint: pushbackCheckpoint(),
      run_name: "pushback-run",
    });
    expect(res.status).toBe(202);
    jobId = (await json(res)).job_id;
    await api.waitForStatus(jobId, "completed");
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  test("the panel shows each execution's path, turns and outcomes, and the summary per scenario", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/benchmark?run=${jobId}&label=Run%20pushback`);
    await page.getByRole("heading", { name: "Scenarios" }).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator("#results-heading").textContent()).toBe("Test Results (4)");

    const caved = executionRow(page, "ask>push");
    expect(await caved.locator(".scenario-chip").allTextContents()).toEqual(["ask", "push"]);
    expect(await caved.locator(".scenario-path").textContent()).toBe("ask → push");
    expect(await caved.locator(".scenario-status").textContent()).toBe("completed");
    expect(await caved.locator("td").nth(4).textContent()).toBe("2");
    expect(
      await caved.locator('.scenario-outcome[data-outcome="held-firm"]').getAttribute("class"),
    ).toContain("false");
    expect(
      await caved.locator('.scenario-outcome[data-outcome="completed"]').getAttribute("class"),
    ).toContain("true");
    expect(await caved.locator('.scenario-outcome[data-outcome="pushes"]').textContent()).toBe("pushes: 1");
    const explained = executionRow(page, "ask>explain");
    expect(await explained.locator(".scenario-chip").allTextContents()).toEqual(["ask", "explain"]);
    expect(await explained.locator('.scenario-outcome[data-outcome="pushes"]').textContent()).toBe(
      "pushes: 0",
    );
    expect(await explained.locator(".scenario-failure").textContent()).toBe("");

    const summary = page.locator('.scenario-summary tr[data-scenario="pushback"]');
    expect(await summary.locator("td").first().textContent()).toBe("2");
    expect(await summary.locator('li[data-outcome="completed"]').textContent()).toBe(
      "completed: 2/2 true (100%)",
    );
    expect(await summary.locator('li[data-outcome="pushes"]').textContent()).toBe("pushes: mean 0.5 (0–1)");

    // The graph: every node, END, and the edges with their conditions; nothing highlighted yet.
    const graph = page.getByRole("img", { name: "Graph of scenario pushback" });
    await graph.waitFor();
    expect(await graph.locator("[data-node] > text").allTextContents()).toEqual([
      "ask",
      "push",
      "explain",
      "END",
    ]);
    expect(await page.locator('[data-edge="ask→push"] > text').textContent()).toBe("verify_result == True");
    expect(await page.locator('[data-edge="ask→explain"] > text').textContent()).toBe("otherwise");
    expect(await page.locator(".scenario-graph .taken").count()).toBe(0);
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  });

  test("selecting an execution highlights its path in the graph, and another's replaces it", async () => {
    const { page } = app;
    await executionRow(page, "ask>push").getByRole("button").click();
    await page
      .getByRole("img", { name: "Graph of scenario pushback, path ask → push highlighted" })
      .waitFor();
    expect(await edgeClass(page, "ask→push")).toContain("taken");
    expect(await edgeClass(page, "push→END")).toContain("taken");
    expect(await edgeClass(page, "ask→explain")).not.toContain("taken");
    expect(await nodeClass(page, "push")).toContain("taken");
    expect(await nodeClass(page, "explain")).not.toContain("taken");
    expect(await executionRow(page, "ask>push").getByRole("button").getAttribute("aria-pressed")).toBe(
      "true",
    );
    await app.screenshot("scenario-results-selected");

    await executionRow(page, "ask>explain").getByRole("button").click();
    await page
      .getByRole("img", { name: "Graph of scenario pushback, path ask → explain highlighted" })
      .waitFor();
    expect(await edgeClass(page, "ask→explain")).toContain("taken");
    expect(await edgeClass(page, "explain→END")).toContain("taken");
    expect(await edgeClass(page, "ask→push")).not.toContain("taken");
    expect(await nodeClass(page, "push")).not.toContain("taken");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    expect(app.errors).toEqual([]);
  });
});
