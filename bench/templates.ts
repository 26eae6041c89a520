/**
 * Template verification throughput, per runtime, and Pyodide's cold start.
 *
 *   npm run bench:templates
 *   npm run bench:templates -- --seconds 3
 *
 * Each runtime verifies the same kind of parsed answer (hand-written for this benchmark) over and over for a
 * fixed time, one evaluation after another (awaited), and prints verifications per second. The cold start is
 * measured in a fresh child process (on the built library when it exists): the time from nothing to the first
 * verified answer of a Python template.
 * Targets: declarative ≥ 100,000/s; sandboxed (QuickJS, Pyodide) ≥ 5,000/s; cold start ≤ 3 s.
 *
 * Isolation (issue 12): Pyodide's throughput with each reset mode of the sandbox (`never`: one shared state;
 * `on-new-code`: the per-checkpoint default, which restores the post-setup state whenever another template's
 * code runs; `every-call`: strict), with one template and with two templates interleaved (every call switches
 * template, the default mode's worst case); the cost of one state restore; and the start of a second
 * checkpoint's sandbox process (from the memory snapshot the first one made).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import type { AnswerTemplate } from "../packages/karenina/src/index.js";

const PYTHON_TEMPLATE = `from pydantic import Field
from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
    target: str = Field(description="The protein target")
    dose_mg: int = Field(description="Dose in mg")
    approved: bool = Field(description="Whether it is approved")

    def ground_truth(self):
        self.correct = {"target": "BCL2", "dose_mg": 400, "approved": True}

    def verify(self) -> bool:
        return (
            self.target.strip().upper() == self.correct["target"]
            and self.dose_mg == self.correct["dose_mg"]
            and self.approved == self.correct["approved"]
        )
`;

const DECLARATIVE_SPEC = {
  class_name: "Answer",
  verify_strategy: null,
  fields: [
    {
      name: "target",
      type: "str",
      description: "The protein target",
      extraction_hint: null,
      ground_truth: "BCL2",
      literal_values: null,
      verify_with: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
      weight: 1.0,
      is_trace: false,
    },
    {
      name: "dose_mg",
      type: "int",
      description: "Dose in mg",
      extraction_hint: null,
      ground_truth: 400,
      literal_values: null,
      verify_with: { type: "NumericExact" },
      weight: 1.0,
      is_trace: false,
    },
    {
      name: "approved",
      type: "bool",
      description: "Whether it is approved",
      extraction_hint: null,
      ground_truth: true,
      literal_values: null,
      verify_with: { type: "BooleanMatch" },
      weight: 1.0,
      is_trace: false,
    },
  ],
};

// Hand-written parsed answer, as a judge might return it; not produced by any model.
const PARSED = { target: " bcl2 ", dose_mg: "400", approved: "yes" };

/**
 * Verifications per second, either one awaited after another (`inFlight` 1) or with `inFlight` evaluations
 * pending at once, as the pipeline runs them.
 */
async function throughput(template: AnswerTemplate, seconds: number, inFlight: number): Promise<number> {
  const first = await template.evaluate(PARSED);
  if (!first.verify) throw new Error(`benchmark template did not verify: ${first.error ?? "false"}`);
  const deadline = performance.now() + seconds * 1000;
  let count = 0;
  const started = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < 10; i++) {
      await Promise.all(Array.from({ length: inFlight }, () => template.evaluate(PARSED)));
      count += inFlight;
    }
  }
  return count / ((performance.now() - started) / 1000);
}

/** The built library when there is one (what users run), else the sources. */
const BUILT = new URL("../packages/karenina/dist/index.js", import.meta.url);

async function coldStart(): Promise<void> {
  const started = performance.now();
  const { loadTemplate } = (await import(
    existsSync(BUILT) ? BUILT.href : "../packages/karenina/src/index.js"
  )) as typeof import("../packages/karenina/src/index.js");
  const template = await loadTemplate(PYTHON_TEMPLATE, "Python");
  await template.evaluate(PARSED);
  console.log(JSON.stringify({ ms: performance.now() - started }));
}

/** A second template, so that interleaved evaluations switch templates at every call. */
const OTHER_TEMPLATE = PYTHON_TEMPLATE.replace(
  "Whether it is approved",
  "Whether it is approved by a regulator",
);

