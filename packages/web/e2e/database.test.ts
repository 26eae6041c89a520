/**
 * The database browser and the configuration dialog (spec 07 §1.7, §1.8) in Chromium against the real server:
 * a second SQLite file with a benchmark and a run is listed, connected, its benchmark loaded and its run opened;
 * a database is created and deleted through the in-app confirmation; defaults are saved and read back; an API key
 * is added and shown masked; and `karenina view` on a JSONL run log opens the page on that run. Screenshots and
 * axe-core on each dialog.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Benchmark } from "../../karenina/src/benchmark/index.js";
import { viewTarget, viewUrl } from "../../karenina/src/cli/view-command.js";
import { startServer } from "../../karenina/src/server/start-server.js";
import { manyResults } from "../../karenina/src/storage/__fixtures__/results.js";
import { openStorage } from "../../karenina/src/storage/index.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import { builtWebApp } from "./__fixtures__/built-app.js";

const SCENARIO_FIXTURE = new URL(
  "../../karenina/src/scenario/__fixtures__/capital-scenarios.jsonld",
  import.meta.url,
).pathname;

async function seedLabDatabase(workDir: string): Promise<void> {
  const storage = await openStorage(join(workDir, "lab.db"));
  const bench = Benchmark.create({ name: "Pharma lab" });
  bench.addQuestion({ question: "What does venetoclax target?", raw_answer: "BCL2", question_id: "q1" });
  await storage.saveBenchmark(bench);
  await storage.saveBenchmark(await Benchmark.load(SCENARIO_FIXTURE));
  await storage.startRun({
    runId: "run-lab-1",
    runName: "lab-nightly",
    benchmarkName: "Pharma lab",
    config: {},
  });
  await storage.close();
}

describeInBrowser("the database browser and the configuration dialog", () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await openBrowserApp();
    await seedLabDatabase(app.server.deps.workDir);
    // A step that cannot happen fails with the locator's message, well before the test's own timeout.
    app.page.setDefaultTimeout(10_000);
  }, 120_000);
  afterAll(() => app?.close());

  test("the dialog lists a SQLite database's benchmarks; Load Benchmark sets the working benchmark", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/benchmark`);
    await page.getByRole("heading", { name: "Database", level: 2 }).waitFor();
    expect(await page.getByTestId("connected-db").textContent()).toBe("the server's database");
    await page.getByRole("button", { name: "Manage Database", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Manage Database" });
    await dialog.getByRole("button", { name: "Connect to lab.db" }).waitFor();
    await app.screenshot("database-connect");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await dialog.getByRole("button", { name: "Connect to lab.db" }).click();
    await page.waitForFunction(
      `document.querySelector('[data-testid="connected-db"]').textContent === "lab"`,
    );
    await dialog.getByRole("tab", { name: "Manage Benchmarks" }).click();
    await dialog.getByRole("heading", { name: "Pharma lab" }).waitFor();
    expect(await dialog.getByText("1 question (1 finished, 0 unfinished)").count()).toBe(1);
    // A scenario benchmark is counted by its scenarios, not as an empty question benchmark.
    await dialog.getByRole("heading", { name: "capital-scenarios" }).waitFor();
    expect(await dialog.getByText("1 scenario ·").count()).toBe(1);
    await app.screenshot("database-benchmarks");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await dialog.getByRole("button", { name: "Create benchmark" }).click();
    expect(await dialog.getByRole("alert").textContent()).toBe("Give the benchmark a name.");
    await dialog.getByRole("button", { name: "Load Benchmark Pharma lab" }).click();
    expect(await page.getByTestId("working-benchmark").textContent()).toBe("Pharma lab");
    await dialog.getByRole("button", { name: "Close manage database" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  test("Open on a stored run sets the results source", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Open run lab-nightly" }).click();
    expect(await page.getByTestId("results-source").textContent()).toBe("Run lab-nightly");
    await app.screenshot("database-run-opened");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  });

  test("a database is created, then deleted through the in-app confirmation", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Manage Database", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Manage Database" });
    await dialog.getByRole("tab", { name: "Connect" }).click();
    await dialog.getByLabel("New SQLite database").fill("scratch");
    await dialog.getByRole("button", { name: "Create database" }).click();
    await dialog.getByRole("button", { name: "Delete scratch.db" }).waitFor();
    await dialog.getByRole("button", { name: "Delete scratch.db" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete scratch.db?" });
    await confirm.waitFor();
    await app.screenshot("database-delete-confirm");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await confirm.getByRole("button", { name: "Delete database" }).click();
    await dialog.getByRole("button", { name: "Delete scratch.db" }).waitFor({ state: "detached" });
    await dialog.getByRole("button", { name: "Close manage database" }).click();
  });

  test("the configuration dialog saves defaults that a reload reads back", async () => {
    const { page } = app;
    await page.getByRole("button", { name: "Configuration", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Configuration" });
    await dialog.getByLabel("Model", { exact: true }).fill("claude-sonnet-4-5");
    await dialog.getByRole("button", { name: "Save defaults" }).click();
    await dialog.getByRole("status").getByText("Defaults saved").waitFor();
    await app.screenshot("config-defaults");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await dialog.getByRole("button", { name: "Close configuration" }).click();
    await page.reload();
    await page.getByRole("heading", { name: "karenina", level: 1 }).waitFor();
    // The shell remembers whether the dialog was open; open it when the reload did not.
    if ((await page.getByRole("dialog", { name: "Configuration" }).count()) === 0)
      await page.getByRole("button", { name: "Configuration", exact: true }).click();
    await page.waitForFunction(
      `document.getElementById("defaults-default_model")?.value === "claude-sonnet-4-5"`,
    );
  });

  test("an API key is added and listed masked", async () => {
    const { page } = app;
    const dialog = page.getByRole("dialog", { name: "Configuration" });
    await dialog.getByRole("tab", { name: "Environment / API keys" }).click();
    await dialog.getByLabel("Name", { exact: true }).fill("bad key");
    await dialog.getByRole("button", { name: "Add variable" }).click();
    expect(await dialog.getByRole("alert").textContent()).toMatch(/upper-case/);
    await dialog.getByLabel("Name", { exact: true }).fill("OPENAI_API_KEY");
    await dialog.getByLabel("Value", { exact: true }).fill("sk-test-1234567890abcd");
    await dialog.getByRole("button", { name: "Add variable" }).click();
    const shown = dialog.getByTestId("env-OPENAI_API_KEY");
    await shown.waitFor();
    const text = (await shown.textContent()) ?? "";
    expect(text).not.toContain("sk-test-1234567890");
    expect(text.endsWith("abcd")).toBe(true);
    await app.screenshot("config-env");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await dialog.getByRole("button", { name: "Show values" }).click();
    await dialog.getByText("sk-test-1234567890abcd").waitFor();
    await dialog.getByRole("button", { name: "Close configuration" }).click();
  });

  test("karenina view on a JSONL run log opens the page with that run as the results source", async () => {
    const dir = app.server.deps.workDir;
    const file = join(dir, "viewed.jsonl");
    await writeFile(
      file,
      manyResults(["q1", "q2"], 3)
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    const target = await viewTarget(file, undefined);
    const server = await startServer({
      port: 0,
      storageUrl: target.storageUrl,
      workDir: dir,
      env: {},
      webDir: await builtWebApp(),
    });
    try {
      await app.page.goto(viewUrl(server, target.run));
      await app.page.getByRole("heading", { name: "Database", level: 2 }).waitFor();
      await app.page.waitForFunction(
        `document.querySelector('[data-testid="results-source"]')?.textContent === "Run viewed"`,
      );
      expect(new URL(app.page.url()).hash).toBe("#/benchmark");
      await app.screenshot("karenina-view");
    } finally {
      await server.close();
      if (target.scratch !== undefined) await rm(target.scratch, { recursive: true, force: true });
    }
  });

  test("no console error or page error happened", () => {
    expect(app.errors).toEqual([]);
  });
});
