/**
 * The run screen's settings that reach the job config, in Chromium against the real server: Test Selection's
 * search with Select Visible and the run counter; the evaluation toggles not covered elsewhere (sufficiency,
 * embedding check, rubric strategy and deep judgment, few-shot k-shot and custom picks, the MCP trace flags);
 * an answering agent's settings and Extra Arguments; and "Upload results to view" in the database bar.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { richResult } from "../../karenina/src/storage/__fixtures__/results.js";
import type { OpenAiTestServer } from "../../karenina/src/test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../../karenina/src/test-support/pipeline-context.js";
import { describeInBrowser } from "./__fixtures__/browser.js";
import {
  addBioMcpServer,
  bioMcpServer,
  card,
  jobEnd,
  loadWorkingBenchmark,
  noSeriousViolations,
  runAndCapture,
  runScreenSuite,
  scriptedPair,
} from "./__fixtures__/run-screen.js";

const EGFR_EXAMPLE = { question: "Which drug inhibits EGFR?", answer: "Erlotinib" };
const BRAF_EXAMPLE = { question: "Which drug inhibits BRAF V600E?", answer: "Vemurafenib" };

/** Three finished drug questions (hand-written test data); the two BCL2 ones carry two few-shot examples. */
function settingsBenchmark(): Benchmark {
  const bench = Benchmark.create({ name: "settings-e2e" });
  const questions: [string, string, boolean][] = [
    ["q-alpha", "Which drug inhibits BCL2? (alpha)", true],
    ["q-beta", "Which drug inhibits BCL2? (beta)", true],
    ["q-gamma", "Which small molecule blocks MCL1? (gamma)", false],
  ];
  for (const [questionId, text, examples] of questions)
    bench.addQuestion(text, "venetoclax", {
      questionId,
      answerTemplate: DRUG_TEMPLATE,
      ...(examples ? { fewShotExamples: [EGFR_EXAMPLE, BRAF_EXAMPLE] } : {}),
    });
  return bench;
}

/** The bodies the scripted server received for model `model` since request number `from`. */
function bodiesSince(llm: OpenAiTestServer, from: number, model: string): string[] {
  return llm.requests
    .slice(from)
    .filter((request) => request.body.model === model)
    .map((request) => JSON.stringify(request.body));
}

/** Selects exactly the two BCL2 questions (through the search and Select Visible). */
async function selectBcl2Questions(page: Page): Promise<void> {
  const clear = page.getByRole("button", { name: /^Clear All/ });
  if (await clear.isEnabled()) await clear.click();
  await page.getByLabel("Search questions").fill("bcl2");
  await page.getByRole("button", { name: "Select Visible", exact: true }).click();
  await page.getByLabel("Search questions").fill("");
  await page.getByRole("button", { name: "Run Selected (2 × 1 = 2)" }).waitFor();
}

