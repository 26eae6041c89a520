/**
 * Tab 2, the Template Curator, in Chromium against the real server: B5 (empty states, a checkpoint upload with
 * its counts and the name conflict, reset), B4's curation part (create a benchmark with the required-name error,
 * add a question with the required-field errors, placeholder template, flag finished, edit the template in the
 * code editor, drafts that survive a reload with the unload warning and the tab's dot, Save, reload → saved, run
 * it from tab 3 and open its detailed trace),
 * the downloaded checkpoint loaded by the library equal to the stored one, the autosave of one edit on a
 * 200-question benchmark sending exactly one question, the navigator's search, filter and previous/next, and
 * axe-core on each state.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { startOpenAiServer } from "../../karenina/src/test-support/openai-server/index.js";
import { integerQuestions } from "../src/curator/__fixtures__/stored-questions.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import {
  api,
  codeEditor,
  curationOf,
  loadInCurator,
  text,
  typeTemplate,
} from "./__fixtures__/curator-steps.js";
import { noSeriousViolations, runOneAndOpenDetail } from "./__fixtures__/run-screen.js";

const CHECKPOINT = new URL("./__fixtures__/curator/with_rubrics.jsonld", import.meta.url);

/** A stored benchmark of `count` questions (made through the curation routes). */
async function seedBenchmark(app: BrowserApp, name: string, count: number): Promise<void> {
  await api(app, "/api/v2/benchmarks", { body: { name } });
  const upsert = integerQuestions(count, {
    idPrefix: "urn:karenina:bulk:q",
    text: (n) => `Bulk question ${n}: what is ${n} squared?`,
    answer: (n) => n ** 2,
  });
  await api(app, `/api/v2/benchmarks/${encodeURIComponent(name)}/curation`, {
    method: "PATCH",
    body: { upsert },
  });
}

