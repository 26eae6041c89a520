/**
 * The summary and comparison panel (spec 07 §1.6) in Chromium, against the real server holding a stored run of
 * two answering models on two questions (hand-written rows from the storage tests' fixtures, written with the
 * storage API). The run is opened the way `karenina view` opens it: `#/benchmark?run=<id>`. Checks the summary
 * figures, the completion cards filter by keyboard, the comparison heatmap is reachable by keyboard with its text
 * equivalents, and axe-core finds no serious or critical violation.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { richResult } from "../../karenina/src/storage/__fixtures__/results.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";

const FIRST = "openai_endpoint:gpt-4.1-mini +[pubmed]";
const SECOND = "openai_endpoint:gpt-4.1 +[pubmed]";
const AGENT = "480 tokens, agent, 3 iterations";

describeInBrowser("the summary and comparison panel in a real browser", () => {
  let app: BrowserApp;
  let runId = "";
  beforeAll(async () => {
    app = await openBrowserApp();
    const storage = app.server.deps.storage;
    const bench = Benchmark.create({ name: "alpha", version: "1.0.0" });
    bench.addQuestion("What does venetoclax target?", "BCL2", { questionId: "q1" });
    bench.addQuestion("What does imatinib target?", "BCR-ABL", { questionId: "q2" });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "nightly", benchmarkName: "alpha" });
    runId = run.id;
    await storage.saveResults(run.id, [
      richResult({ questionId: "q1", questionText: "What does venetoclax target?", passed: true }),
      richResult({ questionId: "q2", questionText: "What does imatinib target?", passed: false }),
      richResult({
        questionId: "q1",
        questionText: "What does venetoclax target?",
        answeringModel: "gpt-4.1",
      }),
      richResult({ questionId: "q2", questionText: "What does imatinib target?", answeringModel: "gpt-4.1" }),
    ]);
    await storage.finishRun(run.id, { status: "completed" });
  }, 180_000);
  afterAll(() => app?.close());

  const panel = () => app.page.getByRole("region", { name: /^(Summary|Comparison)$/ });

  test("shows the run's summary figures", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/benchmark?run=${encodeURIComponent(runId)}`);
    // The summary is asked for when the panel comes near the view.
    await panel().scrollIntoViewIfNeeded();
    const overview = panel().getByRole("region", { name: "Overview" });
    await overview.waitFor();
    expect(await overview.getByRole("listitem").allTextContents()).toEqual([
      "4Total results",
      "2Questions",
      "2 answering × 1 parsingModels",
      "1Replicates",
      "11 sTotal execution time",
      "1,920Tokens",
    ]);
    const completion = panel().getByRole("region", { name: "Completion Status" });
    expect(await completion.getByRole("listitem").allTextContents()).toEqual([
      "3Completed",
      "1Errors",
      "3Passed",
      "1Failed",
      "0Abstained",
      "75 %Pass rate",
    ]);
    const passRates = panel().getByRole("region", { name: "Template Pass Rates" });
    expect(await passRates.getByRole("row").allTextContents()).toEqual([
      "Model combinationPassedJudgedPass rate",
      expect.stringMatching(/^openai_endpoint:gpt-4\.1-mini .*1250 %$/),
      expect.stringMatching(/^openai_endpoint:gpt-4\.1 .*22100 %$/),
    ]);
    await panel().getByText("Pass rate by model", { exact: true }).waitFor();
    await app.screenshot("summary-panel");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    expect(app.errors).toEqual([]);
  });

  test("Comparison: the heatmap is reachable by keyboard, each cell named by its text equivalent", async () => {
    const { page } = app;
    await panel().getByRole("button", { name: "Comparison" }).click();
    const grid = page.getByRole("grid", { name: "Per-question results by model and replicate" });
    await grid.waitFor();
    expect(await panel().getByRole("checkbox", { checked: true }).count()).toBe(2);
    const first = grid.getByRole("gridcell").first();
    expect(await first.getAttribute("tabindex")).toBe("0");
    await first.focus();
    const focused = () =>
      page.evaluate<string | null>(`document.activeElement?.getAttribute("aria-label") ?? null`);
    expect(await focused()).toBe(`q1 / ${FIRST}: passed, ${AGENT}`);
    await page.keyboard.press("ArrowRight");
    expect(await focused()).toBe(`q1 / ${SECOND}: passed, ${AGENT}`);
    await page.keyboard.press("ArrowDown");
    const name = await focused();
    expect(name).toBe(`q2 / ${SECOND}: passed, ${AGENT}`);
    expect(await panel().getByTestId("heatmap-shown").textContent()).toBe(name);
    await page.keyboard.press("ArrowLeft");
    expect(await focused()).toBe(`q2 / ${FIRST}: failed, ${AGENT}`);
    await app.screenshot("summary-comparison-heatmap");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Detailed Answering Trace" }).waitFor();
    expect(app.errors).toEqual([]);
  });
});