describeInBrowser("run settings that reach the job config", () => {
  const suite = runScreenSuite("run-settings", settingsBenchmark(), { defaultTimeout: 15_000 });

  test("Test Selection: the search narrows the list, Select Visible takes only those, the counter follows", async () => {
    const { app } = suite;
    const { page } = app;
    await loadWorkingBenchmark(app, "settings-e2e");
    await page.getByText("Test Selection (3 available)").waitFor();
    const rowBoxes = page.getByRole("checkbox", { name: /^Select Which/ });
    expect(await rowBoxes.count()).toBe(3);
    await page.getByRole("button", { name: "Run Selected (0 × 1 = 0)" }).waitFor();

    await page.getByLabel("Search questions").fill("bcl2");
    await page.waitForFunction(`document.querySelectorAll('input[aria-label^="Select Which"]').length === 2`);
    expect(await page.getByRole("checkbox", { name: /gamma/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Select Visible", exact: true }).click();
    await page.getByRole("button", { name: "Run Selected (2 × 1 = 2)" }).waitFor();
    await app.screenshot("run-selection-search");
    await noSeriousViolations(app);

    await page.getByLabel("Search questions").fill("");
    await page.getByRole("checkbox", { name: /gamma/ }).waitFor();
    expect(await page.getByRole("checkbox", { name: /gamma/ }).isChecked()).toBe(false);
    expect(await page.getByRole("checkbox", { name: /alpha/ }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: /beta/ }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Clear All (2)" }).waitFor();

    await page.getByLabel("Search questions").fill("q-gamma"); // ids match too
    await page.getByRole("button", { name: "Select Visible", exact: true }).click();
    await page.getByRole("button", { name: "Run Selected (3 × 1 = 3)" }).waitFor();
    await page.getByRole("button", { name: "Deselect Visible" }).click();
    await page.getByRole("button", { name: "Run Selected (2 × 1 = 2)" }).waitFor();
    await page.getByLabel("Search questions").fill("");
  });

  test("evaluation toggles: sufficiency, embedding check, rubric strategy and deep judgment, few-shot, MCP trace flags", async () => {
    const { app, llm } = suite;
    const { page } = app;
    await loadWorkingBenchmark(app, "settings-e2e");
    await scriptedPair(page, llm.baseURL);
    await selectBcl2Questions(page);

    await page.getByRole("checkbox", { name: "Rubric", exact: true }).check();
    await page.getByLabel("Rubric strategy").selectOption("sequential");
    await page.getByLabel("Deep Judgment (rubrics)").selectOption("enable_all");
    await page.getByLabel("Extract Excerpts").check();
    await page.getByLabel("Sufficiency Detection").check();
    await page.getByLabel("Embedding Check").check();
    await page.getByLabel("Embedding threshold").fill("0.9");
    await page.getByLabel("Full trace to template parsing").uncheck();
    await page.getByLabel("Full trace to rubric evaluation").uncheck();
    await page.getByLabel("Few-shot mode").selectOption("k-shot");
    await page.getByLabel("k", { exact: true }).fill("1");
    await app.screenshot("run-evaluation-toggles");
    await noSeriousViolations(app);

    let from = llm.requests.length;
    const kShot = await runAndCapture(page, "Run Selected (2 × 1 = 2)");
    expect(kShot.status).toBe(202);
    expect(kShot.config).toMatchObject({
      evaluation_mode: "template_and_rubric",
      rubric_evaluation_strategy: "sequential",
      deep_judgment_rubric_mode: "enable_all",
      deep_judgment_rubric_global_excerpts: true,
      sufficiency_enabled: true,
      embedding_check_enabled: true,
      embedding_check_threshold: 0.9,
      use_full_trace_for_template: false,
      use_full_trace_for_rubric: false,
      few_shot_config: { source: "question_pool", pool_mode: "k-shot", pool_k: 1 },
    });
    await jobEnd(app, kShot.jobId);
    // k = 1 of two examples: each answering prompt holds exactly one of them
    const kShotPrompts = bodiesSince(llm, from, "answerer");
    expect(kShotPrompts).toHaveLength(2);
    for (const prompt of kShotPrompts)
      expect([prompt.includes("Erlotinib"), prompt.includes("Vemurafenib")].filter(Boolean)).toHaveLength(1);

    await page.getByLabel("Few-shot mode").selectOption("custom");
    const alphaRow = page.getByRole("row", { name: /alpha/ });
    await alphaRow.getByRole("checkbox", { name: BRAF_EXAMPLE.question }).check();
    expect(await page.getByRole("row", { name: /gamma/ }).getByText("none").count()).toBe(1);
    await noSeriousViolations(app);
    from = llm.requests.length;
    const custom = await runAndCapture(page, "Run Single: Which drug inhibits BCL2? (alpha)");
    expect(custom.status).toBe(202);
    const fewShot = custom.config.few_shot_config as {
      pool_mode: string;
      question_configs: Record<string, { mode: string; selected_examples: string[] }>;
    };
    expect(fewShot.pool_mode).toBe("custom");
    const [pick] = Object.values(fewShot.question_configs);
    expect(Object.keys(fewShot.question_configs)).toHaveLength(1);
    expect(pick?.mode).toBe("custom");
    expect(pick?.selected_examples).toHaveLength(1);
    expect(await jobEnd(app, custom.jobId)).toBe("completed");
    // the picked example, and only it, reaches the answering prompt
    const [customPrompt, ...more] = bodiesSince(llm, from, "answerer");
    expect(more).toEqual([]);
    expect(customPrompt).toContain("Vemurafenib");
    expect(customPrompt).not.toContain("Erlotinib");

    // back to a plain template run for the tests after this one
    await page.getByLabel("Few-shot mode").selectOption("off");
    await page.getByRole("checkbox", { name: "Rubric", exact: true }).uncheck();
    await page.getByLabel("Sufficiency Detection").uncheck();
    await page.getByLabel("Embedding Check").uncheck();
  }, 90_000);

  test("agent settings and Extra Arguments of an answering agent reach its model config", async () => {
    const { app, llm, startMcp } = suite;
    const { page } = app;
    const url = await startMcp(() => bioMcpServer({ lookup_drug: "Looks a drug up" }));
    await loadWorkingBenchmark(app, "settings-e2e");
    await scriptedPair(page, llm.baseURL);
    await selectBcl2Questions(page);
    const answering = card(page, "Answering model 1");
    expect(await answering.getByText("Agent settings").count()).toBe(0); // not an agent yet

    const mcp = await addBioMcpServer(page, url);
    await mcp.getByText("1 of 1 selected").waitFor();
    await mcp.getByRole("button", { name: "Save Configuration" }).click();

    await answering.getByText("Agent settings").click();
    await answering.getByLabel("Summarization").uncheck();
    await answering.getByLabel("Max context tokens").fill("64000");
    await answering.getByLabel("Model-call limit").fill("7");
    await answering.getByLabel("Tool-call limit").fill("9");
    await answering.getByLabel("On limit").selectOption("continue");
    await answering.getByLabel("Trigger fraction").fill("0.6");
    await answering.getByLabel("Messages kept").fill("5");
    await answering.getByLabel("Model max retries").fill("1");
    await answering.getByLabel("Model backoff").fill("1.5");
    await answering.getByLabel("Model initial delay (s)").fill("0.5");
    await answering.getByLabel("Model max delay (s)").fill("4");
    await answering.getByLabel("Jitter").uncheck();
    await answering.getByLabel("Model on failure").selectOption("raise");
    await answering.getByLabel("Tool max retries").fill("0");
    await answering.getByLabel("Tool backoff").fill("3");
    await answering.getByLabel("Tool initial delay (s)").fill("2");
    await answering.getByLabel("Tool on failure").selectOption("raise");
    await app.screenshot("run-agent-settings");
    await noSeriousViolations(app);

    await answering.getByRole("button", { name: "Extra Arguments" }).click();
    const extra = page.getByRole("dialog", { name: "Extra Arguments" });
    await extra.getByLabel("Max Tokens").fill("256");
    await extra.getByLabel("Top P").fill("0.5");
    await extra.getByRole("tab", { name: "JSON" }).click();
    await extra.getByLabel("Extra arguments as a JSON object").fill('{"seed": 7}');
    await noSeriousViolations(app);
    await extra.getByRole("button", { name: "Save" }).click();
    await extra.waitFor({ state: "detached" });

    const from = llm.requests.length;
    const { config, status, jobId } = await runAndCapture(page, "Run Selected (2 × 1 = 2)");
    expect(status).toBe(202);
    const [model] = config.answering_models as Record<string, unknown>[];
    expect(model?.agent_middleware).toEqual({
      limits: { model_call_limit: 7, tool_call_limit: 9, exit_behavior: "continue" },
      model_retry: {
        max_retries: 1,
        backoff_factor: 1.5,
        initial_delay: 0.5,
        max_delay: 4,
        jitter: false,
        on_failure: "raise",
      },
      tool_retry: { max_retries: 0, backoff_factor: 3, initial_delay: 2, on_failure: "raise" },
      summarization: {
        enabled: false,
        model: null,
        trigger_fraction: 0.6,
        trigger_tokens: null,
        keep_messages: 5,
      },
      prompt_caching: {
        enabled: true,
        ttl: "5m",
        min_messages_to_cache: 0,
        unsupported_model_behavior: "warn",
      },
    });
    expect(model?.max_context_tokens).toBe(64000);
    expect(model?.max_tokens).toBe(256);
    expect(model?.extra_kwargs).toEqual({ top_p: 0.5, seed: 7 });
    expect(await jobEnd(app, jobId)).toBe("completed");
    // the token cap and the extra arguments reach the answering model's requests
    const [request] = llm.requests.slice(from).filter((r) => r.body.model === "answerer");
    expect(request?.body.max_tokens).toBe(256);
    expect(request?.body.top_p).toBe(0.5);
    expect(request?.body.seed).toBe(7);

    // the MCP server stops with this test: leave the card without it
    await answering.getByRole("button", { name: "Configure MCP (1)" }).click();
    await mcp.getByRole("button", { name: "Remove server" }).click();
    await mcp.getByRole("button", { name: "Save Configuration" }).click();
  }, 90_000);

  test("Upload results to view: a JSONL run log becomes an imported run the results table shows", async () => {
    const { app, folder } = suite;
    const { page } = app;
    const rows = ["q1", "q2", "q3"].map((questionId) =>
      richResult({
        questionId,
        questionText: `Which drug inhibits BCL2? (${questionId})`,
        runName: "uploaded",
      }),
    );
    const file = join(folder, "lab-nightly.jsonl");
    await writeFile(file, `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
    await page.goto(`${app.url}/#/benchmark`);
    await page.getByRole("heading", { name: "Stored runs" }).waitFor();

    const [response] = await Promise.all([
      page.waitForResponse(
        (res) => res.request().method() === "POST" && res.url().includes("/api/v2/verification-runs/imports"),
      ),
      page.getByLabel("Upload results to view").setInputFiles(file),
    ]);
    expect(response.status()).toBe(201);
    const imported = (await response.json()) as { run_name: string; imported_count: number };
    expect(imported.imported_count).toBe(3);

    await page.waitForFunction(
      `document.querySelector('[data-testid="results-source"]')?.textContent === ${JSON.stringify(`Run ${imported.run_name}`)}`,
    );
    await page.getByRole("heading", { name: "Test Results (3)" }).waitFor({ timeout: 20_000 });
    const storedRow = page
      .locator(".runs-table tbody tr")
      .filter({ has: page.getByRole("button", { name: `Open run ${imported.run_name}` }) });
    await storedRow.getByText("imported", { exact: true }).waitFor();
    expect(await storedRow.count()).toBe(1);
    await app.screenshot("run-upload-results");
    await noSeriousViolations(app);
    expect(app.errors.filter((error) => !error.includes("Failed to load resource"))).toEqual([]);
  });
});
