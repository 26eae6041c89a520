/**
 * The web app as built from its current sources, for browser tests: `vite build` into `.tmp/web-e2e/<hash>`, the
 * hash of every source file, so each run tests what is in the tree (never a stale `dist/`), and test files (and
 * runs) with unchanged sources share one build. Built into a scratch folder and renamed into place, so test files
 * building at once never see half a build.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const WEB_DIR = fileURLToPath(new URL("../../", import.meta.url));
export const REPO_DIR = fileURLToPath(new URL("../../../../", import.meta.url));
const VITE = join(REPO_DIR, "node_modules", "vite", "bin", "vite.js");
// `../../docs`: the Docs tab bundles the user guides and their images.
const SOURCES = ["src", "index.html", "vite.config.ts", "package.json", "../../docs"];

async function filesUnder(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const entries = await readdir(path, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return [path];
  const nested = await Promise.all(entries.map((entry) => filesUnder(join(path, entry.name))));
  return nested.flat();
}

async function sourcesHash(): Promise<string> {
  const files = (await Promise.all(SOURCES.map((source) => filesUnder(join(WEB_DIR, source))))).flat().sort();
  const hash = createHash("sha256");
  for (const file of files) {
    if (/\.test\.tsx?$/.test(file)) continue;
    hash.update(relative(WEB_DIR, file)).update("\0").update(await readFile(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/** The folder holding the built app (its `index.html` and `assets/`), building it first when needed. */
export async function builtWebApp(): Promise<string> {
  const outDir = join(REPO_DIR, ".tmp", "web-e2e", await sourcesHash());
  if (existsSync(join(outDir, "index.html"))) return outDir;
  const scratch = `${outDir}.building-${process.pid}-${Date.now()}`;
  await mkdir(scratch, { recursive: true });
  try {
    await run(process.execPath, [VITE, "build", "--outDir", scratch, "--emptyOutDir", "--logLevel", "warn"], {
      cwd: WEB_DIR,
      // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: "production" },
    });
    await rename(scratch, outDir).catch((error: unknown) => {
      // Another test file finished the same build first: use its copy.
      if (!existsSync(join(outDir, "index.html"))) throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return outDir;
}
