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

/** Makes stored benchmark `name` the working benchmark through tab 3's Manage Database → Load Benchmark. */
export async function loadThroughManageDatabase(app: BrowserApp, name: string): Promise<void> {
  const { page } = app;
  await page.goto(`${app.url}/#/benchmark`);
  await page.getByRole("button", { name: "Manage Database", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Manage Database" });
  await dialog.getByRole("tab", { name: "Manage Benchmarks" }).click();
  await dialog.getByRole("button", { name: `Load Benchmark ${name}` }).click();
  await dialog.getByRole("button", { name: "Close manage database" }).click();
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

/** Clicks `button`; returns the job config the page POSTed, the response status and the job id. */
export async function runAndCapture(
  page: Page,
  button: RegExp | string = /^Run Selected/,
): Promise<{ config: Record<string, unknown>; status: number; jobId: string }> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (res) => res.request().method() === "POST" && res.url().endsWith("/api/v2/verifications"),
    ),
    page.getByRole("button", { name: button }).click(),
  ]);
  const { config } = response.request().postDataJSON() as { config: Record<string, unknown> };
  const { job_id } = (await response.json()) as { job_id: string };
  return { config, status: response.status(), jobId: job_id };
}

/** Waits until the server says the job has ended; returns its final status. */
export async function jobEnd(app: BrowserApp, jobId: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${app.url}/api/v2/verifications/${jobId}/progress`, {
      headers: { authorization: `Bearer ${app.server.token}` },
    });
    const { status } = (await res.json()) as { status: string };
    if (["completed", "failed", "cancelled"].includes(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${jobId} did not end`);
}

/**
 * From any tab: tab 3, the one finished question of the working benchmark answered by `answerer` and judged by
 * `judge` on the scripted server, run to completion; then its row's "View detailed trace" opened. Returns the
 * detail dialog.
 */
export async function runOneAndOpenDetail(app: BrowserApp, baseURL: string): Promise<Locator> {
  const { page } = app;
  await page.getByRole("tab", { name: "3. Benchmark" }).click();
  await page.getByText("Test Selection (1 available)").waitFor({ timeout: 20_000 });
  await scriptedModel(page, "Answering model 1", "answerer", baseURL);
  await scriptedModel(page, "Parsing model 1", "judge", baseURL);
  await page.getByRole("checkbox", { name: "Select all visible questions" }).check();
  await page.getByRole("button", { name: "Run Selected (1 × 1 = 1)" }).click();
  await page.getByRole("tabpanel").getByText("Verification completed: 1 of 1 done").waitFor({ timeout: 60_000 });
  await page
    .locator('.results-body tr[aria-rowindex="2"]')
    .getByRole("button", { name: "View detailed trace" })
    .click({ timeout: 20_000 });
  const dialog = page.getByRole("dialog", { name: "Detailed Answering Trace" });
  await dialog.getByRole("heading", { name: "Raw Question" }).waitFor();
  return dialog;
}
