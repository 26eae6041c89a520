/**
 * B3 (spec 07 §4) and the generation half of tab 1, in Chromium against the real server: the extraction wizard
 * on .xlsx (with its sheet picker), CSV (dropped) and TSV files; empty, unsupported and corrupt files showing
 * their errors with Extract kept disabled; a 1,000-row CSV; Start Over; the session keeping the wizard across a
 * reload; then template generation on the scripted OpenAI-compatible server with a failure marked live, Retry
 * Failed, Cancel, reattaching after a reload, and "Add to Curation" creating and then merging into a benchmark.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  allText,
  drugReplies,
  generationRules,
} from "../../karenina/src/authoring/template-generation/__fixtures__/generation-replies.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../../karenina/src/test-support/openai-server/index.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import { noSeriousViolations } from "./__fixtures__/run-screen.js";
import {
  delimitedFile,
  dropFile,
  drugRows,
  type FilePayload,
  xlsxFile,
} from "./__fixtures__/spreadsheets.js";

const extractButton = (page: Page) => page.getByRole("button", { name: /^(Extract Questions|Extracting…)$/ });
const errorBox = (page: Page) => page.getByRole("alert").filter({ hasText: /./ }).first();

async function openTab(app: BrowserApp): Promise<void> {
  await app.page.goto(`${app.url}/#/generate`);
  await app.page.getByRole("heading", { name: "1. Question Extraction" }).waitFor();
}

async function pick(page: Page, file: FilePayload): Promise<void> {
  await page
    .locator("#file-upload")
    .setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer });
}

async function startOver(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Start Over" }).click();
  await page.getByRole("button", { name: "Select File" }).waitFor();
}

/** Uploads `file` and extracts with the auto-mapped columns; returns the success line. */
async function extract(page: Page, file: FilePayload, count: number): Promise<void> {
  await pick(page, file);
  await page.getByText("Ready to extract").waitFor();
  await extractButton(page).click();
  await page
    .getByRole("tabpanel")
    .getByText(`Successfully extracted ${count} questions`)
    .waitFor({ timeout: 60_000 });
}

