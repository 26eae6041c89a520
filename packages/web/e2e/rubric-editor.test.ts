/**
 * The rubric editor (spec 07 §1.4) in Chromium, mounted by the curator (#/curate) for the global rubric and a
 * question's rubric: a benchmark with traits of every kind is built with the library and stored over the API,
 * loaded as the working benchmark, edited in the browser, saved, then read back with the library — every
 * trait's fields, deep-judgment settings, and a callable trait's code byte for byte. The regex test box runs a
 * catastrophic pattern on the server and shows its timeout while the page stays responsive. Axe and
 * screenshots on the editor.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { encodeJavaScriptCallable } from "../../karenina/src/rubrics/index.js";
import {
  type BrowserApp,
  describeInBrowser,
  openBrowserApp,
  SCREENSHOTS_DIR,
} from "./__fixtures__/browser.js";
import { api } from "./__fixtures__/curator-steps.js";
import { loadThroughManageDatabase, noSeriousViolations } from "./__fixtures__/run-screen.js";

const NAME = "Rubric lab";
const QUESTION_ID = "q-rubric";
/** Bytes that only Python reads (a pickle header), with line breaks as some writers wrap base64. */
const PICKLED = `${Buffer.from([0x80, 0x05, 0x95, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x8c]).toString("base64")}\n`;
const JS_CALLABLE = encodeJavaScriptCallable("(text) => text.length < 200");

function seededBenchmark(): Benchmark {
  const bench = Benchmark.create({ name: NAME });
  bench.addQuestion({
    question: "What does venetoclax target?",
    raw_answer: "BCL2",
    question_id: QUESTION_ID,
  });
  bench.setGlobalRubric({
    llm_traits: [{ name: "clarity", description: "Is the answer clear?", kind: "boolean" }],
    callable_traits: [
      { name: "pickled", description: "A Python function", kind: "boolean", callable_code: PICKLED },
      {
        name: "short",
        description: "Under 200 characters",
        kind: "score",
        callable_code: JS_CALLABLE,
        min_score: 0,
        max_score: 1,
      },
    ],
    agentic_traits: [
      {
        name: "tests_pass",
        description: "Do the tests pass?",
        kind: "boolean",
        max_turns: 7,
        context_mode: "trace_only",
      },
    ],
  });
  bench.setQuestionRubric(QUESTION_ID, {
    llm_traits: [
      {
        name: "depth",
        description: "How deep is it?",
        kind: "score",
        summary: "depth of answer",
        include_ground_truth: true,
      },
      { name: "clarity", description: "Clear for this question", kind: "boolean" },
    ],
    regex_traits: [{ name: "cites", description: "Cites a source", pattern: String.raw`\[\d+\]` }],
    metric_traits: [
      { name: "coverage", description: "Names the targets", metrics: ["recall"], tp_instructions: ["BCL2"] },
    ],
  });
  return bench;
}

/** The card of the trait named `name` inside the editor section titled `editor`. */
const card = (page: Page, editor: string, name: string) =>
  page
    .getByRole("region", { name: editor, exact: true })
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: new RegExp(`^${name}`) }) });

