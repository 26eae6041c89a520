/**
 * Attacks through `importGeneratedTemplates`: a file of templates is data from strangers, so each template
 * that never ends, eats memory or reaches for the host must fail to import (false) without stopping the
 * others, within a deadline, and leave no sandbox process behind once the benchmark is closed.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { sandboxProcessesOf, waitFor } from "../sandbox/python/__fixtures__/sandbox-processes.js";
import { CLASSIC_TEMPLATE } from "../test-support/classic-template.js";
import { Benchmark } from "./benchmark.js";

const withClassBody = (line: string) =>
  CLASSIC_TEMPLATE.replace("class Answer(BaseAnswer):\n", `class Answer(BaseAnswer):\n    ${line}\n`);

const HOSTILE: Record<string, string> = {
  endless: withClassBody("while True: pass"),
  memory: withClassBody('hog = b"x" * (2**30)'),
  reads_host_file: withClassBody('leaked = open("/etc/hostname").read()'),
  reaches_javascript: withClassBody("import js\n    leaked = js.process.env.PATH"),
  spawns_process: withClassBody('import subprocess\n    subprocess.run(["true"])'),
};

test("importGeneratedTemplates: hostile templates import as false, the honest one still imports, nothing left running", async () => {
  const bench = Benchmark.create({ name: "target" });
  const ids = [...Object.keys(HOSTILE), "honest"];
  for (const id of ids) bench.addQuestion(`${id}?`, "BCL2", { questionId: id });
  const file = join(await mkdtemp(join(tmpdir(), "karenina-import-")), "templates.json");
  await writeFile(file, JSON.stringify({ ...HOSTILE, honest: CLASSIC_TEMPLATE }, null, 2));

  try {
    const started = Date.now();
    const outcome = await bench.importGeneratedTemplates(file);
    // A deadline, not a performance bound: every hostile template is cut off by the sandbox's limits.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(outcome).toEqual({
      endless: false,
      memory: false,
      reads_host_file: false,
      reaches_javascript: false,
      spawns_process: false,
      honest: true,
    });
    expect(bench.getTemplate("honest")).toBe(CLASSIC_TEMPLATE);
    for (const id of Object.keys(HOSTILE)) expect(bench.hasTemplate(id)).toBe(false);
  } finally {
    await bench.close();
  }
  expect(await waitFor(() => sandboxProcessesOf(process.pid).length === 0, 10_000)).toBe(true);
}, 120_000);
