/**
 * Two curator flows that reach other parts, in Chromium against the real server and the scripted
 * OpenAI-compatible server: Add Question with "Generate template now" (spec 07 §1.3.7) — the generation job's
 * progress in the dialog, then the generated template stored in the question; a failed generation keeping the
 * placeholder and saying why — and the run screen's "Save all and run" (spec 07 §4): a template draft and a
 * global-rubric draft saved before the run, which then uses both.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  drugReplies as generationReplies,
  generationRules,
} from "../../karenina/src/authoring/template-generation/__fixtures__/generation-replies.js";
import { drugReplies } from "../../karenina/src/server/__fixtures__/verification-jobs.js";
import { drugBenchmark } from "../../karenina/src/test-support/cli.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../../karenina/src/test-support/openai-server/index.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import {
  api,
  codeEditor,
  curationOf,
  loadInCurator,
  text,
  typeTemplate,
} from "./__fixtures__/curator-steps.js";
import { jobEnd, noSeriousViolations, scriptedModel } from "./__fixtures__/run-screen.js";

const GENERATED = "generate-now";
const GUARDED = "guard-run";

describeInBrowser("curator flows: generate a new question's template now; save all and run", () => {
  let app: BrowserApp;
  let llm: OpenAiTestServer;
  beforeAll(async () => {
    app = await openBrowserApp();
    llm = await startOpenAiServer(drugReplies());
    await api(app, "/api/v2/benchmarks", { body: { name: GENERATED } });
    await app.server.deps.storage.saveBenchmark(drugBenchmark(1, GUARDED));
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  /** Opens Add Question, fills it in and chooses "Generate template now" with the scripted model. */
  async function addWithGeneration(question: string, answer: string) {
    const { page } = app;
    await page.getByRole("button", { name: "Add Question" }).click();
    const add = page.getByRole("dialog", { name: "Add Question" });
    await add.getByLabel("Question *").fill(question);
    await add.getByLabel("Answer *").fill(answer);
    await add.getByRole("checkbox", { name: "Generate template now" }).check();
    await add.getByRole("radio", { name: "openai_endpoint", exact: true }).check();
    await add.getByLabel("Model name").fill("writer");
    await add.getByLabel("Endpoint URL").fill(llm.baseURL);
    await add.getByLabel("API key").fill("sk-test");
    return add;
  }

  test("Add Question with Generate template now: progress in the dialog, then the template is stored", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/curate`);
    await page.getByRole("heading", { name: "2. Template Curator" }).waitFor();
    await loadInCurator(page, GENERATED);
    const question = "Which drug is generated now?";
    const [plan, ...rest] = generationRules(question, generationReplies("drug-now"));
    // The plan waits a little, so the dialog's progress is seen while the job runs.
    if (plan === undefined) throw new Error("no plan rule");
    llm.script({ ...plan, reply: { ...plan.reply, delayMs: 1500 } }, ...rest);
    const add = await addWithGeneration(question, "drug-now");
    await app.screenshot("curator-add-generate");
    await noSeriousViolations(app);
    await add.getByRole("button", { name: "Add Question", exact: true }).click();
    await add.getByTestId("generate-now-progress").waitFor();
    expect(await add.getByRole("status").textContent()).toMatch(/^(Starting|Generating) the template/);
    await add.waitFor({ state: "detached", timeout: 60_000 });

    await expect.poll(() => text(page, "question-text")).toBe(question);
    await expect
      .poll(async () => (await curationOf(app, GENERATED)).questions[0], { timeout: 15_000 })
      .toMatchObject({ question, has_template: true, answer_template: expect.stringContaining("drug-now") });
    expect(await page.getByText("Placeholder template").count()).toBe(0);
    expect(app.errors).toEqual([]);
  }, 120_000);

  test("a failed generation leaves the placeholder and says why", async () => {
    const { page } = app;
    // Nothing is scripted for this question: the scripted server answers 500 and the job's task fails.
    const add = await addWithGeneration("Which drug is never generated?", "none");
    await add.getByRole("button", { name: "Add Question", exact: true }).click();
    const alert = add.getByRole("alert");
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toMatch(
      /^The template was not generated, so the question keeps the placeholder template: .+/,
    );
    await app.screenshot("curator-add-generate-failed");
    await noSeriousViolations(app);
    await add.getByRole("button", { name: "Close", exact: true }).click();
    await expect.poll(() => text(page, "question-text")).toBe("Which drug is never generated?");
    expect(await page.getByText("Placeholder template").isVisible()).toBe(true);
    const stored = (await curationOf(app, GENERATED)).questions;
    expect(stored.map((q) => [q.question, q.has_template])).toEqual([
      ["Which drug is generated now?", true],
      ["Which drug is never generated?", false],
    ]);
    expect(app.errors).toEqual([]);
  }, 120_000);

  test("Save all and run: a template draft and a global-rubric draft are stored, and the run uses both", async () => {
    const { page } = app;
    await loadInCurator(page, GUARDED);
    await expect.poll(() => text(page, "questions-loaded")).toBe("1");
    // The judge names venetoclax: with aspirin as the ground truth the new template fails the answer.
    await typeTemplate(
      page,
      [
        "from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch",
        "",
        "",
        "class Answer(BaseAnswer):",
        '    drug: str = VerifiedField(description="The drug the response recommends", ground_truth="aspirin", verify_with=ExactMatch(normalize=["lowercase", "strip"]))',
        "",
      ].join("\n"),
    );
    await page.getByTestId("drafts-box").waitFor();
    const global = page.getByRole("region", { name: "Global Rubric", exact: true });
    await global.getByRole("button", { name: "Add trait" }).click();
    const trait = global.getByRole("article").last();
    await trait.getByLabel("Trait name").fill("names_venetoclax");
    await trait.getByLabel("Description").fill("Names venetoclax");
    await trait.getByLabel("Type").selectOption("regex");
    await trait.getByLabel("Pattern (Python regex)").fill("(?i)venetoclax");
    await global.getByText("The rubric is valid.").waitFor();
    await page.getByTestId("rubric-unsaved").waitFor();
    const before = await curationOf(app, GUARDED);
    expect(before.global_rubric).toBeNull();

    await page.getByRole("tab", { name: /Benchmark/ }).click();
    await page.getByText("Test Selection (1 available)").waitFor();
    await scriptedModel(page, "Answering model 1", "answerer", llm.baseURL);
    await scriptedModel(page, "Parsing model 1", "judge", llm.baseURL);
    await page.getByRole("checkbox", { name: "Rubric", exact: true }).check();
    await page.getByRole("checkbox", { name: "Select all visible questions" }).check();
    await page.getByRole("button", { name: /^Run Selected/ }).click();
    const warning = page.getByRole("dialog", { name: "Unsaved curator edits" });
    expect(await warning.textContent()).toContain(
      "The run uses the saved benchmark: 1 template draft and the global rubric are unsaved.",
    );
    await noSeriousViolations(app);
    const [response] = await Promise.all([
      page.waitForResponse(
        (res) => res.request().method() === "POST" && res.url().endsWith("/api/v2/verifications"),
      ),
      warning.getByRole("button", { name: "Save all and run" }).click(),
    ]);
    const { job_id: jobId } = (await response.json()) as { job_id: string };
    await warning.waitFor({ state: "detached" });
    expect(await jobEnd(app, jobId)).toBe("completed");

    const stored = await curationOf(app, GUARDED);
    expect(stored.questions[0]?.answer_template).toContain('ground_truth="aspirin"');
    expect(JSON.stringify(stored.global_rubric)).toContain('"names_venetoclax"');
    const results = await api<{ items: { template: { verify_result: unknown }; rubric: unknown }[] }>(
      app,
      `/api/v2/verifications/${jobId}/results`,
    );
    expect(results.items).toHaveLength(1);
    expect(results.items[0]?.template.verify_result).toBe(false);
    expect(results.items[0]?.rubric).toMatchObject({ regex_trait_scores: { names_venetoclax: true } });
    expect(await page.getByTestId("tab-dot-curate").count()).toBe(0);

    // Back in the curator, the saved template and rubric show, with nothing left as a draft.
    await page.getByRole("tab", { name: /Template Curator/ }).click();
    const editor = await codeEditor(page);
    await expect.poll(() => editor.textContent()).toContain('ground_truth="aspirin"');
    await global.getByRole("article").filter({ hasText: "names_venetoclax" }).first().waitFor();
    expect(await page.getByTestId("drafts-box").count()).toBe(0);
    expect(await page.getByTestId("rubric-unsaved").count()).toBe(0);
    expect(app.errors).toEqual([]);
  }, 180_000);
});