/** Rows of the isolation figures: label, value, unit. */
async function isolationRows(seconds: number): Promise<[string, number, string][]> {
  const { createTemplateSandbox, loadTemplate, PythonSandbox } = await import(
    "../packages/karenina/src/index.js"
  );
  const rows: [string, number, string][] = [];
  for (const reset of ["never", "on-new-code", "every-call"] as const) {
    const sandbox = PythonSandbox.create({ reset });
    const one = await loadTemplate(PYTHON_TEMPLATE, "Python", { pythonSandbox: sandbox });
    const other = await loadTemplate(OTHER_TEMPLATE, "Python", { pythonSandbox: sandbox });
    rows.push([`Pyodide reset ${reset}, one template`, await throughput(one, seconds, 1), "verifications/s"]);
    rows.push([
      `Pyodide reset ${reset}, two interleaved`,
      await interleaved(one, other, seconds),
      "verifications/s",
    ]);
    await sandbox.close();
  }
  rows.push(["one state restore (trivial call, every-call - never)", await restoreCost(PythonSandbox), "ms"]);
  const started = performance.now();
  const second = createTemplateSandbox();
  await (await loadTemplate(PYTHON_TEMPLATE, "Python", { pythonSandbox: second })).evaluate(PARSED);
  rows.push(["a new checkpoint's sandbox, to its first verdict", performance.now() - started, "ms"]);
  await second.close();
  return rows;
}

/** Verifications per second when two templates take turns, one evaluation at a time. */
async function interleaved(one: AnswerTemplate, other: AnswerTemplate, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let count = 0;
  while (performance.now() < deadline) {
    await one.evaluate(PARSED);
    await other.evaluate(PARSED);
    count += 2;
  }
  return count / ((performance.now() - started) / 1000);
}

/** Milliseconds a state restore adds to a call: trivial calls with and without one. */
async function restoreCost(
  Sandbox: typeof import("../packages/karenina/src/index.js").PythonSandbox,
): Promise<number> {
  const perCall = async (reset: "never" | "every-call"): Promise<number> => {
    const sandbox = Sandbox.create({ reset });
    await sandbox.run({ code: "", entry: "1" });
    const started = performance.now();
    for (let i = 0; i < 200; i++) await sandbox.run({ code: "", entry: "1" });
    const ms = (performance.now() - started) / 200;
    await sandbox.close();
    return ms;
  };
  return (await perCall("every-call")) - (await perCall("never"));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: "string", default: "2" }, "cold-start": { type: "boolean" } },
  });
  if (values["cold-start"]) return coldStart();
  const seconds = Number(values.seconds);
  const script = fileURLToPath(import.meta.url);
  const child = execFileSync(process.execPath, [...process.execArgv, script, "--cold-start"], {
    encoding: "utf8",
  });
  const cold = JSON.parse(child.trim().split("\n").at(-1) ?? "{}") as { ms: number };

  const { defineAnswerTemplate, loadDeclarativeTemplate, loadTemplate, TemplateSpecSchema } = await import(
    "../packages/karenina/src/index.js"
  );
  const declarative = loadDeclarativeTemplate(TemplateSpecSchema.parse(DECLARATIVE_SPEC));
  const typescript = await defineAnswerTemplate({
    fields: z.object({
      target: z.string().describe("The protein target"),
      dose_mg: z.int().describe("Dose in mg"),
      approved: z.boolean().describe("Whether it is approved"),
    }),
    groundTruth: { target: "BCL2", dose_mg: 400, approved: true },
    verify: (answer: Record<string, unknown>, correct: Record<string, unknown>) =>
      String(answer.target).trim().toUpperCase() === correct.target &&
      answer.dose_mg === correct.dose_mg &&
      answer.approved === correct.approved,
  });
  const quickjs = await loadTemplate(typescript.source, "JavaScript");
  const python = await loadTemplate(PYTHON_TEMPLATE, "Python");

  const isolation = await isolationRows(seconds);
  const rows: [string, number, number][] = [
    ["declarative, one at a time", await throughput(declarative, seconds, 1), 100_000],
    ["QuickJS, one at a time", await throughput(quickjs, seconds, 1), 5_000],
    ["QuickJS, 64 in flight", await throughput(quickjs, seconds, 64), 5_000],
    ["Pyodide, one at a time", await throughput(python, seconds, 1), 5_000],
    ["Pyodide, 64 in flight", await throughput(python, seconds, 64), 5_000],
  ];
  for (const [label, perSecond, target] of rows) {
    console.log(
      `${label.padEnd(34)} ${Math.round(perSecond).toLocaleString("en").padStart(10)} verifications/s   target ≥ ${target.toLocaleString("en")} (${(perSecond / target).toFixed(2)}x)`,
    );
  }
  for (const [label, value, unit] of isolation) {
    console.log(`${label.padEnd(50)} ${value.toFixed(unit === "ms" ? 1 : 0).padStart(10)} ${unit}`);
  }
  console.log(
    `${"Pyodide cold start (first verdict)".padEnd(34)} ${cold.ms.toFixed(0).padStart(10)} ms                 target ≤ 3,000 ms (${existsSync(BUILT) ? "built library" : "sources via tsx"})`,
  );
  process.exit(0);
}

await main();
