/**
 * The built app's JavaScript: small (issue 16's budget: the JavaScript a first load fetches, ≤ 500 kB gzip; the
 * screens loaded on demand — editors, charts, the docs' Markdown parser — within a whole-app budget) and free of
 * the library's Node-only code (the app imports the library's types only; a value import would pull `node:` modules, which
 * Vite replaces by a browser stub, `__vite-browser-external`).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, test } from "vitest";
import { builtWebApp } from "./__fixtures__/built-app.js";

const INITIAL_JS_BUDGET_BYTES = 500 * 1024;
const WHOLE_APP_JS_BUDGET_BYTES = 2 * 1024 * 1024;

/** The scripts index.html loads: its module entry and the chunks it preloads (the entry's static imports). */
function initialScripts(indexHtml: string): Set<string> {
  const references = indexHtml.matchAll(
    /<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="[^"]*\/assets\/([^"]+\.js)"/g,
  );
  return new Set([...references].map((match) => match[1] as string));
}

const gzipTotal = (files: readonly { code: string }[]) =>
  files.reduce((total, { code }) => total + gzipSync(code).length, 0);

describe("the built web app", () => {
  let scripts: { name: string; code: string }[];
  let initial: Set<string>;
  beforeAll(async () => {
    const dist = await builtWebApp();
    initial = initialScripts(await readFile(join(dist, "index.html"), "utf8"));
    const assets = join(dist, "assets");
    const names = (await readdir(assets)).filter((name) => name.endsWith(".js"));
    scripts = await Promise.all(
      names.map(async (name) => ({ name, code: await readFile(join(assets, name), "utf8") })),
    );
  }, 120_000);

  test("holds no Node-only module (no node: import, no browser stub of one)", () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const { name, code } of scripts) {
      expect(code, name).not.toContain("__vite-browser-external");
      expect(code, name).not.toMatch(/from\s*["']node:|import\(\s*["']node:/);
      expect(code, name).not.toMatch(/better-sqlite3|quickjs-emscripten|pyodide/);
    }
  });

  test("the JavaScript of a first load stays within the budget (gzip)", () => {
    const first = scripts.filter(({ name }) => initial.has(name));
    expect(first.length).toBe(initial.size);
    expect(first.length).toBeGreaterThan(0);
    const gzipBytes = gzipTotal(first);
    console.info(
      `web app first-load JavaScript: ${(gzipBytes / 1024).toFixed(1)} kB gzip in ${first.length} file(s)`,
    );
    expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  test("all its JavaScript, on-demand screens included, stays within the whole-app budget (gzip)", () => {
    const gzipBytes = gzipTotal(scripts);
    console.info(`web app JavaScript: ${(gzipBytes / 1024).toFixed(1)} kB gzip in ${scripts.length} file(s)`);
    expect(gzipBytes).toBeLessThanOrEqual(WHOLE_APP_JS_BUDGET_BYTES);
  });
});