describeInBrowser("the rubric editor in the curator", () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await openBrowserApp();
    app.page.setDefaultTimeout(10_000);
    await api(app, `/api/v2/benchmarks/${encodeURIComponent(NAME)}`, {
      method: "PUT",
      body: { checkpoint: seededBenchmark().toCheckpoint({ saveDeepJudgmentConfig: true }) },
    });
  }, 120_000);
  afterAll(() => app?.close());

  test("the stored benchmark becomes the working benchmark and its rubrics open in the curator", async () => {
    const { page } = app;
    await loadThroughManageDatabase(app, NAME);
    await page.getByRole("tab", { name: "2. Template Curator" }).click();
    // The first load of the curator may wait on the server (a fresh database, the template editor).
    await page.getByRole("region", { name: "Global Rubric", exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole("region", { name: "Question Rubric", exact: true }).waitFor();
    const questionCard = card(page, "Question Rubric", "clarity");
    expect(await questionCard.getByText("overrides global trait").count()).toBe(1);
    expect(
      await card(page, "Global Rubric", "pickled")
        .getByText(/cloudpickle/)
        .count(),
    ).toBe(1);
    expect(await card(page, "Global Rubric", "short").getByText("(text) => text.length < 200").count()).toBe(
      1,
    );
    await app.screenshot("rubric-editor-loaded");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  });

  test("the regex test box shows matches, and a catastrophic pattern's timeout while the page stays responsive", async () => {
    const { page } = app;
    const cites = card(page, "Question Rubric", "cites");
    const box = cites.getByLabel("Test the pattern on a sample text");
    await box.fill("See [1] and [22].");
    await cites.getByText("— 2 matches", { exact: false }).waitFor();
    await cites.getByLabel("Pattern (Python regex)").fill("(a+)+$");
    await box.fill(`${"a".repeat(40)}!`);
    const error = cites.getByText(/^Pattern error:/);
    await error.waitFor({ timeout: 20_000 });
    expect(await error.textContent()).toMatch(/time/i);
    // The page still answers: a click on another control takes effect at once.
    await cites.getByLabel("Case Sensitive").click();
    expect(await cites.getByLabel("Case Sensitive").isChecked()).toBe(false);
    await app.screenshot("rubric-editor-regex-timeout");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  }, 40_000);

  test("a rubric of every kind edited and saved then loaded by the library", async () => {
    const { page } = app;
    // Question rubric (autosaved by the curator).
    const cites = card(page, "Question Rubric", "cites");
    await cites.getByLabel("Pattern (Python regex)").fill(String.raw`(?i)\bbcl-?2\b`);
    await cites.getByLabel("Invert Result").check();
    await cites.getByLabel("Score Direction").selectOption("lower");
    const depth = card(page, "Question Rubric", "depth");
    await depth.getByLabel("Minimum score").fill("2");
    await depth.getByLabel("Maximum score").fill("7");
    const coverage = card(page, "Question Rubric", "coverage");
    await coverage.getByLabel("Evaluation mode").selectOption("full_matrix");
    await coverage.getByLabel("accuracy").check();
    await coverage.getByRole("button", { name: "Add TN instruction" }).click();
    await coverage.getByLabel("TN instruction 1", { exact: true }).fill("MCL1");
    await coverage.getByLabel("Repeated extraction").uncheck();
    const clarity = card(page, "Question Rubric", "clarity");
    await clarity.getByLabel("Type").selectOption("literal");
    await clarity.getByLabel("Class 1 name").fill("muddled");
    await clarity.getByLabel("Class 1 description").fill("Hard to follow");
    await clarity.getByLabel("Class 2 name").fill("clear");
    await clarity.getByLabel("Class 2 description").fill("Easy to follow");
    await page
      .getByRole("region", { name: "Question Rubric", exact: true })
      .getByLabel("Import literal trait")
      .setInputFiles({
        name: "tone.json",
        mimeType: "application/json",
        buffer: Buffer.from(
          JSON.stringify({
            trait_name: "tone",
            classes: { curt: "Curt", warm: "Warm" },
            higher_is_better: false,
          }),
        ),
      });
    await card(page, "Question Rubric", "tone").waitFor();

    // Global rubric (saved with "Save Rubric").
    const global = page.getByRole("region", { name: "Global Rubric", exact: true });
    const clarityGlobal = card(page, "Global Rubric", "clarity");
    await clarityGlobal.getByLabel("Enable deep judgment").check();
    await clarityGlobal.getByLabel("Max excerpts").fill("5");
    await clarityGlobal.getByLabel("Fuzzy match threshold").fill("0.75");
    await clarityGlobal.getByLabel("Retry attempts").fill("3");
    await clarityGlobal.getByLabel("Search enhancement").check();
    await clarityGlobal.getByLabel("Extract excerpts").uncheck();
    await global.getByRole("button", { name: "Add trait" }).click();
    const added = card(page, "Global Rubric", "Trait 5");
    await added.getByLabel("Trait name").fill("safety");
    const safety = card(page, "Global Rubric", "safety");
    await safety.getByLabel("Description").fill("Is it safe?");
    await safety.getByLabel("Type").selectOption("score");
    await global.getByText("The rubric is valid.").waitFor();
    await app.screenshot("rubric-editor-edited");
    await page
      .getByRole("region", { name: "Question Rubric", exact: true })
      .screenshot({ path: join(SCREENSHOTS_DIR, "rubric-editor-question.png") });
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Save Rubric" }).click();
    await page.getByTestId("rubric-unsaved").waitFor({ state: "detached" });
    await expect
      .poll(async () => page.getByTestId("save-status").textContent(), { timeout: 15_000 })
      .toMatch(/Saved/);

    const stored = await api<Record<string, unknown>>(app, `/api/v2/benchmarks/${encodeURIComponent(NAME)}`);
    const loaded = Benchmark.parse(JSON.stringify(stored.checkpoint));
    const globalRubric = loaded.getGlobalRubric();
    expect(globalRubric?.llm_traits).toEqual([
      expect.objectContaining({
        name: "clarity",
        kind: "boolean",
        deep_judgment_enabled: true,
        deep_judgment_excerpt_enabled: false,
        deep_judgment_max_excerpts: 5,
        deep_judgment_fuzzy_match_threshold: 0.75,
        deep_judgment_excerpt_retry_attempts: 3,
        deep_judgment_search_enabled: true,
      }),
      expect.objectContaining({
        name: "safety",
        description: "Is it safe?",
        kind: "score",
        min_score: 1,
        max_score: 5,
      }),
    ]);
    expect(globalRubric?.callable_traits.map((trait) => trait.callable_code)).toEqual([PICKLED, JS_CALLABLE]);
    expect(globalRubric?.callable_traits[1]).toMatchObject({ kind: "score", min_score: 0, max_score: 1 });
    expect(globalRubric?.agentic_traits[0]).toMatchObject({
      name: "tests_pass",
      max_turns: 7,
      context_mode: "trace_only",
    });

    const questionRubric = loaded.getQuestionRubric(QUESTION_ID);
    expect(questionRubric?.llm_traits).toEqual([
      expect.objectContaining({
        name: "depth",
        summary: "depth of answer",
        kind: "score",
        min_score: 2,
        max_score: 7,
      }),
      expect.objectContaining({
        name: "clarity",
        description: "Clear for this question",
        kind: "literal",
        classes: { muddled: "Hard to follow", clear: "Easy to follow" },
        min_score: 0,
        max_score: 1,
      }),
      expect.objectContaining({
        name: "tone",
        kind: "literal",
        classes: { curt: "Curt", warm: "Warm" },
        higher_is_better: false,
      }),
    ]);
    expect(questionRubric?.regex_traits).toEqual([
      {
        type: "regex",
        name: "cites",
        description: "Cites a source",
        summary: null,
        pattern: String.raw`(?i)\bbcl-?2\b`,
        case_sensitive: false,
        invert_result: true,
        higher_is_better: false,
      },
    ]);
    expect(questionRubric?.metric_traits).toEqual([
      {
        type: "metric",
        name: "coverage",
        description: "Names the targets",
        summary: null,
        evaluation_mode: "full_matrix",
        metrics: ["recall", "accuracy"],
        tp_instructions: ["BCL2"],
        tn_instructions: ["MCL1"],
        repeated_extraction: false,
        higher_is_better: null,
      },
    ]);
    expect(app.errors).toEqual([]);
  }, 60_000);
});
