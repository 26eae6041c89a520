/**
 * The results table (spec 07 §1.6, §3) in Chromium, against the real server holding one stored run of 300 rows
 * written with the storage API (hand-written rows from the storage tests' fixtures, not the output of any
 * model). The page opens the run the way `karenina view` does (`#/benchmark?run=<id>&label=…`, read at start
 * by src/app). Checks the first page and its heading count, rows past the first page of 100 loading as the
 * table scrolls, a text filter and a facet multi-select narrowing rows and the "(x of y)" count, sorting by a
 * header by click and by keyboard, filters and sort surviving a reload (IndexedDB session), the filtered
 * export holding only the filtered rows (the downloaded file is read), a summary card filtering the table by
 * keyboard, the detail dialog opening from a row
 * and giving focus back on Escape, axe-core and no console errors.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import type { VerificationResult } from "../../karenina/src/results/index.js";
import { richResult } from "../../karenina/src/storage/__fixtures__/results.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";

const ROWS = 300;
const QUESTIONS = 30;
/** Questions 0–2 of every 30 name venetoclax: 30 of the 300 rows. */
const questionText = (q: number) =>
  q < 3
    ? `What does venetoclax ${q} target?`
    : `Which pathway does compound ${String(q).padStart(2, "0")} act on?`;
const MODELS = ["gpt-4.1-mini", "claude-sonnet"] as const;

/** The table's heading ("Test Results (n)" or "(x of y)"). */
const heading = (page: Page) => page.locator("#results-heading").textContent();

/** The text of the cells of the body row at a 1-based row number (aria-rowindex = number + 1). */
function rowCells(page: Page, rowNumber: number) {
  return page.locator(`.results-body tr[aria-rowindex="${rowNumber + 1}"] td`).allTextContents();
}

async function focusedText(page: Page): Promise<string> {
  return page.evaluate<string>(
    `(document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "").trim()`,
  );
}

