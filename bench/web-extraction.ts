/**
 * The extraction wizard of the web app (tab 1, issue 17) on a 1,000-row spreadsheet, in headless Chromium
 * against the real `karenina serve` (the compiled CLI: run `npm run build` first, or `--source` to run the
 * TypeScript; either way the page is `packages/web/dist`, so build the web app first).
 *
 *   npm run bench:web-extraction
 *   npm run bench:web-extraction -- --rows 5000 --source
 *
 * For a CSV and an .xlsx file of `--rows` drug questions (header Id, Category, Question, Answer, Tags), each
 * try in a fresh browser context: choosing the file → "Ready to extract" (upload + preview + auto-mapping),
 * then clicking Extract Questions → "Successfully extracted N questions" (extraction), timed from Node (each
 * figure includes one Playwright round trip); median of 3. Target (spec 07 §3): extraction of 1,000 rows
 * < 5 s. Prints figures and ratios only; nothing is asserted.
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Browser, chromium } from "playwright-core";
import {
  delimitedFile,
  drugRows,
  type FilePayload,
  xlsxFile,
} from "../packages/web/e2e/__fixtures__/spreadsheets.js";
import { CHROMIUM, CHROMIUM_FLAGS, median, ms, type Served, serve, stop } from "./web-bench.js";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "1000" },
    source: { type: "boolean", default: false },
  },
});
const ROWS = Number(values.rows);
const TRIES = 3;
const TARGET_MS = 5000;

interface Timing {
  readonly uploadPreview: number;
  readonly extraction: number;
}

/** One try: a fresh context, the generate tab, the file chosen, then Extract. */
async function extractOnce(browser: Browser, url: string, file: FilePayload): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/#/generate`);
    await page.getByRole("heading", { name: "1. Question Extraction" }).waitFor({ timeout: 60_000 });
    const chosen = performance.now();
    await page
      .locator("#file-upload")
      .setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer });
    await page.getByText("Ready to extract").waitFor({ timeout: 120_000 });
    const previewed = performance.now();
    await page.getByRole("button", { name: "Extract Questions" }).click();
    await page
      .getByRole("tabpanel")
      .getByText(`Successfully extracted ${ROWS} questions`)
      .waitFor({ timeout: 120_000 });
    return { uploadPreview: previewed - chosen, extraction: performance.now() - previewed };
  } finally {
    await context.close();
  }
}

function report(label: string, timings: readonly Timing[]): void {
  const uploads = timings.map((t) => t.uploadPreview);
  const extractions = timings.map((t) => t.extraction);
  const totals = timings.map((t) => t.uploadPreview + t.extraction);
  const total = median(totals);
  console.log(
    `${label} (${ROWS} rows), median of ${TRIES}: choose file → extracted ${ms(total)} [${totals.map(ms).join(", ")}] ` +
      `(/ target 5 s = ${(total / TARGET_MS).toFixed(2)}); upload + preview ${ms(median(uploads))} ` +
      `[${uploads.map(ms).join(", ")}]; extraction ${ms(median(extractions))} [${extractions.map(ms).join(", ")}] ` +
      `(/ target 5 s = ${(median(extractions) / TARGET_MS).toFixed(2)})`,
  );
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "karenina-bench-extraction-"));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  let server: Served | null = null;
  try {
    const rows = drugRows(ROWS);
    const files: [string, FilePayload][] = [
      ["CSV", delimitedFile("bench.csv", rows)],
      ["XLSX", await xlsxFile("bench.xlsx", { Questions: rows })],
    ];
    server = await serve(dir, values.source);
    console.log(`server: ${values.source ? "TypeScript sources (tsx)" : "compiled CLI (bin/karenina.js)"}`);
    for (const [label, file] of files) {
      console.log(`${label} file: ${(file.buffer.length / 1024).toFixed(1)} kB`);
      const timings: Timing[] = [];
      for (let i = 0; i < TRIES; i++) timings.push(await extractOnce(browser, server.url, file));
      report(label, timings);
    }
  } finally {
    await browser.close();
    if (server !== null) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
