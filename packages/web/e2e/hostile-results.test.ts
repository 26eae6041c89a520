/**
 * Attack kept as a test: stored results are a stranger's text (an imported results file, a checkpoint's
 * questions, a model's answer). Markup in a question and in the answer trace must reach the page as text in the
 * table and the detail view, never as elements or script. The rows are hand-written attack data.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { richResult } from "../../karenina/src/storage/__fixtures__/results.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";

const QUESTION = `<img src=x onerror="window.__pwned = 'question'">Which drug? <b id="injected">bold</b>`;
const TRACE = `--- AI Message ---\n<script>window.__pwned = "trace"</script><img src=y onerror="window.__pwned = 'img'">`;

describeInBrowser("hostile result text in the results view", () => {
  let app: BrowserApp;
  let runId = "";
  beforeAll(async () => {
    app = await openBrowserApp();
    const storage = app.server.deps.storage;
    const bench = Benchmark.create({ name: "hostile", version: "1.0.0" });
    bench.addQuestion(QUESTION, "BCL2", { questionId: "q0" });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "hostile-run", benchmarkName: "hostile" });
    runId = run.id;
    const row = richResult({ questionId: "q0", questionText: QUESTION });
    if (row.template !== null) {
      row.template.raw_llm_response = TRACE;
      // The viewer prefers the messages: carry the attack there too.
      row.template.trace_messages = [{ role: "assistant", content: TRACE, block_index: 0 }];
    }
    await storage.saveResults(run.id, [row]);
    await storage.finishRun(run.id, { status: "completed" });
  }, 180_000);
  afterAll(() => app?.close());

  test("markup in a question and a trace is shown as text; no handler or script of it runs", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/benchmark?run=${runId}&label=hostile`);
    const cell = page.locator(".results-body td.results-col-question").first();
    await expect.poll(() => cell.textContent(), { timeout: 8_000 }).toBe(QUESTION);
    await page.getByRole("button", { name: "View detailed trace" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText('window.__pwned = "trace"', { exact: false }).first().waitFor({ timeout: 8_000 });
    expect(await dialog.getByText(QUESTION, { exact: true }).count()).toBeGreaterThan(0);
    await page.waitForTimeout(300); // let any injected image fail and its handler run
    expect(await page.evaluate("window.__pwned ?? null")).toBeNull();
    expect(await page.locator("#injected").count()).toBe(0);
    expect(await page.locator("img[src='x'], img[src='y']").count()).toBe(0);
    await app.screenshot("hostile-results-detail");
  });
});
