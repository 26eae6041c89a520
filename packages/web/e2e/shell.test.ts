/**
 * B1 (spec 07 §4): the shell served by `karenina serve`, in Chromium: loads without console errors, tabs switch
 * by click and keyboard, hash routes deep-link and follow the back button, the theme toggles and is remembered,
 * the configuration dialog traps and restores focus, the previous tab comes back from IndexedDB after a reload,
 * and axe-core finds no serious or critical violation in either theme.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type BrowserApp, describeInBrowser, openBrowserApp } from "./__fixtures__/browser.js";

async function selectedTab(page: Page): Promise<string | null> {
  return page.locator('[role="tab"][aria-selected="true"]').textContent();
}

/** The accessible name (or text) of the focused element. */
async function focusedText(page: Page): Promise<string> {
  return page.evaluate<string>(
    `(document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "").trim()`,
  );
}

async function focusedRole(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(`document.activeElement?.getAttribute("role") ?? null`);
}

async function isDark(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`document.documentElement.classList.contains("dark")`);
}

async function pageIsInert(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`document.getElementById("app").hasAttribute("inert")`);
}

/** The shell slice as stored in IndexedDB (what a reload restores). */
async function storedShell(page: Page): Promise<unknown> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open("karenina-session");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const read = open.result.transaction("slices").objectStore("slices").get("shell");
      read.onsuccess = () => { resolve(read.result); open.result.close(); };
      read.onerror = () => reject(read.error);
    };
  })`);
}

describeInBrowser("B1: the app shell in a real browser", () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await openBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  test("loads from the server in the dark theme, on the first tab, without console errors", async () => {
    const { page } = app;
    await page.goto(`${app.url}/`);
    await page.getByRole("heading", { name: "karenina", level: 1 }).waitFor();
    expect(await page.title()).toBe("karenina");
    expect(await isDark(page)).toBe(true);
    expect(await selectedTab(page)).toBe("1. Template Generation");
    expect(new URL(page.url()).hash).toBe("#/generate");
    const heading = page.getByRole("tabpanel").getByRole("heading", { level: 2 }).first();
    expect(await heading.textContent()).toBe("1. Question Extraction");
    await app.screenshot("b1-shell-dark");
    expect(app.errors).toEqual([]);
  });

  test("tabs switch by click, and the hash and the back button follow", async () => {
    const { page } = app;
    await page.getByRole("tab", { name: "3. Benchmark" }).click();
    expect(await selectedTab(page)).toBe("3. Benchmark");
    expect(new URL(page.url()).hash).toBe("#/benchmark");
    const headings = page.getByRole("tabpanel").getByRole("heading", { level: 2 });
    expect(await headings.first().textContent()).toBe("3. Benchmark");
    await app.screenshot("b1-benchmark-tab");
    await page.getByRole("tab", { name: "4. Docs" }).click();
    await page.goBack();
    await page.waitForFunction(`location.hash === "#/benchmark"`);
    expect(await selectedTab(page)).toBe("3. Benchmark");
  });

  test("tabs switch by keyboard: arrows wrap, Home and End jump, focus follows", async () => {
    const { page } = app;
    await page.getByRole("tab", { name: "3. Benchmark" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await selectedTab(page)).toBe("4. Docs");
    expect(await focusedText(page)).toBe("4. Docs");
    await page.keyboard.press("ArrowRight");
    expect(await selectedTab(page)).toBe("1. Template Generation");
    await page.keyboard.press("ArrowLeft");
    expect(await selectedTab(page)).toBe("4. Docs");
    await page.keyboard.press("Home");
    expect(await selectedTab(page)).toBe("1. Template Generation");
    await page.keyboard.press("End");
    expect(await selectedTab(page)).toBe("4. Docs");
    expect(new URL(page.url()).hash).toBe("#/docs");
    // One tab stop: Tab leaves the tab list for the panel.
    await page.keyboard.press("Tab");
    expect(await focusedRole(page)).toBe("tabpanel");
  });

  test("a hash route deep-links to its tab", async () => {
    const { page } = app;
    await page.goto(`${app.url}/#/curate`);
    await page.getByRole("heading", { name: "2. Template Curator" }).waitFor();
    expect(await selectedTab(page)).toBe("2. Template Curator");
  });

  test("the previous tab is restored from IndexedDB after a reload without a hash", async () => {
    const { page } = app;
    await page.getByRole("tab", { name: "3. Benchmark" }).click();
    await expect
      .poll(() => storedShell(page))
      .toEqual({ version: 1, value: { activeTab: "benchmark", configOpen: false } });
    await page.goto(`${app.url}/`);
    await page.getByRole("heading", { name: "3. Benchmark" }).waitFor();
    expect(await selectedTab(page)).toBe("3. Benchmark");
    expect(new URL(page.url()).hash).toBe("#/benchmark");
  });

  test("the theme toggles, and the choice is remembered after a reload", async () => {
    const { page } = app;
    const toggle = page.getByRole("button", { name: "Dark theme" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    await toggle.click();
    expect(await isDark(page)).toBe(false);
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await app.screenshot("b1-shell-light");
    await page.reload();
    await page.getByRole("heading", { name: "karenina", level: 1 }).waitFor();
    expect(await isDark(page)).toBe(false);
    await toggle.click();
    expect(await isDark(page)).toBe(true);
    await page.reload();
    await page.getByRole("heading", { name: "karenina", level: 1 }).waitFor();
    expect(await isDark(page)).toBe(true);
  });

  test("the configuration dialog traps focus, closes on Escape and gives focus back", async () => {
    const { page } = app;
    const gear = page.getByRole("button", { name: "Configuration" });
    await gear.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Configuration" });
    await dialog.waitFor();
    expect(await focusedText(page)).toBe("Close configuration");
    await app.screenshot("b1-configuration-dialog");
    await page.keyboard.press("Shift+Tab");
    expect(await focusedText(page)).toBe("Done");
    await page.keyboard.press("Tab");
    expect(await focusedText(page)).toBe("Close configuration");
    await page.keyboard.press("Shift+Tab");
    expect(await focusedText(page)).toBe("Done");
    // The page behind is inert while the dialog is open.
    expect(await pageIsInert(page)).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await focusedText(page)).toBe("Configuration");
    expect(await pageIsInert(page)).toBe(false);
  });

  test("axe-core finds no serious or critical violation on the shell, in either theme, nor in the dialog", async () => {
    const { page } = app;
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Dark theme" }).click();
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Configuration" }).click();
    await page.getByRole("dialog").waitFor();
    expect(await app.seriousAccessibilityViolations()).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Dark theme" }).click();
  });

  test("no console error or page error happened in any of the steps", () => {
    expect(app.errors).toEqual([]);
  });
});
