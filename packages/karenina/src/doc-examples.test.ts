/**
 * Runs every `@example` of the library's TSDoc, so examples cannot rot. An example line `expr; // value`
 * (or `expr;` followed by a line `// value`) asserts that `expr` deep-equals `value`. Examples run with the
 * library's public exports in scope, in a temporary directory holding the bundled example checkpoint as
 * `drug-targets.jsonld`.
 */
import { copyFile, cp, mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { BUNDLED_RECORDINGS } from "./cli/bundled-example.js";
import * as cli from "./cli/index.js";
import * as library from "./index.js";
import * as sandbox from "./sandbox/index.js";

const SOURCE_DIR = fileURLToPath(new URL(".", import.meta.url));

interface Example {
  file: string;
  line: number;
  code: string;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => !path.includes("__fixtures__") && !path.includes("test-support"));
}

function examplesIn(file: string, text: string): Example[] {
  const examples: Example[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (!/^\s*\*\s*@example\s*$/.test(line)) return;
    const body: string[] = [];
    for (let i = index + 1; i < lines.length; i++) {
      const current = lines[i] ?? "";
      if (/^\s*\*\/|^\s*\*\s*@\w+/.test(current)) break;
      body.push(current.replace(/^\s*\* ?/, ""));
    }
    examples.push({ file, line: index + 1, code: body.join("\n") });
  });
  return examples;
}

function literal(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: new Function(`return (${text});`)() };
  } catch {
    return { ok: false };
  }
}

const NOT_AN_EXPRESSION = /^\s*(const|let|var|import|export|return|if|for|while)\b/;

/** Turns `expr; // value` lines into assertions; other lines stay as they are. */
export function withAssertions(code: string): string {
  const lines = code.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const inline = /^(.*?);\s*\/\/\s*(.+)$/.exec(line);
    const next = /^\s*\/\/\s*(.+)$/.exec(lines[i + 1] ?? "");
    const statement =
      inline?.[1] ?? (next && line.trim().endsWith(";") ? line.trim().slice(0, -1) : undefined);
    const expected = inline
      ? literal(inline[2] ?? "")
      : next
        ? literal(next[1] ?? "")
        : { ok: false as const };
    if (statement !== undefined && expected.ok && !NOT_AN_EXPRESSION.test(statement)) {
      out.push(`__expect(${statement}).toEqual(${inline ? inline[2] : next?.[1]});`);
      if (!inline) i++;
    } else {
      out.push(line);
    }
  }
  return out.join("\n");
}

const scope: Record<string, unknown> = { ...sandbox, ...library, ...cli, z };
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;

/** The README's TypeScript blocks, with their import lines dropped (the exports are in scope). */
function readmeExamples(file: string, text: string): Example[] {
  const examples: Example[] = [];
  for (const match of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const line = text.slice(0, match.index).split("\n").length;
    const code = (match[1] ?? "").replace(/^import .*$/gm, "");
    examples.push({ file, line, code });
  }
  return examples;
}

const README = fileURLToPath(new URL("../../../README.md", import.meta.url));
const files = await sourceFiles(SOURCE_DIR);
const examples = [
  ...(await Promise.all(files.map(async (f) => examplesIn(f, await readFile(f, "utf8"))))).flat(),
  ...readmeExamples(README, await readFile(README, "utf8")),
];

describe("TSDoc examples run and hold", () => {
  let home = "";
  let workDir = "";
  beforeAll(async () => {
    home = process.cwd();
    workDir = await mkdtemp(join(tmpdir(), "karenina-examples-"));
    await copyFile(cli.BUNDLED_EXAMPLE, join(workDir, "drug-targets.jsonld"));
    await cp(BUNDLED_RECORDINGS, join(workDir, "drug-targets.recordings"), { recursive: true });
    process.chdir(workDir);
  });
  afterAll(() => process.chdir(home));

  test("there are examples to run", () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  for (const example of examples) {
    test(`${relative(SOURCE_DIR, example.file)}:${example.line}`, async () => {
      const js = ts.transpileModule(withAssertions(example.code), {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      const names = Object.keys(scope);
      const run = new AsyncFunction("__expect", ...names, js);
      await run(expect, ...names.map((name) => scope[name]));
    });
  }
});
