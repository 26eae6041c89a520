/**
 * Three gaps of the database screen closed, in Chromium against the real server: an address with `db=` (a run of
 * another database) connects that database in the bar as well as showing its run; "Import Results…" from a
 * benchmark card adds the new run to the stored-runs list without a reload; the summary panel's run selector
 * names the runs of a source of several runs by their names, not their ids.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { richResult } from "../../karenina/src/storage/__fixtures__/results.js";
import { openStorage } from "../../karenina/src/storage/index.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";

const connectedDb = (app: BrowserApp) => app.page.getByTestId("connected-db").textContent();

/** Opens the page afresh at `hash` (a hash change alone does not start the app again). */
async function openAt(app: BrowserApp, hash: string): Promise<void> {
  await app.page.goto("about:blank");
  await app.page.goto(`${app.url}/${hash}`);
}

describeInBrowser("database screen gaps", () => {
  let app: BrowserApp;
  let labRun = "";
  let runA = "";
  let runB = "";
  beforeAll(async () => {
    app = await openBrowserApp();
    app.page.setDefaultTimeout(15_000);
    const lab = await openStorage(join(app.server.deps.workDir, "lab.db"));
    const labBench = Benchmark.create({ name: "Pharma lab" });
    labBench.addQuestion({ question: "What does venetoclax target?", raw_answer: "BCL2", question_id: "q1" });
    await lab.saveBenchmark(labBench);
    const run = await lab.startRun({ runName: "lab-nightly", benchmarkName: "Pharma lab", config: {} });
    labRun = run.id;
    await lab.saveResults(run.id, [
      richResult({ questionId: "q1", questionText: "What does venetoclax target?" }),
    ]);
    await lab.finishRun(run.id, { status: "completed" });
    await lab.close();
    // A `db=` address names a connection the server holds (made by the Connect tab, here over the API).
    const connected = await fetch(`${app.url}/api/v2/databases/connections`, {
      method: "POST",
      headers: { authorization: `Bearer ${app.server.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "lab", sqlite_file: "lab.db", create_if_missing: false }),
    });
    expect(connected.ok, await connected.text()).toBe(true);

    const storage = app.server.deps.storage;
    const bench = Benchmark.create({ name: "alpha" });
    bench.addQuestion({ question: "What is q1?", raw_answer: "A", question_id: "q1" });
    await storage.saveBenchmark(bench);
    for (const name of ["monday-run", "tuesday-run"]) {
      const started = await storage.startRun({ runName: name, benchmarkName: "alpha", config: {} });
      await storage.saveResults(started.id, [richResult({ questionId: "q1", questionText: "What is q1?" })]);
      await storage.finishRun(started.id, { status: "completed" });
      if (name === "monday-run") runA = started.id;
      else runB = started.id;
    }
  }, 120_000);
  afterAll(() => app?.close());

  test("an address with db= connects that database in the bar and shows its run", async () => {
    const { page } = app;
    await openAt(app, `#/benchmark?db=lab&run=${labRun}&label=Run%20lab-nightly`);
    await page.getByRole("heading", { name: "Database", level: 2 }).waitFor();
    await expect.poll(() => connectedDb(app)).toBe("lab");
    expect(await page.getByTestId("results-source").textContent()).toBe("Run lab-nightly");
    await page.getByRole("button", { name: "Open run lab-nightly" }).waitFor();
    await expect.poll(() => page.locator("#results-heading").textContent()).toBe("Test Results (1)");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  });

  test("Import Results… from a benchmark card refreshes the stored-runs list", async () => {
    const { page } = app;
    await openAt(app, `#/benchmark?run=${runA}`);
    await expect.poll(() => connectedDb(app)).toBe("the server's database");
    await page.getByRole("button", { name: "Open run monday-run" }).waitFor();
    const stored = (await (
      await fetch(`${app.url}/api/v2/benchmarks/alpha`, {
        headers: { authorization: `Bearer ${app.server.token}` },
      })
    ).json()) as { checkpoint: { dataFeedElement: { "@id": string }[] } };
    const questionId = stored.checkpoint.dataFeedElement[0]?.["@id"] as string;
    const exported = {
      format_version: "2.2",
      metadata: {},
      results: [richResult({ questionId, questionText: "What is q1?", passed: true })],
    };
    await page.getByRole("button", { name: "Manage Database" }).click();
    const dialog = page.getByRole("dialog", { name: "Manage Database" });
    await dialog.getByRole("tab", { name: "Manage Benchmarks" }).click();
    await dialog.getByRole("button", { name: "Import Results alpha" }).click();
    await dialog.getByLabel("Results export (JSON)").setInputFiles({
      name: "export.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(exported)),
    });
    await dialog.getByLabel("Run name (optional)").fill("imported-from-card");
    await dialog.getByRole("button", { name: "Import Results into alpha" }).click();
    await page.getByText("Imported 1 verification results").first().waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Open run imported-from-card" }).waitFor({ timeout: 5_000 });
  });

  test("the summary's run selector names the runs", async () => {
    const { page } = app;
    await openAt(app, `#/benchmark?run=${runA}&run=${runB}&label=2%20runs`);
    await expect.poll(() => page.locator("#results-heading").textContent()).toBe("Test Results (2)");
    const select = page.locator(".summary-panel select");
    await select.scrollIntoViewIfNeeded();
    await expect
      .poll(() => select.locator("option").allTextContents())
      .toEqual(["All Runs", "monday-run", "tuesday-run"]);
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  });
});
