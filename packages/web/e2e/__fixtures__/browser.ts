/**
 * A browser test's world: the real server (`startServer`, as `karenina serve` runs it) on 127.0.0.1 with a real
 * SQLite file, serving the web app built from the current sources, and Debian's Chromium driven by
 * playwright-core (never a downloaded browser). Collects console errors and page errors; saves screenshots under
 * `.tmp/screenshots/` (git-ignored) as artefacts of each checked screen.
 *
 * Browser tests run when `/usr/bin/chromium` (or `KARENINA_CHROMIUM`) exists, and fail instead of skipping when
 * `KARENINA_REQUIRE_BROWSER=1` (CI sets it). Code run in the page is given as expression strings: the e2e
 * files typecheck without the DOM library (they import the server's sources, which do not build with it).
 * @example
 * describeInBrowser("the shell", () => {
 *   let app: BrowserApp;
 *   beforeAll(async () => { app = await openBrowserApp(); });
 *   afterAll(() => app.close());
 *   test("loads", async () => { await app.page.goto(app.url); ... });
 * });
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { describe, test } from "vitest";
import { startTestServer, type TestServer } from "../../../karenina/src/server/__fixtures__/test-server.js";
import { builtWebApp, REPO_DIR } from "./built-app.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "./chromium.js";

export { CHROMIUM };
export const SCREENSHOTS_DIR = join(REPO_DIR, ".tmp", "screenshots");

const browserRequired = process.env.KARENINA_REQUIRE_BROWSER === "1";

const NO_CHROMIUM = `No Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set KARENINA_CHROMIUM`;

/**
 * `describe` for browser tests: skipped on a machine without Chromium, unless `KARENINA_REQUIRE_BROWSER=1`,
 * where the suite is one failing test saying what is missing (a failure CI counts, not a silent skip).
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) describe(name, body);
  else if (browserRequired) {
    describe(name, () => {
      test("has Chromium to run in", () => {
        throw new Error(`${NO_CHROMIUM} (KARENINA_REQUIRE_BROWSER=1)`);
      });
    });
  } else describe.skip(name, body);
}

export interface BrowserApp {
  /** The server's page URL, without a trailing slash. */
  readonly url: string;
  /** The server now running (another object after {@link BrowserApp.restartServer}). */
  readonly server: TestServer;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught page errors so far. */
  readonly errors: string[];
  /** Saves a screenshot of the page as `.tmp/screenshots/<name>.png`; returns its path. */
  screenshot(name: string): Promise<string>;
  /** Runs axe-core on the page; returns the serious and critical violations (id: help, with the targets). */
  seriousAccessibilityViolations(): Promise<string[]>;
  /**
   * Closes the server (running jobs are left `interrupted`, as when `karenina serve` stops) and starts a new one
   * on the same port, database and work folder: the page keeps its origin (and its session), as after a user
   * restarts `karenina serve`. The new server has a new token.
   */
  restartServer(): Promise<void>;
  close(): Promise<void>;
}

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[] }[];
}

/** Starts the server and Chromium (a fresh profile) and opens one page; close it in `afterAll`. */
export async function openBrowserApp(): Promise<BrowserApp> {
  if (!existsSync(CHROMIUM)) throw new Error(NO_CHROMIUM);
  const webDir = await builtWebApp();
  let server = await startTestServer({ webDir });
  const profile = await mkdtemp(join(tmpdir(), "karenina-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page: ${error.message}`));
  return {
    url: server.url,
    get server() {
      return server;
    },
    context,
    page,
    errors,
    screenshot: async (name) => {
      await mkdir(SCREENSHOTS_DIR, { recursive: true });
      const path = join(SCREENSHOTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    seriousAccessibilityViolations: async () => {
      await page.addScriptTag({ path: AXE_SCRIPT });
      const violations = await page.evaluate<AxeViolation[]>("axe.run().then((result) => result.violations)");
      return violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((node) => node.target.join(" ")).join(", ")})`);
    },
    restartServer: async () => {
      const { workDir, storageUrl } = server.deps;
      const port = Number(new URL(server.url).port);
      await server.close();
      server = await startTestServer({ webDir, workDir, storageUrl, port });
    },
    close: async () => {
      await context.close();
      await server.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
