/** The `benchmark/` folder of an analysis (spec 08 §10.4 step 3). */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Benchmark } from "../benchmark/index.js";
import { questionUrn, toPythonRubricDump } from "../model/index.js";
import { pythonJson } from "../python-repr/index.js";
import { displayString, type VerificationResult } from "../results/index.js";
import { safeName, sortedJson, templateFile } from "./render-case.js";

/**
 * Template source by question id: the benchmark's questions with a template, and each scenario node's
 * question under the URN its turn rows carry (quirk Q36: the original links them but never writes them).
 */
export function templateSources(benchmark: Benchmark): Map<string, string> {
  const sources = new Map<string, string>();
  for (const question of benchmark.getAllQuestions())
    if (benchmark.hasTemplate(question.id)) sources.set(question.id, question.answer_template);
  for (const scenario of benchmark.getScenarios())
    for (const node of Object.values(scenario.nodes)) {
      const template = node.question.answer_template;
      const id = questionUrn(node.question.question);
      if (template && !sources.has(id)) sources.set(id, template);
    }
  return sources;
}

const modelList = (names: Iterable<string>) => {
  const sorted = [...new Set(names)].sort();
  return sorted.length === 0 ? "-" : sorted.join(", ");
};

/** Writes `benchmark/`: questions.jsonl, templates/, rubric.json, metadata.md. */
export async function writeBenchmarkFolder(
  out: string,
  benchmark: Benchmark,
  templates: ReadonlyMap<string, string>,
  rows: readonly VerificationResult[],
): Promise<void> {
  const folder = join(out, "benchmark");
  await mkdir(join(folder, "templates"), { recursive: true });
  const questions = benchmark
    .getAllQuestions()
    .map(
      (q) =>
        `${pythonJson({ id: q.id, keywords: q.keywords, raw_answer: q.raw_answer, text: q.question })}\n`,
    );
  await writeFile(join(folder, "questions.jsonl"), questions.join(""));
  for (const [id, source] of templates) await writeFile(join(out, templateFile(id)), source);
  const rubric = benchmark.getGlobalRubric();
  await writeFile(
    join(folder, "rubric.json"),
    `${sortedJson(rubric === null ? {} : toPythonRubricDump(rubric))}\n`,
  );
  const metadata = [
    `# Benchmark: ${benchmark.name}`,
    "",
    "## Run",
    "",
    `- Answering models: ${modelList(rows.map((row) => displayString(row.metadata.answering)))}`,
    `- Parsing models: ${modelList(rows.map((row) => displayString(row.metadata.parsing)))}`,
    `- Results: ${rows.length}`,
    "",
  ];
  await writeFile(join(folder, "metadata.md"), metadata.join("\n"));
}

export { safeName };
