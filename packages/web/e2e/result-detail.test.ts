/**
 * The result detail (spec 07 §1.6 "Detail modal", "Trace viewer") in Chromium, against the real server holding
 * a stored run written with the storage API (hand-written rows from the storage tests' fixtures). The results
 * table is not built yet, so the dialog is opened the way a shared link opens it: `#/benchmark?result=<id>&
 * run_id=<run>` (the app's result deep link). Checks the row loads whole from `GET /api/v2/results/{id}`,
 * the trace search works, focus is trapped and returns to the opener, the hash is cleaned on close, axe-core
 * finds no serious or critical violation in either theme, and a missing result says so in the dialog.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import type { VerificationResult } from "../../karenina/src/results/index.js";
import { richResult } from "../../karenina/src/storage/__fixtures__/results.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";

async function focusedText(app: BrowserApp): Promise<string> {
  return app.page.evaluate<string>(
    `(document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "").trim()`,
  );
}

async function focusInDialog(app: BrowserApp): Promise<boolean> {
  return app.page.evaluate<boolean>(`document.activeElement?.closest('[role="dialog"]') !== null`);
}

describeInBrowser("the result detail dialog in a real browser", () => {
  let app: BrowserApp;
  let runId = "";
  let result: VerificationResult;
  beforeAll(async () => {
    app = await openBrowserApp();
    const storage = app.server.deps.storage;
    const bench = Benchmark.create({ name: "alpha", version: "1.0.0" });
    bench.addQuestion("What does venetoclax target?", "BCL2", { questionId: "q1" });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "nightly", benchmarkName: "alpha" });
    runId = run.id;
    result = richResult({
      questionId: "q1",
      questionText: "What does venetoclax target?",
      passed: false,
      replicate: 1,
    });
    await storage.saveResults(run.id, [result]);
  }, 180_000);
  afterAll(() => app?.close());

  const openFromLink = async (resultId: string) => {
    const { page } = app;
    await page.getByRole("tab", { name: "3. Benchmark" }).focus();
    await page.evaluate(
      `location.hash = ${JSON.stringify(`#/benchmark?result=${resultId}&run_id=${runId}`)}`,
    );
    await page.getByRole("dialog", { name: "Detailed Answering Trace" }).waitFor();
  };

  test("opens from a result link and shows the stored row, whole", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/benchmark`);
    await page.locator('[role="tab"][aria-selected="true"]', { hasText: "3. Benchmark" }).waitFor();
    await openFromLink(result.metadata.result_id);
    const dialog = page.getByRole("dialog", { name: "Detailed Answering Trace" });
    await dialog.getByRole("heading", { name: "Ground Truth vs LLM Extraction" }).waitFor();
    expect(await dialog.getByRole("region", { name: "Status" }).textContent()).toContain(
      "target: expected BCL2, found MCL1",
    );
    expect(await dialog.getByRole("region", { name: "Raw Question" }).textContent()).toContain(
      "What does venetoclax target?",
    );
    for (const name of [
      "Rubric Scores",
      "Deep Judgment",
      "Rubric Deep Judgment",
      "LLM Usage",
      "Retries",
      "Caveats",
    ])
      expect(await dialog.getByRole("region", { name, exact: true }).count()).toBe(1);
    expect(await focusedText(app)).toBe("Close detailed answering trace");
    await app.screenshot("result-detail-dark");
  });

  test("the trace viewer searches the stored response", async () => {
    const { page } = app;
    const search = page.getByRole("searchbox", { name: "Search trace" });
    await search.fill("bcl2");
    const trace = page.getByRole("region", { name: "Answer trace" });
    await expect.poll(() => trace.getByRole("status").textContent()).toBe("1 of 1");
    await page.getByRole("checkbox", { name: "Regex" }).check();
    await search.fill("BCL(");
    await trace.getByText(/Invalid regex:/).waitFor();
    await search.fill("");
  });

  test("focus stays inside the dialog", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Close detailed answering trace" }).focus();
    await page.keyboard.press("Shift+Tab");
    expect(await focusInDialog(app)).toBe(true);
    await page.keyboard.press("Tab");
    expect(await focusedText(app)).toBe("Close detailed answering trace");
    for (let step = 0; step < 15; step += 1) {
      await page.keyboard.press("Tab");
      expect(await focusInDialog(app)).toBe(true);
    }
  });

  test("axe-core finds no serious or critical violation in the open dialog, in either theme", async () => {
    const { page } = app;
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Dark theme" }).click();
    await openFromLink(result.metadata.result_id);
    await page.getByRole("heading", { name: "Raw Question" }).waitFor();
    await app.screenshot("result-detail-light");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  });

  test("Escape closes it, focus returns to the opener and the link leaves the hash", async () => {
    const { page } = app;
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect(await focusedText(app)).toBe("3. Benchmark");
    expect(new URL(page.url()).hash).toBe("#/benchmark");
    await page.getByRole("button", { name: "Dark theme" }).click();
  });

  test("no console error or page error happened in any of the steps", () => {
    expect(app.errors).toEqual([]);
  });

  test("a result the database does not hold is reported in the dialog", async () => {
    const { page } = app;
    await openFromLink("0000000000000000");
    const alert = page.getByRole("dialog").getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Could not load result 0000000000000000: /);
    await app.screenshot("result-detail-missing");
    await page.keyboard.press("Escape");
  });
});
