import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { BrowserApp } from "./browser.js";

// Steps of the curator's browser tests (curator.test.ts, curator-flows.test.ts).

/** A JSON call to the app's server with its token; throws with the answer when it is not 2xx. */
export async function api<T>(
  app: BrowserApp,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`${app.url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      authorization: `Bearer ${app.server.token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The fields of a stored question the tests read. */
export interface StoredQuestion {
  id: string;
  question: string;
  answer_template: string;
  has_template: boolean;
  finished: boolean;
}

/** The stored curation of benchmark `name` (`GET …/curation`). */
export const curationOf = (app: BrowserApp, name: string) =>
  api<{ questions: StoredQuestion[]; global_rubric: Record<string, unknown> | null }>(
    app,
    `/api/v2/benchmarks/${encodeURIComponent(name)}/curation`,
  );

/** A test id's text. */
export const text = (page: Page, testId: string) => page.getByTestId(testId).textContent();

/** The question's template code editor (CodeMirror), switched to from the form editor when needed. */
export async function codeEditor(page: Page): Promise<Locator> {
  const template = page.locator(".curator-template");
  const editor = template.getByLabel("Answer template code (Python)");
  const codeButton = template.getByRole("button", { name: "Code editor" });
  // The editor opens on the form for a VerifiedField template once the template is read, and a curation
  // refreshed from the server remounts it: choose the code view until it is the one shown.
  await expect
    .poll(
      async () => {
        if (await editor.isVisible()) return true;
        if ((await codeButton.isVisible()) && (await codeButton.getAttribute("aria-pressed")) !== "true")
          await codeButton.click();
        return false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return editor;
}

/** Replaces the text of the question's template in the code editor by typing. */
export async function typeTemplate(page: Page, code: string): Promise<void> {
  const editor = await codeEditor(page);
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(code);
}

/** Makes stored benchmark `name` the curator's, as "Load from Database" does. */
export async function loadInCurator(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: "Load from Database" }).click();
  const dialog = page.getByRole("dialog", { name: "Load from Database" });
  await dialog.getByRole("button", { name: `Load Benchmark ${name}` }).click();
  await dialog.waitFor({ state: "detached" });
}
