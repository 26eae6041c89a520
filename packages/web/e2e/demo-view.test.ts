/**
 * The browser half of issue 16's "done when" (the process half is packages/karenina/src/cli/demo-view.test.ts):
 * the real `karenina demo --offline` runs in a scratch folder; the run named by the `karenina view` command it
 * prints is served the way `karenina view` serves it (its own `viewTarget` and `viewUrl`, on the same database
 * file), but by an in-process server with the web app built from the current sources — the spawned CLI would
 * serve `packages/web/dist`, which may be stale. The page at the printed kind of address shows that run's table
 * heading with the demo's row count.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { viewTarget, viewUrl } from "../../karenina/src/cli/view-command.js";
import { type RunningServer, startServer } from "../../karenina/src/server/start-server.js";
import { tempDir } from "../../karenina/src/storage/__fixtures__/databases.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import { builtWebApp } from "./__fixtures__/built-app.js";

const MAIN = fileURLToPath(new URL("../../karenina/src/cli/main.ts", import.meta.url));
const TSX = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist", "loader.mjs"),
).href;
const DEMO_ROWS = 14;

async function demo(cwd: string): Promise<string> {
  const env = { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" };
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ["--import", TSX, MAIN, "demo", "--offline", "--no-progress"],
    { cwd, env },
  );
  let err = "";
  child.stdout.resume();
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(code, err).toBe(0);
  return err;
}

describeInBrowser("karenina demo's printed view in the browser", () => {
  let app: BrowserApp;
  let server: RunningServer | undefined;
  let dir = "";
  beforeAll(async () => {
    app = await openBrowserApp();
    dir = await tempDir();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await app?.close();
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  test("the page at the printed view's address shows the run's table with the demo's rows", async () => {
    const printed = /Open them in the web app: karenina view --db karenina\.db (run_\w+)\n/.exec(
      await demo(dir),
    );
    expect(printed).not.toBeNull();
    const target = await viewTarget(printed?.[1], join(dir, "karenina.db"));
    server = await startServer({
      port: 0,
      storageUrl: target.storageUrl,
      workDir: dir,
      env: {},
      webDir: await builtWebApp(),
    });
    const { page } = app;
    await page.goto(viewUrl(server, target.run));
    await expect
      .poll(() => page.locator("#results-heading").textContent(), { timeout: 20_000 })
      .toBe(`Test Results (${DEMO_ROWS})`);
    expect(await page.getByTestId("results-source").textContent()).toBe(`Run ${printed?.[1]}`);
    await page.locator(".results-body td").first().waitFor();
    await app.screenshot("demo-view");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
  }, 120_000);
});
