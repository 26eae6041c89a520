/**
 * The template editor (spec 07 §1.3.5–§1.3.7) in Chromium, mounted by the curator (#/curate): a benchmark whose
 * first question has a VerifiedField template written by the library's TemplateSpec generator is stored over
 * the API and loaded as the working benchmark. The form-editor round trip: a ground truth and a description
 * edited in the form, saved, reloaded, shown in the code editor, then the stored template read back and run by
 * the library against fixed parsed answers — the same code and verdicts as the same edit made with the library.
 * Then the code editor (Tab, Quick Check, re-parse into the form, revert, Ctrl+S), a classic template's notice,
 * a sample answer judged by the scripted model, and a mixed template edited in the form with its hand-written
 * part kept (and still run). Axe and screenshots on each view.
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { generateTemplateSource } from "../../karenina/src/authoring/index.js";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { loadTemplate, specToPython, type TemplateSpec } from "../../karenina/src/templates/index.js";
import {
  MIXED_TEMPLATE,
  MIXED_TEMPLATE_ANSWERS,
  MIXED_TEMPLATE_REMAINDER,
  MIXED_TEMPLATE_SPEC,
} from "../../karenina/src/test-support/mixed-template.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../../karenina/src/test-support/openai-server/index.js";
import { BCL2_TARGET_FIELD } from "../../karenina/src/test-support/template-specs.js";
import {
  type BrowserApp,
  describeInBrowser,
  openBrowserApp,
  SCREENSHOTS_DIR,
} from "./__fixtures__/browser.js";
import { api } from "./__fixtures__/curator-steps.js";
import { loadThroughManageDatabase, noSeriousViolations } from "./__fixtures__/run-screen.js";

const NAME = "Template lab";
const VERIFIED_ID = "q-verified";
const CLASSIC_ID = "q-classic";
const MIXED_ID = "q-mixed";
/** A mixed template whose VerifiedField the form cannot read (a call where a literal is expected). */
const UNSPLITTABLE_CODE = MIXED_TEMPLATE.replace('ground_truth="BCL2"', "ground_truth=lookup('BCL2')");
const QUESTION = "Which protein does venetoclax inhibit, at what daily dose, and is it approved?";

const SPEC: TemplateSpec = {
  class_name: "Answer",
  verify_strategy: null,
  fields: [
    BCL2_TARGET_FIELD,
    {
      name: "dose_mg",
      type: "float",
      description: "Dose",
      extraction_hint: null,
      ground_truth: 400,
      literal_values: null,
      verify_with: { tolerance: 5, mode: "absolute", type: "NumericTolerance" },
      weight: 1,
      is_trace: false,
    },
    {
      name: "approved",
      type: "bool",
      description: "Whether the response says the drug is approved",
      extraction_hint: null,
      ground_truth: true,
      literal_values: null,
      verify_with: { type: "BooleanMatch" },
      weight: 1,
      is_trace: false,
    },
  ],
};
const VERIFIED_CODE = specToPython(SPEC);
const CLASSIC_CODE = `class Answer(BaseAnswer):
    value: int = Field(description="The number")

    def model_post_init(self, __context):
        self.correct = {"value": 4}

    def verify(self) -> bool:
        return self.value == self.correct["value"]
`;

/** The same edit as the test makes in the form, made with the library. */
function editedWithLibrary(): string {
  const spec = structuredClone(SPEC);
  const [target, dose] = spec.fields;
  if (!target || !dose) throw new Error("the spec lost its fields");
  target.ground_truth = "MCL1";
  dose.description = "Daily dose in milligrams, as a number";
  return specToPython(spec);
}

/** Parsed answers (as a judge would return them) whose verdicts tell the two ground truths apart. */
const PARSED_ANSWERS = [
  { target: " mcl1 ", dose_mg: 402, approved: true },
  { target: "BCL2", dose_mg: 400, approved: true },
  { target: "MCL1", dose_mg: 420, approved: false },
];

async function verdicts(code: string) {
  const template = await loadTemplate(code, "Python");
  return Promise.all(
    PARSED_ANSWERS.map(async (parsed) => {
      const { verify, verifyGranular, fieldResults } = await template.evaluate(parsed);
      return { verify, verifyGranular, fieldResults };
    }),
  );
}