describeInBrowser("the Template Curator (tab 2) in a real browser", () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await openBrowserApp();
  }, 180_000);
  afterAll(() => app?.close());

  test("B5: the empty curator shows its sections, with download, navigator and Add Question disabled", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/curate`);
    await page.getByRole("heading", { name: "2. Template Curator" }).waitFor();
    for (const heading of ["File Management", "Checkpointing", "Database", "Actions"])
      expect(await page.getByRole("heading", { name: heading, exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Download Checkpoint" }).isDisabled()).toBe(true);
    expect(await page.getByTestId("question-search").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Add Question" }).isDisabled()).toBe(true);
    expect(await text(page, "curator-empty")).toContain("No Questions with Generated Templates");
    expect(await text(page, "questions-loaded")).toBe("0");
    expect(await text(page, "finished-items")).toBe("0");
    await app.screenshot("curator-b5-empty");
    await noSeriousViolations(app);
    expect(app.errors).toEqual([]);
  }, 90_000);

  test("B5: uploading a checkpoint shows its counts; a second upload of the name asks, then stores a copy", async () => {
    const { page } = app;
    const file = {
      name: "with_rubrics.jsonld",
      mimeType: "application/ld+json",
      buffer: await readFile(CHECKPOINT),
    };
    await page.getByLabel("Checkpoint file").setInputFiles(file);
    await page.getByTestId("upload-result").waitFor();
    expect(await text(page, "upload-result")).toMatch(/Loaded "with-rubrics-test": 3 questions/);
    await expect.poll(() => text(page, "questions-loaded")).toBe("3");
    expect(await page.getByRole("link", { name: "Download Checkpoint" }).isVisible()).toBe(true);
    expect(await page.getByTestId("navigator-count").textContent()).toBe("Showing 3 of 3 questions");
    await app.screenshot("curator-b5-uploaded");
    await noSeriousViolations(app);

    await page.getByLabel("Checkpoint file").setInputFiles(file);
    const conflict = page.getByRole("dialog", { name: "A benchmark of this name exists" });
    await conflict.waitFor();
    await conflict.getByLabel("Other name").fill("with-rubrics-copy");
    await conflict.getByRole("button", { name: "Store under the other name" }).click();
    await expect.poll(() => text(page, "upload-result")).toMatch(/Loaded "with-rubrics-copy"/);
    expect((await curationOf(app, "with-rubrics-copy")).questions).toHaveLength(3);
    // The conflict is a 409 answer, which Chromium logs as a failed resource: expected here, and only that.
    expect(app.errors.splice(0)).toEqual([
      "console: Failed to load resource: the server responded with a status of 409 (Conflict)",
    ]);
  }, 90_000);

  test("B5: Reset All Data unloads the benchmark from the page but keeps it stored", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Reset All Data" }).click();
    await page
      .getByRole("dialog", { name: "Reset All Data" })
      .getByRole("button", { name: "Reset", exact: true })
      .click();
    await expect.poll(() => text(page, "questions-loaded")).toBe("0");
    expect(await text(page, "curator-empty")).toContain("No Questions with Generated Templates");
    expect(await page.getByRole("button", { name: "Download Checkpoint" }).isDisabled()).toBe(true);
    expect((await curationOf(app, "with-rubrics-copy")).questions).toHaveLength(3);
    expect(app.errors).toEqual([]);
  }, 90_000);

  test("B4: create a benchmark (name required), add a question (fields required), flag it finished", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Create New Benchmark" }).click();
    const create = page.getByRole("dialog", { name: "Create New Benchmark" });
    await create.getByRole("button", { name: "Create", exact: true }).click();
    expect(await create.getByRole("alert").textContent()).toBe("Dataset name is required");
    await create.getByLabel("Dataset name").fill("b4-curated");
    await create.getByLabel("Description").fill("Made in the browser");
    await create.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByTestId("dataset-banner").waitFor();
    expect(await text(page, "dataset-banner")).toContain("b4-curated");

    await page.getByRole("button", { name: "Add Question" }).click();
    const add = page.getByRole("dialog", { name: "Add Question" });
    await add.getByRole("button", { name: "Add Question", exact: true }).click();
    expect(await add.getByRole("alert").allTextContents()).toEqual([
      "Question is required",
      "Answer is required",
    ]);
    await add.getByLabel("Question *").fill("What is the capital of France?");
    await add.getByLabel("Answer *").fill("Paris");
    await add.getByLabel("Keywords (comma-separated)").fill("geography, capitals");
    await add.getByRole("button", { name: "Add Question", exact: true }).click();
    await expect.poll(() => text(page, "question-text")).toBe("What is the capital of France?");
    expect(await page.getByText("Placeholder template").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Not Finished" }).isVisible()).toBe(true);

    await page.getByRole("button", { name: "Flag as Finished" }).click();
    await expect.poll(() => text(page, "finished-items")).toBe("1");
    await expect.poll(async () => (await curationOf(app, "b4-curated")).questions[0]?.finished).toBe(true);
    await page
      .getByTestId("save-status")
      .getByText(/^Saved /)
      .waitFor();
    await app.screenshot("curator-b4-question");
    await noSeriousViolations(app);
  }, 90_000);

  test("B4: a template edit is a draft (dot, drafts box) that survives a reload, warns on unload, and Save stores", async () => {
    const { page } = app;
    const code = [
      "class Answer(BaseAnswer):",
      '    capital: str = Field(description="The capital named in the response")',
      "",
      "    def model_post_init(self, __context):",
      '        self.correct = {"capital": "Paris"}',
      "",
      "    def verify(self) -> bool:",
      '        return self.capital.strip().lower() == self.correct["capital"].lower()',
      "",
    ].join("\n");
    await typeTemplate(page, code);
    await page.getByTestId("drafts-box").waitFor();
    // Reloaded at once: the draft's save to IndexedDB is still pending (a write started at unload is dropped).
    const dialogs: string[] = [];
    const onDialog = (dialog: { type(): string; accept(): Promise<void> }) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    };
    page.on("dialog", onDialog);
    await page.reload();
    page.off("dialog", onDialog);
    expect(dialogs).toEqual(["beforeunload"]);
    await page.getByTestId("drafts-box").waitFor();
    expect(await text(page, "drafts-box")).toContain("question 1");
    expect(await page.getByTestId("tab-dot-curate").isVisible()).toBe(true);
    expect(await page.getByRole("tab", { name: /Template Curator/ }).getAttribute("title")).toBe(
      "1 question(s) with unsaved changes",
    );
    expect((await curationOf(app, "b4-curated")).questions[0]?.answer_template).not.toContain("self.correct");
    await app.screenshot("curator-b4-draft");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByTestId("drafts-box").waitFor({ state: "detached" });
    await expect
      .poll(async () => (await curationOf(app, "b4-curated")).questions[0]?.answer_template)
      .toContain('self.correct = {"capital": "Paris"}');
    await page.getByTestId("tab-dot-curate").waitFor({ state: "detached" });
    await page.reload();
    const editor = await codeEditor(page);
    await expect.poll(() => editor.textContent()).toContain("capital");
    expect(await page.getByTestId("tab-dot-curate").count()).toBe(0);
    expect(await page.getByText("Modified").count()).toBe(0);
    expect(app.errors).toEqual([]);
  }, 90_000);

  test("B4: the curated question runs from tab 3; its detailed trace shows the raw question and expected answer", async () => {
    const { page } = app;
    // Hand-written replies of the scripted server: the answerer names Paris, the judge extracts it.
    const llm = await startOpenAiServer([
      { match: { model: "answerer" }, reply: { text: "Paris is the capital of France." }, repeat: true },
      { match: { model: "judge" }, reply: { json: { capital: "Paris" } }, repeat: true },
    ]);
    try {
      const dialog = await runOneAndOpenDetail(app, llm.baseURL);
      expect(await dialog.getByRole("region", { name: "Raw Question" }).textContent()).toContain(
        "What is the capital of France?",
      );
      expect(await dialog.getByRole("region", { name: "Raw Answer (Expected)" }).textContent()).toContain(
        "Paris",
      );
      expect(await dialog.locator(".badge").allTextContents()).toContain("Passed");
      await app.screenshot("curator-b4-run-detail");
      await noSeriousViolations(app);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("tab", { name: "2. Template Curator" }).click();
      await page.getByRole("heading", { name: "2. Template Curator" }).waitFor();
    } finally {
      await llm.close();
    }
  }, 120_000);

  test("B4: the downloaded checkpoint loads in the library equal to the stored benchmark", async () => {
    const { page } = app;
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download Checkpoint" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^karenina_checkpoint_.*\.jsonld$/);
    const path = await download.path();
    const downloaded = Benchmark.parse(await readFile(path, "utf8"));
    const stored = await api<{ checkpoint: Parameters<typeof Benchmark.fromCheckpoint>[0] }>(
      app,
      "/api/v2/benchmarks/b4-curated",
    );
    // The stored route answers the document without its JSON-LD context; everything else must be equal.
    const { "@context": context, ...file } = downloaded.toCheckpoint();
    const { "@context": _none, ...inDatabase } = Benchmark.fromCheckpoint(stored.checkpoint).toCheckpoint();
    expect(file).toEqual(inDatabase);
    expect(context).toMatchObject({ "@vocab": "https://schema.org/" });
    expect(file.dataFeedElement).toHaveLength(1);
    expect(downloaded.name).toBe("b4-curated");
    expect(downloaded.finishedCount).toBe(1);
  }, 90_000);

  test("autosave after editing one question of 200 sends exactly that question", async () => {
    const { page } = app;
    await seedBenchmark(app, "two-hundred", 200);
    await loadInCurator(page, "two-hundred");
    await expect.poll(() => text(page, "questions-loaded")).toBe("200");
    await page.getByTestId("question-search").fill("what is 57 squared");
    await page.keyboard.press("Enter");
    await expect.poll(() => text(page, "question-text")).toBe("Bulk question 57: what is 57 squared?");
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.method() === "PATCH" && req.url().includes("/curation")),
      page.getByRole("button", { name: "Finished", exact: true }).click(),
    ]);
    const body = request.postDataJSON() as { upsert: { id: string; finished: boolean }[]; delete: string[] };
    expect(body.upsert).toHaveLength(1);
    expect(body.upsert[0]).toMatchObject({ id: "urn:karenina:bulk:q57", finished: false });
    expect(body.delete).toEqual([]);
    console.info(`autosave body after one edit of 200 questions: ${request.postData()?.length} bytes`);
    await expect.poll(async () => (await curationOf(app, "two-hundred")).questions[56]?.finished).toBe(false);
  }, 90_000);

  test("the navigator searches, filters and steps through the filtered list", async () => {
    const { page } = app;
    const search = page.getByTestId("question-search");
    await search.fill("");
    await search.fill("question 1");
    // 1, 10–19, 100–199: 111 questions.
    await expect.poll(() => text(page, "navigator-count")).toBe("Showing 111 of 200 questions");
    expect(await text(page, "question-text")).toBe("Bulk question 1: what is 1 squared?");
    expect(await page.getByRole("listbox").getByRole("option").count()).toBeLessThan(60);
    await page.keyboard.press("Escape");
    await page.getByTestId("finished-filter").selectOption("unfinished");
    await expect.poll(() => text(page, "navigator-count")).toMatch(/^Showing \d+ of 200 questions$/);
    expect(await text(page, "question-text")).toBe("Bulk question 10: what is 10 squared?");
    expect(await text(page, "question-position")).toMatch(/^Question 1 of \d+$/);
    await page.getByRole("button", { name: "Next", exact: true }).click();
    expect(await text(page, "question-text")).toBe("Bulk question 12: what is 12 squared?");
    expect(await text(page, "question-position")).toMatch(/^Question 2 of/);
    await page.getByRole("button", { name: "Previous", exact: true }).click();
    expect(await text(page, "question-position")).toMatch(/^Question 1 of/);
    await search.fill("no such question anywhere");
    await expect.poll(() => text(page, "navigator-count")).toBe("No questions match your search");
    await search.fill("");
    await page.getByTestId("finished-filter").selectOption("all");
    await app.screenshot("curator-navigator");
    await noSeriousViolations(app);
    expect(app.errors).toEqual([]);
  }, 90_000);
  test("question CRUD: edit the text (same id), clone after it, delete with the next one shown", async () => {
    const { page } = app;
    await loadInCurator(page, "with-rubrics-copy");
    await expect.poll(() => text(page, "questions-loaded")).toBe("3");
    const [first, second] = (await curationOf(app, "with-rubrics-copy")).questions;
    await expect.poll(() => text(page, "question-text")).toBe(first?.question ?? "");

    await page.getByRole("button", { name: "Edit question text" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Question" });
    await edit.getByLabel("Question *").fill("An edited question?");
    await edit.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => text(page, "question-text")).toBe("An edited question?");
    await expect
      .poll(async () => (await curationOf(app, "with-rubrics-copy")).questions[0])
      .toMatchObject({ id: first?.id, question: "An edited question?" });

    await page.getByRole("button", { name: "Clone", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Clone Question" })
      .getByRole("button", { name: "Clone", exact: true })
      .click();
    await expect.poll(() => text(page, "question-text")).toBe("[CLONED] An edited question?");
    expect(await text(page, "questions-loaded")).toBe("4");
    const afterClone = (await curationOf(app, "with-rubrics-copy")).questions;
    expect(afterClone[1]?.question).toBe("[CLONED] An edited question?");
    expect(afterClone[1]?.id).not.toBe(first?.id);

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const remove = page.getByRole("dialog", { name: "Delete Question" });
    expect(await remove.textContent()).toContain("cannot be undone");
    await remove.getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(() => text(page, "question-text")).toBe(second?.question ?? "");
    await expect
      .poll(async () => (await curationOf(app, "with-rubrics-copy")).questions.map((q) => q.id))
      .toEqual([first?.id, second?.id, afterClone[3]?.id]);
  }, 90_000);

  test("question metadata and few-shot dialogs store their edits (keywords by Enter, typed JSON custom properties, Ctrl+S saves)", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Metadata", exact: true }).click();
    const metadata = page.getByRole("dialog", { name: "Question Metadata" });
    await metadata.getByLabel("Author name").fill("Ada Lovelace");
    await metadata.getByLabel("Add a keyword (Enter or comma)").fill("history");
    await page.keyboard.press("Enter");
    await metadata.getByLabel("Add a keyword (Enter or comma)").fill("math,");
    await page.keyboard.press(",");
    expect(
      (await metadata.getByRole("list", { name: "Keywords" }).getByRole("listitem").allTextContents()).slice(
        -2,
      ),
    ).toEqual(["history×", "math×"]);
    const custom = metadata.getByLabel("Custom properties (one per line, key: value)");
    await metadata.getByRole("checkbox", { name: "Values are JSON" }).check();
    await custom.fill("difficulty: hard\nlevel: 3");
    await metadata.getByRole("button", { name: "Save Metadata" }).click();
    expect(await metadata.getByRole("alert").textContent()).toBe(
      'Line 1 ("difficulty"): hard is not JSON. Write text in double quotes, or turn off "Values are JSON".',
    );
    await custom.fill('difficulty: "hard"\nlevel: 3\nreviewed: true\nscores: {"a": [1, 2]}');
    await app.screenshot("curator-metadata-dialog");
    await noSeriousViolations(app);
    await metadata.getByRole("button", { name: "Save Metadata" }).click();
    await metadata.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Few-shot Examples" }).click();
    const fewShot = page.getByRole("dialog", { name: "Few-shot Examples" });
    await fewShot.getByRole("button", { name: "Add Example" }).click();
    await fewShot.getByLabel("Example 1 question").fill("What is 1+1?");
    await fewShot.getByLabel("Example 1 answer").fill("2");
    await page.keyboard.press("ControlOrMeta+s");
    await fewShot.waitFor({ state: "detached" });
    expect(await page.getByText("Few-shot (1)").isVisible()).toBe(true);
    await expect
      .poll(async () => {
        const stored = (await curationOf(app, "with-rubrics-copy")).questions[1] as unknown as Record<
          string,
          unknown
        >;
        return [
          (stored.author as { name?: string } | null)?.name,
          (stored.keywords as string[]).slice(-2),
          stored.custom_metadata,
          stored.few_shot_examples,
        ];
      })
      .toEqual([
        "Ada Lovelace",
        ["history", "math"],
        { difficulty: "hard", level: 3, reviewed: true, scores: { a: [1, 2] } },
        [{ question: "What is 1+1?", answer: "2" }],
      ]);
    // Reopened, the typed values show as JSON again, so saving unchanged keeps their types.
    await page.getByRole("button", { name: "Metadata", exact: true }).click();
    expect(await metadata.getByRole("checkbox", { name: "Values are JSON" }).isChecked()).toBe(true);
    expect(await metadata.getByLabel("Custom properties (one per line, key: value)").inputValue()).toBe(
      'difficulty: "hard"\nlevel: 3\nreviewed: true\nscores: {"a":[1,2]}',
    );
    await metadata.getByRole("button", { name: "Cancel" }).click();
  }, 90_000);

  test("the expanded editor: Ctrl+→ and Ctrl+← move, Escape closes", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Expand" }).click();
    const expanded = page.getByRole("dialog", { name: "Expanded Template Editor" });
    await expanded.waitFor();
    expect(await expanded.getByTestId("expanded-position").textContent()).toBe("Question 2 of 3");
    await app.screenshot("curator-expanded");
    await noSeriousViolations(app);
    await page.keyboard.press("ControlOrMeta+ArrowRight");
    await expect.poll(() => expanded.getByTestId("expanded-position").textContent()).toBe("Question 3 of 3");
    await page.keyboard.press("ControlOrMeta+ArrowLeft");
    await page.keyboard.press("ControlOrMeta+ArrowLeft");
    await expect.poll(() => expanded.getByTestId("expanded-position").textContent()).toBe("Question 1 of 3");
    await page.keyboard.press("Escape");
    await expanded.waitFor({ state: "detached" });
    expect(await text(page, "question-position")).toBe("Question 1 of 3");
  }, 90_000);

  test("global rubric edits wait for Save Rubric (dot and warning meanwhile), then are stored", async () => {
    const { page } = app;
    const before = await api<{ global_rubric: Record<string, { name: string }[]> | null }>(
      app,
      "/api/v2/benchmarks/with-rubrics-copy/curation",
    );
    const names = (rubric: Record<string, unknown> | null) =>
      Object.values(rubric ?? {}).flatMap((list) =>
        Array.isArray(list) ? list.map((t: { name: string }) => t.name) : [],
      );
    const traitsBefore = names(before.global_rubric);
    expect(traitsBefore.length).toBeGreaterThan(0);
    const global = page.locator('section[aria-labelledby="global-rubric-heading"]');
    await global
      .getByRole("button", { name: /^Remove trait/ })
      .first()
      .click();
    await page.getByTestId("rubric-unsaved").waitFor();
    expect(await page.getByRole("tab", { name: /Template Curator/ }).getAttribute("title")).toBe(
      "global rubric not saved",
    );
    expect(
      names(
        (
          (await curationOf(app, "with-rubrics-copy")) as unknown as {
            global_rubric: Record<string, unknown>;
          }
        ).global_rubric,
      ),
    ).toEqual(traitsBefore);
    await global.getByRole("button", { name: "Save Rubric" }).click();
    await page.getByTestId("rubric-unsaved").waitFor({ state: "detached" });
    await expect
      .poll(
        async () =>
          names(
            (
              (await curationOf(app, "with-rubrics-copy")) as unknown as {
                global_rubric: Record<string, unknown>;
              }
            ).global_rubric,
          ).length,
      )
      .toBe(traitsBefore.length - 1);
    expect(await page.getByTestId("tab-dot-curate").count()).toBe(0);
    expect(app.errors).toEqual([]);
  }, 90_000);
});
