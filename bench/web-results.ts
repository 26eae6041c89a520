/**
 * The results table of the web app (issue 16) with 100,000 stored results, in headless Chromium against the
 * real `karenina serve` (the compiled CLI: run `npm run build` first, or `--source` to run the TypeScript).
 *
 *   npm run bench:web                      # 100,000 results
 *   npm run bench:web -- --results 20000 --source
 *
 * 1. Stores `--results` full results in one run of a SQLite file (bench/stored-results.ts).
 * 2. Time to the first rendered results page (navigation start → first row in the DOM, timed in the page by a
 *    MutationObserver), median of 3: cold (a new server process each time: its table cache empty) and warm
 *    (the same server, a fresh browser context each time).
 * 3. Frames per second while the table scrolls 10,000 rows programmatically over about 5 s (one scroll step
 *    per requestAnimationFrame callback; rows arrive as the pages load).
 * 4. Bundle size of the built app (packages/web/dist: every JS and CSS file, gzip level 9) and the first load of
 *    the page from `karenina serve` (navigation start → load event, median of 3).
 * Targets (issue 16, spec 07 §3): first page ≤ 1 s; scrolling ≥ 50 fps; initial JS ≤ 500 kB gzip. Prints
 * figures and ratios only; nothing is asserted.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { type Browser, chromium } from "playwright-core";
import { storeResults } from "./stored-results.js";
import { CHROMIUM, CHROMIUM_FLAGS, median, ms, type Served, serve as serveCli, stop } from "./web-bench.js";

const { values } = parseArgs({
  options: {
    results: { type: "string", default: "100000" },
    source: { type: "boolean", default: false },
  },
});
const RESULTS = Number(values.results);
const WEB_DIST = fileURLToPath(new URL("../packages/web/dist/", import.meta.url));
const ROW_HEIGHT = 36;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const serve = (dir: string) => serveCli(dir, values.source);

// Records in the page when the first body row with a cell appears (ms since navigation start).
const FIRST_ROW_PROBE = `
  new MutationObserver((_, observer) => {
    if (document.querySelector(".results-body td.results-col-question") !== null) {
      window.__firstRow = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** Navigation start → first rendered row of the run, in a fresh browser context. */
async function firstPage(browser: Browser, url: string, runId: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(FIRST_ROW_PROBE);
    await page.goto(`${url}/#/benchmark?run=${runId}`);
    await page.waitForFunction("window.__firstRow !== undefined", undefined, { timeout: 120_000 });
    return await page.evaluate<number>("window.__firstRow");
  } finally {
    await context.close();
  }
}

/** Frames per second while the table scrolls `rows` rows over about `seconds`. */
async function scrollFps(browser: Browser, url: string, runId: string, rows: number, seconds: number) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/#/benchmark?run=${runId}`);
    await page.locator(".results-body td.results-col-question").first().waitFor({ timeout: 120_000 });
    return await page.evaluate<{ frames: number; seconds: number; longest: number; rendered: string }>(`
      new Promise((resolve) => {
        const scroller = document.querySelector(".results-table");
        const distance = ${rows * ROW_HEIGHT};
        const duration = ${seconds * 1000};
        let frames = 0, longest = 0, start = null, last = null;
        const step = (now) => {
          if (start === null) { start = now; last = now; }
          longest = Math.max(longest, now - last);
          last = now;
          frames += 1;
          const progress = Math.min(1, (now - start) / duration);
          scroller.scrollTop = progress * distance;
          if (progress < 1) requestAnimationFrame(step);
          else setTimeout(() => resolve({
            frames, seconds: (now - start) / 1000, longest,
            rendered: [...document.querySelectorAll(".results-body tr")].at(-1)?.getAttribute("aria-rowindex") ?? "",
          }), 1000);
        };
        requestAnimationFrame(step);
      })`);
  } finally {
    await context.close();
  }
}

/** Navigation start → load event of the page with no run chosen. */
async function pageLoad(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${url}/`, { waitUntil: "load" });
    return await page.evaluate<number>(`performance.getEntriesByType("navigation")[0].loadEventEnd`);
  } finally {
    await context.close();
  }
}

function bundleSizes() {
  const assets = join(WEB_DIST, "assets");
  const html = readFileSync(join(WEB_DIST, "index.html"), "utf8");
  const sizes = { js: 0, css: 0, jsGzip: 0, cssGzip: 0, initialJsGzip: 0 };
  for (const name of readdirSync(assets)) {
    const kind = name.endsWith(".js") ? "js" : name.endsWith(".css") ? "css" : null;
    if (kind === null) continue;
    const bytes = readFileSync(join(assets, name));
    const gzip = gzipSync(bytes, { level: 9 }).length;
    sizes[kind] += bytes.length;
    sizes[`${kind}Gzip`] += gzip;
    if (kind === "js" && html.includes(name)) sizes.initialJsGzip += gzip;
  }
  return sizes;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "karenina-bench-web-"));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  let server: Served | null = null;
  try {
    const runId = await storeResults(join(dir, "karenina.db"), RESULTS);
    console.log(`server: ${values.source ? "TypeScript sources (tsx)" : "compiled CLI (bin/karenina.js)"}`);
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      server = await serve(dir);
      cold.push(await firstPage(browser, server.url, runId));
      if (i < 2) {
        await stop(server);
        server = null;
      }
    }
    const served = server as Served;
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) warm.push(await firstPage(browser, served.url, runId));
    console.log(
      `first results page of ${RESULTS} rows (navigation start → first row), median of 3: cold ${ms(median(cold))} ` +
        `[${cold.map(ms).join(", ")}] (/ target 1 s = ${(median(cold) / 1000).toFixed(2)}), warm ${ms(median(warm))} ` +
        `[${warm.map(ms).join(", ")}] (/ target 1 s = ${(median(warm) / 1000).toFixed(2)})`,
    );
    const scroll = await scrollFps(browser, served.url, runId, 10_000, 5);
    const fps = scroll.frames / scroll.seconds;
    console.log(
      `scrolling 10,000 rows over ${scroll.seconds.toFixed(1)} s: ${scroll.frames} frames, ${fps.toFixed(1)} fps ` +
        `(/ target 50 = ${(fps / 50).toFixed(2)}), longest frame ${ms(scroll.longest)}, last row index after ${scroll.rendered}`,
    );
    const sizes = bundleSizes();
    console.log(
      `bundle (packages/web/dist): JS ${kb(sizes.js)} (${kb(sizes.jsGzip)} gzip), CSS ${kb(sizes.css)} ` +
        `(${kb(sizes.cssGzip)} gzip); initial JS ${kb(sizes.initialJsGzip)} gzip (/ target 500 kB = ${(sizes.initialJsGzip / 1024 / 500).toFixed(2)})`,
    );
    const loads: number[] = [];
    for (let i = 0; i < 3; i++) loads.push(await pageLoad(browser, served.url));
    console.log(
      `first load of the page from karenina serve (navigation start → load event), median of 3: ${ms(median(loads))} [${loads.map(ms).join(", ")}]`,
    );
  } finally {
    await browser.close();
    if (server !== null) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
