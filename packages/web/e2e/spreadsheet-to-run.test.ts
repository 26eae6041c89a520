/**
 * B2 (spec 07 §4, issue 17's "a person can go from a spreadsheet to a finished run in the browser alone"), in
 * Chromium against the real server, in one page: upload an .xlsx → Extract → generate its template with the
 * scripted OpenAI-compatible server → Add to Curation (a new benchmark) → Flag as Finished in the curator → tab 3
 * → Run Selected (1 × 1 = 1) → open the row: the template the LLM wrote verified the scripted answer.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  generationRules,
  drugReplies as generatorReplies,
} from "../../karenina/src/authoring/template-generation/__fixtures__/generation-replies.js";
import { drugReplies as verificationReplies } from "../../karenina/src/server/__fixtures__/verification-jobs.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../../karenina/src/test-support/openai-server/index.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import { noSeriousViolations, runOneAndOpenDetail } from "./__fixtures__/run-screen.js";
import { xlsxFile } from "./__fixtures__/spreadsheets.js";

const QUESTION = "Which drug inhibits BCL2?";

describeInBrowser("B2: from a spreadsheet to a finished run, in the browser alone", () => {
  let app: BrowserApp;
  let llm: OpenAiTestServer;
  beforeAll(async () => {
    app = await openBrowserApp();
    // Hand-written replies: the generator's three phases (used once, in order), then the answerer and judge.
    llm = await startOpenAiServer([
      ...generationRules(QUESTION, generatorReplies("venetoclax")),
      ...verificationReplies(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  test("upload, extract, generate, add to curation, finish, run, open the row", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/generate`);
    await page.getByRole("heading", { name: "1. Question Extraction" }).waitFor();
    const workbook = await xlsxFile("b2.xlsx", {
      Questions: [
        ["Question", "Answer"],
        [QUESTION, "Venetoclax"],
      ],
    });
    await page
      .locator("#file-upload")
      .setInputFiles({ name: workbook.name, mimeType: workbook.mimeType, buffer: workbook.buffer });
    await page.getByText("Ready to extract").waitFor();
    await page.getByRole("button", { name: "Extract Questions" }).click();
    await page
      .getByRole("tabpanel")
      .getByText("Successfully extracted 1 questions")
      .waitFor({ timeout: 30_000 });

    await page.getByRole("radio", { name: "openai_endpoint", exact: true }).check();
    await page.getByLabel("Model name").fill("writer");
    await page.getByLabel("Endpoint URL").fill(llm.baseURL);
    await page.getByLabel("API key").fill("sk-test");
    await page.getByRole("button", { name: "Generate Templates (1 questions)" }).click();
    await page
      .getByRole("tabpanel")
      .getByText("Generated Templates (1/1 successful)")
      .waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Add to Curation (1)" }).click();
    const create = page.getByRole("dialog", { name: "New benchmark" });
    await create.getByLabel("Benchmark name").fill("b2-bench");
    await create.getByRole("button", { name: "Create and add" }).click();

    await page.waitForURL(/#\/curate/);
    await page.getByRole("button", { name: "Flag as Finished" }).first().click();
    await page.getByRole("button", { name: "Mark as Unfinished" }).first().waitFor();
    await page
      .getByText(/^Saved /)
      .first()
      .waitFor({ timeout: 20_000 });
    await app.screenshot("b2-curated");
    await noSeriousViolations(app);

    const dialog = await runOneAndOpenDetail(app, llm.baseURL);
    expect(await dialog.getByRole("region", { name: "Raw Question" }).textContent()).toContain(QUESTION);
    const verify = dialog.locator(".badge").filter({ hasText: /^(Passed|Failed|Not evaluated)$/ });
    expect(await verify.allTextContents()).toContain("Passed");
    expect(await dialog.getByText("Failed", { exact: true }).count()).toBe(0);
    await app.screenshot("b2-result-detail");
    await noSeriousViolations(app);

    // The answerer was asked the extracted question; the generator wrote the template the judge filled.
    const answering = llm.requests.filter((request) => request.body.model === "answerer");
    expect(answering).toHaveLength(1);
    expect(JSON.stringify(answering[0]?.body.messages)).toContain(QUESTION);
    expect(app.errors).toEqual([]);
  });
});
