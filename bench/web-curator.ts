/**
 * The Template Curator (tab 2, issue 17) with 5,000 questions, in headless Chromium against the real server
 * (`startTestServer` over a SQLite file, serving the web app built from the current sources).
 *
 *   npx tsx bench/web-curator.ts                    # 5,000 questions
 *   npx tsx bench/web-curator.ts --questions 10000
 *
 * Measures, each as the median of several tries, from Node (so each figure includes one Playwright round trip):
 * 1. loading the benchmark into the curator (reload → "Questions Loaded" shows the count);
 * 2. navigator filter latency: typing a search (fill → "Showing 1 of N"), and switching the finished filter;
 * 3. switching questions with Next (click → the next question's text shown);
 * 4. the autosave request after flagging one question: its body size and how many questions it holds.
 * Prints figures only; nothing is asserted.
 */
import { mkdir } from "node:fs/promises";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { startTestServer } from "../packages/karenina/src/server/__fixtures__/test-server.js";
import { builtWebApp } from "../packages/web/e2e/__fixtures__/built-app.js";
import { integerQuestions } from "../packages/web/src/curator/__fixtures__/stored-questions.js";

const { values } = parseArgs({ options: { questions: { type: "string", default: "5000" } } });
const COUNT = Number(values.questions);
const CHROMIUM = process.env.KARENINA_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
];

const median = (samples: readonly number[]) =>
  [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

async function seed(url: string, token: string): Promise<void> {
  const call = async (path: string, method: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  await call("/api/v2/benchmarks", "POST", { name: "bench-curator" });
  const upsert = integerQuestions(COUNT, {
    idPrefix: "urn:karenina:bench:q",
    text: (n) => `Bench question ${n}: what is ${n} times three, as an integer?`,
    answer: (n) => n * 3,
  });
  await call("/api/v2/benchmarks/bench-curator/curation", "PATCH", { upsert });
}

const testId = (page: Page, id: string) => page.getByTestId(id);

async function main() {
  await mkdir(".tmp", { recursive: true });
  const server = await startTestServer({ webDir: await builtWebApp() });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    await seed(server.url, server.token);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${server.url}/#/curate`);
    await page.getByRole("heading", { name: "2. Template Curator" }).waitFor();
    await page.evaluate(`new Promise((resolve, reject) => {
      const open = indexedDB.open("karenina-session");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction("slices", "readwrite");
        tx.objectStore("slices").put({ version: 1, value: { benchmark: { db: null, name: "bench-curator" } } }, "working-benchmark");
        tx.oncomplete = () => { open.result.close(); resolve(undefined); };
        tx.onerror = () => reject(tx.error);
      };
    })`);
    const loads: number[] = [];
    for (let i = 0; i < 3; i++)
      loads.push(
        await timed(async () => {
          await page.reload();
          await page.waitForFunction(
            `document.querySelector('[data-testid="questions-loaded"]')?.textContent === "${COUNT}"`,
          );
        }),
      );
    console.log(
      `load ${COUNT} questions into the curator (reload → counters): median ${ms(median(loads))} [${loads.map(ms).join(", ")}]`,
    );

    const search = testId(page, "question-search");
    const searches: number[] = [];
    for (const n of [4321, 17, 2999, 4999, 1234]) {
      searches.push(
        await timed(async () => {
          await search.fill(`what is ${n} times`);
          await page.waitForFunction(
            `document.querySelector('[data-testid="navigator-count"]')?.textContent === "Showing 1 of ${COUNT} questions"`,
          );
        }),
      );
      await search.fill("");
      await page.waitForFunction(
        `document.querySelector('[data-testid="navigator-count"]')?.textContent === "Showing ${COUNT} of ${COUNT} questions"`,
      );
    }
    console.log(
      `navigator search (fill → "Showing 1 of ${COUNT}"): median ${ms(median(searches))} [${searches.map(ms).join(", ")}]`,
    );

    const filters: number[] = [];
    for (const [value, shown] of [
      ["unfinished", Math.floor(COUNT / 2)],
      ["all", COUNT],
      ["finished", Math.ceil(COUNT / 2)],
      ["all", COUNT],
    ] as const) {
      filters.push(
        await timed(async () => {
          await testId(page, "finished-filter").selectOption(value);
          await page.waitForFunction(
            `document.querySelector('[data-testid="navigator-count"]')?.textContent === "Showing ${shown} of ${COUNT} questions"`,
          );
        }),
      );
    }
    console.log(`finished filter switch: median ${ms(median(filters))} [${filters.map(ms).join(", ")}]`);

    await page.keyboard.press("Escape");
    const switches: number[] = [];
    for (let i = 0; i < 10; i++) {
      const before = await testId(page, "question-text").textContent();
      switches.push(
        await timed(async () => {
          await page.getByRole("button", { name: "Next", exact: true }).click();
          await page.waitForFunction(
            `document.querySelector('[data-testid="question-text"]')?.textContent !== ${JSON.stringify(before)}`,
          );
        }),
      );
    }
    console.log(
      `switch question with Next (click → text shown): median ${ms(median(switches))} [${switches.map(ms).join(", ")}]`,
    );

    const [request] = await Promise.all([
      page.waitForRequest((req) => req.method() === "PATCH" && req.url().includes("/curation")),
      page
        .locator(".curator-facts")
        .getByRole("button", { name: /^(Finished|Not Finished)$/ })
        .click(),
    ]);
    const body = request.postData() ?? "";
    const upserted = (JSON.parse(body) as { upsert: unknown[] }).upsert.length;
    console.log(
      `autosave after flagging one of ${COUNT} questions: ${body.length} bytes, ${upserted} question(s) in the PATCH`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