/** The table-view slice as stored in IndexedDB (what a reload restores). */
async function storedView(page: Page): Promise<unknown> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open("karenina-session");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const read = open.result.transaction("slices").objectStore("slices").get("results-table-view");
      read.onsuccess = () => { resolve(read.result?.value); open.result.close(); };
      read.onerror = () => reject(read.error);
    };
  })`);
}

describeInBrowser("the results table in a real browser", () => {
  let app: BrowserApp;
  let runId = "";
  beforeAll(async () => {
    app = await openBrowserApp();
    const storage = app.server.deps.storage;
    const bench = Benchmark.create({ name: "alpha", version: "1.0.0" });
    for (let q = 0; q < QUESTIONS; q++) bench.addQuestion(questionText(q), "BCL2", { questionId: `q${q}` });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "nightly", benchmarkName: "alpha" });
    runId = run.id;
    const results: VerificationResult[] = Array.from({ length: ROWS }, (_, index) =>
      richResult({
        questionId: `q${index % QUESTIONS}`,
        questionText: questionText(index % QUESTIONS),
        replicate: index + 1,
        passed: index % 3 !== 2,
        answeringModel: MODELS[index % 2],
      }),
    );
    await storage.saveResults(run.id, results);
    await storage.finishRun(run.id, { status: "completed" });
  }, 180_000);
  afterAll(() => app?.close());

  test("opens the run from the address and renders the first page with the heading count", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/benchmark?run=${runId}&label=Run%20nightly`);
    await expect.poll(() => heading(page)).toBe(`Test Results (${ROWS})`);
    expect(new URL(page.url()).hash).toBe("#/benchmark");
    await page.locator('.results-body tr[aria-rowindex="2"] td').first().waitFor();
    const first = await rowCells(page, 1);
    expect(first[0]).toBe("1");
    expect(first[1]).toBe(questionText(0));
    expect(await page.locator("table[aria-label='Test results']").getAttribute("aria-rowcount")).toBe(
      String(ROWS + 1),
    );
    // Body cells line up under their headers (a cell class once collided with the row's and broke the grid).
    const headerBox = await page.getByRole("columnheader", { name: /^Question/ }).boundingBox();
    const cellBox = await page.locator(".results-body td.results-col-question").first().boundingBox();
    expect([cellBox?.x, cellBox?.width]).toEqual([headerBox?.x, headerBox?.width]);
    await app.screenshot("results-table-first-page");
  });

  test("scrolling loads rows past the first page of 100", async () => {
    const { page } = app;
    await page.evaluate(`document.querySelector(".results-table").scrollTop = 36 * 240`);
    const row = page.locator('.results-body tr[aria-rowindex="252"] td').first();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toBe("251");
    expect((await rowCells(page, 251))[1]).toBe(questionText(250 % QUESTIONS));
    await page.evaluate(`document.querySelector(".results-table").scrollTop = 0`);
  });

  test("a text filter narrows the rows and the count", async () => {
    const { page } = app;
    await page.getByLabel("Question contains").fill("venetoclax");
    await expect.poll(() => heading(page)).toBe(`Test Results (30 of ${ROWS})`);
    await expect
      .poll(() => page.locator("table[aria-label='Test results']").getAttribute("aria-rowcount"))
      .toBe("31");
    for (const text of await page.locator(".results-body td.results-col-question").allTextContents())
      expect(text).toContain("venetoclax");
  });

  test("a multi-select filter from the facets narrows further", async () => {
    const { page } = app;
    const select = page.getByLabel("Answering model", { exact: true });
    const options = await select.locator("option").allTextContents();
    expect(options.map((option) => option.replace(/ \(\d+\)$/, ""))).toEqual(
      expect.arrayContaining([
        expect.stringContaining("claude-sonnet"),
        expect.stringContaining("gpt-4.1-mini"),
      ]),
    );
    const claude = await select.locator("option", { hasText: "claude-sonnet" }).getAttribute("value");
    await select.selectOption([claude as string]);
    await expect.poll(() => heading(page)).toBe(`Test Results (10 of ${ROWS})`);
    for (const text of await page.locator(".results-body td.results-col-answering").allTextContents())
      expect(text).toContain("claude-sonnet");
    await select.selectOption([]);
    await expect.poll(() => heading(page)).toBe(`Test Results (30 of ${ROWS})`);
  });

  test("a header sorts by click, then by keyboard", async () => {
    const { page } = app;
    const header = page.getByRole("columnheader", { name: /^Question/ });
    await page.getByRole("button", { name: /^Question/ }).click();
    await expect.poll(() => header.getAttribute("aria-sort")).toBe("ascending");
    await expect.poll(async () => (await rowCells(page, 1))[1]).toBe(questionText(0));
    await page.getByRole("button", { name: /^Question/ }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => header.getAttribute("aria-sort")).toBe("descending");
    await expect.poll(async () => (await rowCells(page, 1))[1]).toBe(questionText(2));
    expect(await focusedText(page)).toMatch(/^Question/);
  });

  test("filters and sort survive a reload", async () => {
    const { page } = app;
    await expect
      .poll(() => storedView(page))
      .toMatchObject({ text: { question: "venetoclax" }, sort: "question_text", order: "desc" });
    await page.reload();
    await expect.poll(() => heading(page)).toBe(`Test Results (30 of ${ROWS})`);
    expect(await page.getByLabel("Question contains").inputValue()).toBe("venetoclax");
    expect(await page.getByRole("columnheader", { name: /^Question/ }).getAttribute("aria-sort")).toBe(
      "descending",
    );
    await expect.poll(async () => (await rowCells(page, 1))[1]).toBe(questionText(2));
  });

  test("the filtered export downloads only the filtered rows", async () => {
    const { page } = app;
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export filtered JSON" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^results_.*\.json$/);
    const exported = JSON.parse(await readFile(await download.path(), "utf8")) as unknown;
    const rows = (Array.isArray(exported) ? exported : (exported as { results: unknown[] }).results) as {
      metadata: { question_text: string };
    }[];
    expect(rows).toHaveLength(30);
    for (const row of rows) expect(row.metadata.question_text).toContain("venetoclax");
  });

  test("'View detailed trace' opens the detail dialog; Escape closes it and gives focus back", async () => {
    const { page } = app;
    const button = page.locator('.results-body tr[aria-rowindex="2"]').getByRole("button", {
      name: "View detailed trace",
    });
    await button.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Detailed Answering Trace" });
    await dialog.getByRole("heading", { name: "Raw Question" }).waitFor();
    expect(await dialog.getByRole("region", { name: "Raw Question" }).textContent()).toContain(
      questionText(2),
    );
    await app.screenshot("results-table-detail");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await focusedText(page)).toBe("View detailed trace");
  });

  test("Enter on a summary card filters the table to its rows", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Reset filters" }).click();
    await expect.poll(() => heading(page)).toBe(`Test Results (${ROWS})`);
    await page.getByRole("region", { name: "Summary" }).scrollIntoViewIfNeeded();
    const completion = page.getByRole("region", { name: "Completion Status" });
    const failed = completion.getByRole("button", { name: /Failed$/ });
    await failed.focus();
    await page.keyboard.press("Enter");
    // Every third row fails its template (richResult passed: false).
    await expect.poll(() => heading(page)).toBe(`Test Results (${ROWS / 3} of ${ROWS})`);
    for (const text of await page.locator(".results-body td.results-col-verification").allTextContents())
      expect(text).toBe("Failed");
    await completion.getByRole("button", { name: /Passed$/ }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => heading(page)).toBe(`Test Results (${(ROWS * 2) / 3} of ${ROWS})`);
    // The card's filter shows in the table's own filter.
    expect(await page.locator("#results-filter-verification option:checked").allTextContents()).toEqual([
      expect.stringMatching(/^passed \(/),
    ]);
  });

  test("axe-core finds no serious or critical violation; no console or page error happened", async () => {
    await app.screenshot("results-table-filtered");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    expect(app.errors).toEqual([]);
  });
});
