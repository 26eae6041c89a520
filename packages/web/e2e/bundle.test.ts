/**
 * The built app's JavaScript: small (issue 16's budget, initial JS ≤ 500 kB gzip) and free of the library's
 * Node-only code (the app imports the library's types only; a value import would pull `node:` modules, which
 * Vite replaces by a browser stub, `__vite-browser-external`).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, test } from "vitest";
import { builtWebApp } from "./__fixtures__/built-app.js";

const INITIAL_JS_BUDGET_BYTES = 500 * 1024;

describe("the built web app", () => {
  let scripts: { name: string; code: string }[];
  beforeAll(async () => {
    const assets = join(await builtWebApp(), "assets");
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

  test("its JavaScript stays within the budget (gzip)", () => {
    const gzipBytes = scripts.reduce((total, { code }) => total + gzipSync(code).length, 0);
    console.info(`web app JavaScript: ${(gzipBytes / 1024).toFixed(1)} kB gzip in ${scripts.length} file(s)`);
    expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });
});