function seededBenchmark(): Benchmark {
  const bench = Benchmark.create({ name: NAME });
  bench.addQuestion({
    question: QUESTION,
    raw_answer: "MCL1, 400 mg",
    question_id: VERIFIED_ID,
    answer_template: VERIFIED_CODE,
  });
  bench.addQuestion({
    question: "What is 2 + 2?",
    raw_answer: "4",
    question_id: CLASSIC_ID,
    answer_template: CLASSIC_CODE,
  });
  bench.addQuestion({
    question: "Which protein does venetoclax inhibit, and how sure is the response?",
    raw_answer: "BCL2",
    question_id: MIXED_ID,
    answer_template: MIXED_TEMPLATE,
  });
  bench.addQuestion({
    question: "Which protein does venetoclax inhibit, looked up?",
    raw_answer: "BCL2",
    question_id: "q-unsplittable",
    answer_template: UNSPLITTABLE_CODE,
  });
  return bench;
}

const fieldCard = (page: Page, n: number, name: string): Locator =>
  page.getByRole("group", { name: `Field ${n}: ${name}`, exact: true });
const codeContent = (page: Page) => page.locator(".te-code .cm-content");
const quickCheck = (page: Page) => page.getByTestId("quick-check");

async function openCurator(page: Page): Promise<void> {
  await page.getByRole("tab", { name: /^2\./ }).first().click();
  await page.getByRole("heading", { name: "Answer Template" }).waitFor();
}

