import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { BrowserApp } from "./browser.js";

// Steps of the run screen's browser tests (run.test.ts, run-dialogs.test.ts, run-to-results.test.ts).

/** A model card of the run screen by its title ("Answering model 1"). */
export const card = (page: Page, title: string): Locator => page.getByRole("group", { name: title, exact: true });

/** Makes `name` (of the server's database) the working benchmark, as the database browser's Load Benchmark does. */
export async function loadWorkingBenchmark(app: BrowserApp, name: string): Promise<void> {
  const { page } = app;
  await page.goto(`${app.url}/#/benchmark`);
  await page.getByRole("heading", { name: "Run configuration" }).waitFor();
  await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open("karenina-session");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("slices", "readwrite");
      tx.objectStore("slices").put({ version: 1, value: { benchmark: { db: null, name: ${JSON.stringify(name)} } } }, "working-benchmark");
      tx.oncomplete = () => { open.result.close(); resolve(undefined); };
      tx.onerror = () => reject(tx.error);
    };
  })`);
  await page.reload();
  await page.getByText(`Test Selection (`).waitFor();
}

/** Points a card at the scripted server: openai_endpoint, `model`, its base URL and a test key. */
export async function scriptedModel(page: Page, title: string, model: string, baseURL: string): Promise<void> {
  const box = card(page, title);
  await box.getByRole("radio", { name: "openai_endpoint", exact: true }).check();
  await box.getByLabel("Model name").fill(model);
  await box.getByLabel("Endpoint URL").fill(baseURL);
  await box.getByLabel("API key").fill("sk-test");
}

/** No serious or critical axe violation on the page as it is. */
export async function noSeriousViolations(app: BrowserApp): Promise<void> {
  expect(await app.seriousAccessibilityViolations()).toEqual([]);
}
