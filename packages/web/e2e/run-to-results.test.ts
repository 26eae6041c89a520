/**
 * Issue 16 point 6 in Chromium against the real server: a run from configuration to results with a detail view
 * opened, all in one page. The run screen is pointed at the scripted OpenAI-compatible server (openai_endpoint),
 * runs a stored benchmark to completion, and the results table under it then shows that job's rows; one row's
 * "View detailed trace" opens the detail dialog with that row's question and the scripted answer in the trace
 * viewer; Escape closes it. Screenshot and axe-core on the table and on the open dialog.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { drugReplies } from "../../karenina/src/server/__fixtures__/verification-jobs.js";
import { drugBenchmark } from "../../karenina/src/test-support/cli.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../../karenina/src/test-support/openai-server/index.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import { loadWorkingBenchmark, scriptedModel } from "./__fixtures__/run-screen.js";

const QUESTIONS = 3;
const heading = (page: Page) => page.locator("#results-heading").textContent();
const bodyRow = (page: Page, rowNumber: number) =>
  page.locator(`.results-body tr[aria-rowindex="${rowNumber + 1}"]`);

describeInBrowser("a run from configuration to results with a detail view opened", () => {
  let app: BrowserApp;
  let llm: OpenAiTestServer;
  beforeAll(async () => {
    app = await openBrowserApp();
    llm = await startOpenAiServer(drugReplies());
    await app.server.deps.storage.saveBenchmark(drugBenchmark(QUESTIONS, "run-to-results"));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  test("configure, run to completion, see the job's rows, open a row's detail, Escape closes it", async () => {
    const { page } = app;
    await loadWorkingBenchmark(app, "run-to-results");
    await page.getByText(`Test Selection (${QUESTIONS} available)`).waitFor();
    await scriptedModel(page, "Answering model 1", "answerer", llm.baseURL);
    await scriptedModel(page, "Parsing model 1", "judge", llm.baseURL);
    await page.getByRole("checkbox", { name: "Select all visible questions" }).check();
    await page.getByRole("button", { name: `Run Selected (${QUESTIONS} × 1 = ${QUESTIONS})` }).click();
    await page
      .getByText(`Verification completed: ${QUESTIONS} of ${QUESTIONS} done`)
      .waitFor({ timeout: 60_000 });

    // The same page's results table now shows the job's rows.
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe(`Test Results (${QUESTIONS})`);
    await bodyRow(page, QUESTIONS).locator("td").first().waitFor();
    const questions = await page.locator(".results-body td.results-col-question").allTextContents();
    expect([...questions].sort()).toEqual(
      Array.from({ length: QUESTIONS }, (_, i) => `Which drug inhibits BCL2? (${i})`),
    );
    for (const text of await page.locator(".results-body td.results-col-answering").allTextContents())
      expect(text).toContain("answerer");
    await app.screenshot("run-to-results-table");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);

    const row = bodyRow(page, 2);
    const rowQuestion = (await row.locator("td.results-col-question").textContent()) ?? "";
    expect(rowQuestion).toMatch(/^Which drug inhibits BCL2\? \(\d\)$/);
    await row.getByRole("button", { name: "View detailed trace" }).click();
    const dialog = page.getByRole("dialog", { name: "Detailed Answering Trace" });
    await dialog.getByRole("heading", { name: "Raw Question" }).waitFor();
    expect(await dialog.getByRole("region", { name: "Raw Question" }).textContent()).toContain(rowQuestion);
    const response = dialog.getByRole("region", { name: "Raw LLM Response (Generated)" });
    expect(await response.getByRole("region", { name: "Answer trace", exact: true }).textContent()).toContain(
      "Venetoclax.",
    );
    await app.screenshot("run-to-results-detail");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // No failed load either: the results of a job whose run row is not created yet are an empty table (was a
    // 404 logged now and then under load).
    expect(app.errors).toEqual([]);
  });
});