describeInBrowser("the template editor in the curator", () => {
  let app: BrowserApp;
  let llm: OpenAiTestServer;
  beforeAll(async () => {
    [app, llm] = await Promise.all([openBrowserApp(), startOpenAiServer()]);
    app.page.setDefaultTimeout(15_000);
    await api(app, `/api/v2/benchmarks/${encodeURIComponent(NAME)}`, {
      method: "PUT",
      body: { checkpoint: seededBenchmark().toCheckpoint() },
    });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([app?.close(), llm?.close()]);
  });

  test("a VerifiedField template opens in the form editor, valid by Quick Check", async () => {
    const { page } = app;
    await loadThroughManageDatabase(app, NAME);
    await openCurator(page);
    await fieldCard(page, 1, "target").waitFor();
    expect(await page.getByRole("button", { name: "Form editor" }).getAttribute("aria-pressed")).toBe("true");
    await fieldCard(page, 3, "approved").waitFor();
    await page.getByText("Multiple attributes template – 3 fields").waitFor();
    await quickCheck(page).getByText("Valid: class Answer (VerifiedField template).").waitFor();
    // The description "Dose" is flagged as very short.
    await fieldCard(page, 2, "dose_mg").getByText("Warning: The description is very short").waitFor();
    expect(await page.getByRole("button", { name: "Show Diff" }).count()).toBe(0);
    await app.screenshot("template-editor-form");
    await noSeriousViolations(app);
  }, 60_000);

  test("form round trip: a ground truth and a description edited, saved, reloaded, verified by the library", async () => {
    const { page } = app;
    await fieldCard(page, 1, "target").getByLabel("Correct value (ground truth)").fill("MCL1");
    await fieldCard(page, 2, "dose_mg")
      .getByLabel("Description")
      .fill("Daily dose in milligrams, as a number");
    await page.getByTestId("form-apply-status").getByText("Changes applied to the code.").waitFor();
    await fieldCard(page, 2, "dose_mg")
      .getByText("Warning: The description is very short")
      .waitFor({ state: "detached" });
    // The diff starts against the saved text.
    await page.getByRole("button", { name: "Show Diff" }).click();
    expect(await page.getByRole("button", { name: "vs Saved" }).getAttribute("aria-pressed")).toBe("true");
    const diff = page.getByTestId("template-diff");
    await diff.locator(".cm-deletedChunk").first().waitFor();
    expect(await diff.textContent()).toContain("ground_truth='MCL1'");
    await app.screenshot("template-editor-diff");
    await page
      .locator(".template-editor")
      .screenshot({ path: join(SCREENSHOTS_DIR, "template-editor-panel.png") });
    await noSeriousViolations(app);

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page
      .getByTestId("save-status")
      .getByText(/^Saved/)
      .waitFor();
    await page.reload();
    await openCurator(page);
    await fieldCard(page, 1, "target").waitFor();
    expect(await fieldCard(page, 1, "target").getByLabel("Correct value (ground truth)").inputValue()).toBe(
      "MCL1",
    );
    await page.getByRole("button", { name: "Code editor" }).click();
    await codeContent(page).getByText("ground_truth='MCL1',").waitFor();
    expect(await codeContent(page).getAttribute("aria-label")).toBe("Answer template code (Python)");
    await app.screenshot("template-editor-code");
    await noSeriousViolations(app);

    const stored = await api<Record<string, unknown>>(app, `/api/v2/benchmarks/${encodeURIComponent(NAME)}`);
    const loaded = Benchmark.parse(JSON.stringify(stored.checkpoint));
    const storedCode = loaded.getQuestion(VERIFIED_ID).answer_template;
    const libraryCode = editedWithLibrary();
    expect(storedCode).toBe(libraryCode);
    const [fromBrowser, fromLibrary, before] = await Promise.all([
      verdicts(storedCode),
      verdicts(libraryCode),
      verdicts(VERIFIED_CODE),
    ]);
    expect(fromBrowser).toEqual(fromLibrary);
    expect(fromBrowser.map((v) => v.verify)).toEqual([true, false, false]);
    // The edit changed the verdicts: the old ground truth judged the same answers the other way.
    expect(before.map((v) => v.verify)).toEqual([false, true, false]);
  }, 90_000);

  test("code editor: Tab is four spaces, Quick Check lists errors, code edits reach the form, revert, Ctrl+S", async () => {
    const { page } = app;
    const content = codeContent(page);
    await content.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Tab");
    await page.keyboard.type("oops(");
    expect(await page.locator(".te-code .cm-line").last().textContent()).toBe("    oops(");
    await quickCheck(page)
      .getByText(/problems?: the template would not load/)
      .waitFor();
    expect(await quickCheck(page).locator("li").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Revert", exact: true }).click();
    await quickCheck(page).getByText("Valid: class Answer (VerifiedField template).").waitFor();
    expect(await page.getByRole("button", { name: "Revert", exact: true }).count()).toBe(0);

    // A code edit is read back into the form.
    await content.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText(editedWithLibrary().replace("ground_truth='MCL1'", "ground_truth='BAX'"));
    await page.getByRole("button", { name: "Form editor" }).click();
    const groundTruth = fieldCard(page, 1, "target").getByLabel("Correct value (ground truth)");
    await expect.poll(() => groundTruth.inputValue()).toBe("BAX");
    // Ctrl+S in the form saves through the curator.
    await groundTruth.press("Control+s");
    await page
      .getByTestId("save-status")
      .getByText(/^Saved/)
      .waitFor();
    await expect
      .poll(async () => {
        const stored = await api<Record<string, unknown>>(
          app,
          `/api/v2/benchmarks/${encodeURIComponent(NAME)}`,
        );
        return Benchmark.parse(JSON.stringify(stored.checkpoint)).getQuestion(VERIFIED_ID).answer_template;
      })
      .toContain("ground_truth='BAX'");

    // A form edit still being applied survives an immediate switch to the code view.
    await fieldCard(page, 1, "target").getByLabel("Extraction hint (optional)").fill("gene symbol");
    await page.getByRole("button", { name: "Code editor" }).click();
    await codeContent(page).getByText('extraction_hint="gene symbol",').waitFor();
  }, 60_000);

  test("a sample answer is judged by the model and verified, with per-field results", async () => {
    const { page } = app;
    llm.script({
      match: { model: "judge" },
      reply: { json: { target: "BAX", dose_mg: 400, approved: false } },
    });
    await page.getByText("Test with a sample answer").click();
    await page.getByLabel("Sample answer").fill("It inhibits BAX at 400 mg daily; it is not approved.");
    await page.getByLabel("Interface").selectOption("openai_endpoint");
    await page.getByLabel("Provider").fill("openai");
    await page.getByLabel("Judge model name").fill("judge");
    await page.getByLabel("Judge endpoint URL").fill(llm.baseURL);
    await page.getByLabel("Judge API key").fill("sk-test");
    await page.getByRole("button", { name: "Run test" }).click();
    const result = page.getByTestId("sample-test-result");
    await result.waitFor({ timeout: 60_000 });
    expect(await result.getByText("Verdict:").textContent()).toContain("Failed");
    const rows = result.getByRole("row");
    expect(await rows.filter({ hasText: "target" }).textContent()).toContain("correct");
    expect(await rows.filter({ hasText: "approved" }).textContent()).toContain("wrong");
    expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain("It inhibits BAX at 400 mg daily");
    await app.screenshot("template-editor-sample-test");
    await noSeriousViolations(app);
  }, 90_000);

  test("a classic template opens in the code editor with a notice; the light theme passes axe", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await page
      .getByText(/This is a classic template/)
      .first()
      .waitFor();
    expect(await page.getByRole("button", { name: "Code editor" }).getAttribute("aria-pressed")).toBe("true");
    await codeContent(page).getByText("def verify(self) -> bool:").waitFor();
    await page.getByRole("button", { name: "Form editor" }).click();
    await page.getByRole("button", { name: "Switch to Code editor" }).waitFor();
    await page.getByRole("button", { name: "Switch to Code editor" }).click();
    await page.getByRole("button", { name: "Dark theme" }).click();
    await codeContent(page).waitFor();
    await app.screenshot("template-editor-classic-light");
    await noSeriousViolations(app);
    expect(app.errors).toEqual([]);
  }, 60_000);

  test("a mixed template: its VerifiedField edited in the form, the hand-written rest kept and still run", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await fieldCard(page, 1, "target").waitFor();
    expect(await page.getByRole("button", { name: "Form editor" }).getAttribute("aria-pressed")).toBe("true");
    const kept = page.getByRole("region", { name: "Kept as written" });
    expect(await kept.getByTestId("kept-as-written").textContent()).toContain(
      'return super().verify() and not self.note.lower().startswith("maybe")',
    );
    await quickCheck(page)
      .getByText(/^Valid: class Answer/)
      .waitFor();
    await app.screenshot("template-editor-mixed");
    await noSeriousViolations(app);

    await fieldCard(page, 1, "target").getByLabel("Correct value (ground truth)").fill("MCL1");
    await page.getByTestId("form-apply-status").getByText("Changes applied to the code.").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page
      .getByTestId("save-status")
      .getByText(/^Saved/)
      .waitFor();

    const stored = await api<Record<string, unknown>>(app, `/api/v2/benchmarks/${encodeURIComponent(NAME)}`);
    const storedCode = Benchmark.parse(JSON.stringify(stored.checkpoint)).getQuestion(
      MIXED_ID,
    ).answer_template;
    const edited = structuredClone(MIXED_TEMPLATE_SPEC);
    (edited.fields[0] as TemplateSpec["fields"][number]).ground_truth = "MCL1";
    expect(storedCode).toBe(generateTemplateSource(edited, MIXED_TEMPLATE_REMAINDER).code);
    expect(storedCode.endsWith(MIXED_TEMPLATE_REMAINDER.class_body_tail)).toBe(true);
    const template = await loadTemplate(storedCode, "Python");
    expect(template.mode).toBe("mixed");
    const results = await Promise.all(MIXED_TEMPLATE_ANSWERS.map((parsed) => template.evaluate(parsed)));
    // The edited ground truth (MCL1) decides the field; the hand-written verify() fails the hedging answer.
    expect(results.map((r) => r.fieldResults)).toEqual([
      { target: true },
      { target: false },
      { target: true },
    ]);
    expect(results.map((r) => r.verify)).toEqual([true, false, false]);

    // A mixed template the library cannot split opens in the code editor, with the library's reason.
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await page
      .getByText(/cannot separate: it is edited as code\. .*\(line 8\): call to 'lookup' where a literal/)
      .first()
      .waitFor();
    expect(await page.getByRole("button", { name: "Code editor" }).getAttribute("aria-pressed")).toBe("true");
    expect(app.errors).toEqual([]);
  }, 90_000);
});
