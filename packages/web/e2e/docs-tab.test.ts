/**
 * Tab 4, Docs, in Chromium on the real server: the user guides bundled with the app render (each with its title,
 * fetched from the server), the page list marks the chosen page, links between pages and to headings navigate
 * inside the tab (and the back button follows), the guides' images load from the server, the search finds
 * headings, and axe-core finds no serious or critical violation in either theme.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { headingsOf } from "../src/docs-tab/headings.js";
import { DOC_PAGES } from "../src/docs-tab/pages.js";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";
import { REPO_DIR } from "./__fixtures__/built-app.js";

async function titleOf(slug: string): Promise<string> {
  const markdown = await readFile(join(REPO_DIR, "docs", `${slug}.md`), "utf8");
  const title = headingsOf(markdown)[0]?.text;
  if (title === undefined) throw new Error(`docs/${slug}.md has no heading`);
  return title;
}

describeInBrowser("tab 4: the docs in a real browser", () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await openBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  const article = () => app.page.getByRole("article", { name: "Documentation page" });
  const pageList = () => app.page.getByRole("navigation", { name: "Documentation pages" });

  test("#/docs opens the web app's guide, marked as the current page", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/docs`);
    await article()
      .getByRole("heading", { level: 2, name: await titleOf("web-app") })
      .waitFor();
    expect(await page.getByRole("tab", { name: "4. Docs" }).getAttribute("aria-selected")).toBe("true");
    expect(await pageList().locator('[aria-current="page"]').textContent()).toBe("The web app");
    await app.screenshot("docs-tab-web-app");
  });

  test("every page of the list renders with its first heading", async () => {
    const { page } = app;
    for (const entry of DOC_PAGES) {
      await pageList().getByRole("link", { name: entry.label, exact: true }).click();
      await article()
        .getByRole("heading", { level: 2, name: await titleOf(entry.slug) })
        .waitFor();
      expect(new URL(page.url()).hash).toBe(`#/docs/${entry.slug}`);
      expect(await pageList().locator('[aria-current="page"]').textContent()).toBe(entry.label);
    }
  });

  test("a link to another page navigates inside the tab, and the back button returns", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/docs/web-app`);
    await article().getByRole("link", { name: "Generating answer templates" }).first().click();
    await article()
      .getByRole("heading", { level: 2, name: await titleOf("generate-templates") })
      .waitFor();
    expect(new URL(page.url()).hash).toBe("#/docs/generate-templates");
    await page.goBack();
    await article()
      .getByRole("heading", { level: 2, name: await titleOf("web-app") })
      .waitFor();
  });

  test("a link to a heading scrolls to it", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/docs/server`);
    await article().getByRole("link", { name: "Jobs", exact: true }).first().click();
    expect(new URL(page.url()).hash).toBe("#/docs/server/jobs");
    await article().getByRole("heading", { level: 3, name: "Jobs", exact: true }).waitFor();
    const top = () =>
      page.evaluate<number>(`document.getElementById("doc-jobs").getBoundingClientRect().top`);
    await expect.poll(top).toBeLessThan(200);
    expect(await top()).toBeGreaterThanOrEqual(0);
  });

  test("the guide's images load from the server", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/docs/web-app`);
    const image = article().getByRole("img", { name: "The summary panel" });
    await image.scrollIntoViewIfNeeded();
    const width = () =>
      page.evaluate<number>(`document.querySelector('img[alt="The summary panel"]').naturalWidth`);
    await expect.poll(width).toBeGreaterThan(0);
    expect(await image.getAttribute("src")).toMatch(/^\/assets\/summary-[\w-]+\.png$/);
  });

  test("the search finds headings across pages and leads to them", async () => {
    const { page } = app;
    await page.getByRole("searchbox", { name: "Search the docs" }).fill("jobs");
    const results = page.getByRole("list", { name: "Search results" });
    await results.getByRole("link", { name: "Jobs", exact: true }).click();
    expect(new URL(page.url()).hash).toBe("#/docs/server/jobs");
    await article().getByRole("heading", { level: 3, name: "Jobs", exact: true }).waitFor();
    await app.screenshot("docs-tab-search");
  });

  test("axe-core finds no serious or critical violation, in either theme", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/docs/server`);
    await article().getByRole("table").first().waitFor();
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Dark theme" }).click();
    await app.screenshot("docs-tab-light");
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Dark theme" }).click();
  });

  test("no console error or page error happened in any of the steps", () => {
    expect(app.errors).toEqual([]);
  });
});