async function authGet(app: BrowserApp, path: string): Promise<unknown> {
  const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${app.server.token}` } });
  expect(res.status).toBe(200);
  return res.json();
}

describeInBrowser("B3: the extraction wizard and template generation", () => {
  let app: BrowserApp;
  let llm: OpenAiTestServer;
  beforeAll(async () => {
    app = await openBrowserApp();
    llm = await startOpenAiServer();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  test("xlsx: the sheet picker, whole-word auto-mapping, Advanced with keyword preview, extraction, reload", async () => {
    const { page } = app;
    await openTab(app);
    expect(await extractButton(page).isDisabled()).toBe(true);
    await page.getByText("Upload a spreadsheet first.").waitFor();
    await noSeriousViolations(app);
    await app.screenshot("generate-upload");

    const workbook = await xlsxFile("drugs.xlsx", {
      Notes: [
        ["Category", "Info"],
        ["x", "y"],
      ],
      Questions: drugRows(3),
    });
    await pick(page, workbook);
    await page.getByText("drugs.xlsx").waitFor();
    const sheet = page.getByLabel("Sheet");
    expect(await sheet.inputValue()).toBe("Notes");
    // "Category" contains the letter a: it is only the answer column when nothing better exists.
    expect(await page.getByLabel("Answer column (required)").inputValue()).toBe("Category");
    expect(await extractButton(page).isDisabled()).toBe(true);
    await page.getByText("Choose the question column.").waitFor();

    await sheet.selectOption("Questions");
    await page.getByRole("cell", { name: "Which drug is number 2?" }).waitFor();
    expect(await page.getByLabel("Question column (required)").inputValue()).toBe("Question");
    expect(await page.getByLabel("Answer column (required)").inputValue()).toBe("Answer");
    await page.getByText("Ready to extract").waitFor();
    await page.getByText(/e\.g\. “drug-0”/).waitFor();

    await page.getByRole("button", { name: "Advanced" }).click();
    await page.getByLabel("Keyword column 1").selectOption("Tags");
    await page.getByLabel("Separator 1").fill(";");
    await page.getByText("Row 1: shared, t0").waitFor();
    await page.getByRole("button", { name: "Add Keyword Column" }).click();
    await page.getByRole("button", { name: "Remove keyword column 2" }).click();
    await noSeriousViolations(app);
    await app.screenshot("generate-configure");

    await extractButton(page).click();
    await page.getByRole("tabpanel").getByText("Successfully extracted 3 questions").waitFor();
    await page
      .getByRole("region", { name: "Extracted questions" })
      .getByText("1. Which drug is number 0?")
      .waitFor();
    await noSeriousViolations(app);
    await app.screenshot("generate-extracted");

    await page.reload();
    await page.getByRole("tabpanel").getByText("Successfully extracted 3 questions").waitFor();
    await startOver(page);
    expect(app.errors).toEqual([]);
  });

  test("CSV (dropped) and TSV (picked) extract; Start Over between them", async () => {
    const { page } = app;
    await openTab(app);
    await dropFile(page, ".generate-dropzone", delimitedFile("drugs.csv", drugRows(2)));
    await page.getByText("Ready to extract").waitFor();
    await extractButton(page).click();
    await page.getByRole("tabpanel").getByText("Successfully extracted 2 questions").waitFor();
    await startOver(page);
    await extract(page, delimitedFile("drugs.tsv", drugRows(4), "\t"), 4);
    await startOver(page);
  });

  test("empty, unsupported and corrupt files show their error and keep Extract disabled", async () => {
    const { page } = app;
    await openTab(app);
    const expectRefused = async (pattern: RegExp) => {
      await errorBox(page).getByText(pattern).waitFor();
      expect(await extractButton(page).isDisabled()).toBe(true);
    };

    await pick(page, { name: "empty.csv", mimeType: "text/csv", buffer: Buffer.alloc(0) });
    await expectRefused(/"empty\.csv" is empty/);
    await page.getByRole("button", { name: "Dismiss error" }).click();
    expect(await page.getByRole("alert").count()).toBe(0);

    await pick(page, delimitedFile("header-only.csv", [["Question", "Answer"]]));
    await expectRefused(/no data rows/);
    await noSeriousViolations(app);
    await app.screenshot("generate-error");
    await startOver(page);

    await pick(page, { name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
    await expectRefused(/Invalid file type\. Allowed extensions: \.xlsx, \.xls, \.csv, \.tsv, \.txt/);
    // The original checked only the picker: a dropped file gets the same checks.
    await dropFile(page, ".generate-dropzone", {
      name: "tool.exe",
      mimeType: "application/x-msdownload",
      buffer: Buffer.from("MZ"),
    });
    await expectRefused(/Invalid file type/);

    await pick(page, {
      name: "corrupt.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: Buffer.from("this is not a zip archive at all"),
    });
    await errorBox(page).waitFor();
    expect(await errorBox(page).textContent()).toMatch(/corrupt\.xlsx|xlsx|zip|read/i);
    expect(await extractButton(page).isDisabled()).toBe(true);
    await startOver(page);
    expect(app.errors.filter((error) => !error.includes("the server responded with a status of"))).toEqual(
      [],
    );
  });

  test("a 1,000-row CSV extracts (time printed)", async () => {
    const { page } = app;
    await openTab(app);
    await pick(page, delimitedFile("thousand.csv", drugRows(1000, "Large question")));
    await page.getByText("Ready to extract").waitFor();
    const started = Date.now();
    await extractButton(page).click();
    await page
      .getByRole("tabpanel")
      .getByText("Successfully extracted 1000 questions")
      .waitFor({ timeout: 120_000 });
    console.log(`1,000-row CSV: extracted in ${Date.now() - started} ms (click to success message)`);
    await startOver(page);
  });

  const text = (i: number) => `Which drug is number ${i}?`;
  const script = (i: number) => llm.script(...generationRules(text(i), drugReplies(`drug-${i}`)));

  async function configureGenerator(page: Page): Promise<void> {
    await page.getByRole("radio", { name: "openai_endpoint", exact: true }).check();
    await page.getByLabel("Model name").fill("writer");
    await page.getByLabel("Endpoint URL").fill(llm.baseURL);
    await page.getByLabel("API key").fill("sk-test");
  }

  test("generation: live failure, Retry Failed, results, then Add to Curation creates and merges", async () => {
    const { page } = app;
    await openTab(app);
    await extract(page, delimitedFile("three.csv", drugRows(3)), 3);
    await page.getByRole("heading", { name: "2. Answer Template Generation" }).waitFor();
    await page.getByLabel("Search questions").fill("number 1");
    expect(
      await page.getByRole("region", { name: "Questions to generate" }).getByRole("checkbox").count(),
    ).toBe(1);
    await page.getByLabel("Search questions").fill("");
    await page.getByRole("button", { name: "Select None" }).click();
    await page.getByRole("button", { name: "Generate Templates (0 questions)" }).waitFor();
    await page.getByRole("button", { name: "Select All" }).click();
    await configureGenerator(page);
    await noSeriousViolations(app);
    await app.screenshot("generate-generator");

    // Question 1 has no scripted reply: the scripted server answers 500 and its row fails.
    // Question 2's first call waits 3 s, so question 1's failure must show while the job still runs.
    script(0);
    const [plan2, ...rest2] = generationRules(text(2), drugReplies("drug-2"));
    if (plan2 === undefined) throw new Error("no plan rule");
    llm.script({ ...plan2, reply: { ...plan2.reply, delayMs: 3000 } }, ...rest2);
    await page.getByRole("button", { name: "Generate Templates (3 questions)" }).click();
    await page.locator('tr[data-status="failed"]').waitFor({ timeout: 60_000 });
    expect(await page.getByRole("progressbar", { name: "Templates generated" }).count()).toBe(1);
    await page.getByText("Generated Templates (2/3 successful)").waitFor({ timeout: 90_000 });
    await page.getByText(/^Completed in /).waitFor();
    const failedRow = page.locator('tr[data-status="failed"]');
    expect(await failedRow.count()).toBe(1);
    expect(await failedRow.textContent()).toContain("Which drug is number 1?");
    await noSeriousViolations(app);
    await app.screenshot("generate-results");

    script(1);
    await page.getByRole("button", { name: "Retry Failed (1)" }).click();
    await page.getByText("Generated Templates (3/3 successful)").waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Retry Failed (0)" }).waitFor();

    await page.getByRole("button", { name: "Add to Curation (3)" }).click();
    const dialog = page.getByRole("dialog", { name: "New benchmark" });
    await dialog.getByLabel("Benchmark name").fill("generated-bench");
    await noSeriousViolations(app);
    await dialog.getByRole("button", { name: "Create and add" }).click();
    await page.waitForURL(/#\/curate/);
    const curation = (await authGet(app, "/api/v2/benchmarks/generated-bench/curation")) as {
      questions: {
        id: string;
        answer_template: string;
        has_template: boolean;
        finished: boolean;
        keywords: unknown;
      }[];
    };
    expect(curation.questions).toHaveLength(3);
    expect(curation.questions.every((q) => q.has_template && !q.finished)).toBe(true);
    expect(curation.questions[0]?.answer_template).toContain("drug-0");

    // A second add finds real templates there: it asks, and "Keep existing" writes nothing over them.
    await openTab(app);
    await page.getByRole("button", { name: "Add to Curation (3)" }).click();
    const ask = page.getByRole("dialog", { name: "Overwrite existing templates?" });
    await ask.getByText("3 question(s) already have a template").waitFor();
    await noSeriousViolations(app);
    await app.screenshot("generate-overwrite-dialog");
    await ask.getByRole("button", { name: "Keep existing" }).click();
    await page.waitForURL(/#\/curate/);

    await openTab(app);
    await page.getByRole("button", { name: "Clear All" }).click();
    await page
      .getByRole("dialog", { name: "Clear all generated templates?" })
      .getByRole("button", { name: "Clear All", exact: true })
      .click();
    expect(await page.getByText(/Generated Templates \(/).count()).toBe(0);
    await startOver(page);
  });

  test("a running job reattaches after a reload and Cancel ends it at once", async () => {
    const { page } = app;
    await openTab(app);
    await extract(page, delimitedFile("slow.csv", drugRows(2, "Slow drug question")), 2);
    await configureGenerator(page);
    for (const i of [0, 1])
      llm.script({
        match: { lastUserIncludes: `Slow drug question ${i}?` },
        reply: { text: "Plan: one attribute.", delayMs: 30_000 },
      });
    await page.getByRole("button", { name: "Generate Templates (2 questions)" }).click();
    await page.getByRole("progressbar", { name: "Templates generated" }).waitFor();
    await page.getByText(/^Queued \/ running \(/).waitFor();
    await page.getByText(/^Running for /).waitFor();
    await noSeriousViolations(app);
    await app.screenshot("generate-progress");

    await page.reload();
    await page.getByRole("progressbar", { name: "Templates generated" }).waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByRole("progressbar").count()).toBe(0);
    await page.getByText(/^Ended \(cancelled\)/).waitFor();
    await page.getByRole("button", { name: "Generate Templates (2 questions)" }).waitFor();
    await startOver(page);
  });

  test("a job a server restart interrupted shows Resume, which finishes it without generating the finished question again", async () => {
    const { page } = app;
    const restartText = (i: number) => `Restart drug question ${i}?`;
    const errorsBefore = app.errors.length;
    await openTab(app);
    await extract(page, delimitedFile("restart.csv", drugRows(2, "Restart drug question")), 2);
    await configureGenerator(page);
    llm.script(...generationRules(restartText(0), drugReplies("drug-0")));
    // Question 1's first call is still waiting when the server stops: the job is caught mid-call.
    llm.script({
      match: { lastUserIncludes: restartText(1) },
      reply: { text: drugReplies("drug-1").plan, delayMs: 60_000 },
    });
    await page.getByRole("button", { name: "Generate Templates (2 questions)" }).click();
    await page.locator('tr[data-status="success"]').waitFor({ timeout: 60_000 });
    await app.restartServer();

    // The page reattaches to the new server by itself and learns the job was interrupted.
    await page.getByText(/^Ended \(interrupted\)/).waitFor({ timeout: 30_000 });
    const resume = page.getByRole("button", { name: "Resume" });
    await resume.waitFor();
    await noSeriousViolations(app);
    await app.screenshot("generate-interrupted");

    const firstCalls = llm.requests.filter((request) => allText(request).includes(restartText(0))).length;
    llm.script(...generationRules(restartText(1), drugReplies("drug-1")));
    await resume.click();
    await page.getByText("Generated Templates (2/2 successful)").waitFor({ timeout: 60_000 });
    await page.getByText(/^Completed in /).waitFor();
    expect(await resume.count()).toBe(0);
    expect(llm.requests.filter((request) => allText(request).includes(restartText(0))).length).toBe(
      firstCalls,
    );
    // Only the event stream cut by the stopping server (and refused while it was down) may show in the console.
    const streamCut = /net::ERR_(INCOMPLETE_CHUNKED_ENCODING|CONNECTION_REFUSED)/;
    expect(app.errors.slice(errorsBefore).filter((error) => !streamCut.test(error))).toEqual([]);
    await startOver(page);
  });
});
