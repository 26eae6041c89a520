/**
 * Checkpoint load/save throughput at scale.
 *
 *   npm run bench:checkpoint               # 100,000 questions
 *   npm run bench:checkpoint -- --questions 20000
 *
 * Writes a synthetic checkpoint (every question has a Python template and a question-specific trait), then
 * measures, each in a fresh child process so memory figures do not mix:
 *   - raw: readFile + JSON.parse, and JSON.stringify(tree, null, 2) + writeFile, of the same file;
 *   - karenina: Benchmark.load and Benchmark.save;
 * and prints the times, the ratios karenina/raw and the peak RSS of each process.
 * Targets: load and save within 3× of raw parse and stringify; 100k questions loaded in under 1 GB RSS.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

type Phase = "raw-load" | "raw-save" | "load" | "save";

interface Measurement {
  ms: number;
  peakRssMb: number;
}

function template(i: number): string {
  return [
    "from pydantic import Field",
    "from karenina.schemas.entities import BaseAnswer",
    "",
    "",
    "class Answer(BaseAnswer):",
    `    target: str = Field(description="The protein target named for compound ${i}")`,
    '    confidence: int = Field(description="Confidence from 1 to 5")',
    "",
    "    def ground_truth(self):",
    `        self.correct = {"target": "GENE${i}"}`,
    "",
    "    def verify(self) -> bool:",
    '        return self.target.strip().upper() == self.correct["target"]',
    "",
  ].join("\n");
}

function syntheticCheckpoint(questions: number): unknown {
  const dataFeedElement = [];
  for (let i = 0; i < questions; i++) {
    const text = `Synthetic question ${i}: which protein does compound C-${i} inhibit?`;
    dataFeedElement.push({
      "@type": "DataFeedItem",
      "@id": `urn:uuid:question-synthetic-${i}`,
      dateCreated: "2026-01-01T10:00:00.000100",
      dateModified: "2026-01-01T10:00:00.000100",
      item: {
        "@type": "Question",
        text,
        acceptedAnswer: { "@type": "Answer", text: `GENE${i}` },
        hasPart: {
          "@type": "SoftwareSourceCode",
          name: `${text.slice(0, 30)}... Answer Template`,
          text: template(i),
          programmingLanguage: "Python",
        },
        rating: [
          {
            "@type": "Rating",
            name: "mentions_gene",
            description: "Mentions a gene symbol",
            bestRating: 1.0,
            worstRating: 0.0,
            additionalType: "karenina:QuestionSpecificRegexTrait",
            additionalProperty: [
              { "@type": "PropertyValue", name: "pattern", value: "\\bGENE\\d+\\b" },
              { "@type": "PropertyValue", name: "case_sensitive", value: true },
              { "@type": "PropertyValue", name: "invert_result", value: false },
              { "@type": "PropertyValue", name: "higher_is_better", value: true },
            ],
          },
        ],
        additionalProperty: [
          { "@type": "PropertyValue", name: "finished", value: true },
          { "@type": "PropertyValue", name: "author", value: '{"name": "Bench Script"}' },
        ],
        keywords: ["synthetic", `batch-${i % 100}`],
      },
    });
  }
  return {
    "@context": { "@version": 1.1, "@vocab": "https://schema.org/" },
    "@type": "DataFeed",
    "@id": "urn:uuid:karenina-checkpoint-1767261600.5",
    name: "synthetic",
    version: "1.0.0",
    dateCreated: "2026-01-01T10:00:00",
    dateModified: "2026-01-01T10:00:00",
    dataFeedElement,
    additionalProperty: [
      { "@type": "PropertyValue", name: "benchmark_format_version", value: "3.0.0-jsonld" },
    ],
  };
}

async function runPhase(phase: Phase, file: string, out: string): Promise<Measurement> {
  const started = performance.now();
  switch (phase) {
    case "raw-load":
      JSON.parse(readFileSync(file, "utf8"));
      break;
    case "raw-save": {
      const tree = JSON.parse(readFileSync(file, "utf8"));
      const t0 = performance.now();
      writeFileSync(out, JSON.stringify(tree, null, 2));
      return { ms: performance.now() - t0, peakRssMb: process.resourceUsage().maxRSS / 1024 };
    }
    case "load": {
      const { Benchmark } = await import("../packages/karenina/src/index.js");
      // Loading the library's modules is start-up, not checkpoint loading: time only the load itself.
      const t0 = performance.now();
      await Benchmark.load(file);
      return { ms: performance.now() - t0, peakRssMb: process.resourceUsage().maxRSS / 1024 };
    }
    case "save": {
      const { Benchmark } = await import("../packages/karenina/src/index.js");
      const bench = await Benchmark.load(file);
      const t0 = performance.now();
      await bench.save(out);
      return { ms: performance.now() - t0, peakRssMb: process.resourceUsage().maxRSS / 1024 };
    }
  }
  return { ms: performance.now() - started, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

function measureInChild(phase: Phase, file: string, out: string): Measurement {
  const script = fileURLToPath(import.meta.url);
  const stdout = execFileSync(
    process.execPath,
    [...process.execArgv, script, "--phase", phase, "--file", file, "--out", out],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Measurement;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      questions: { type: "string", default: "100000" },
      phase: { type: "string" },
      file: { type: "string" },
      out: { type: "string" },
    },
  });
  if (values.phase) {
    console.log(JSON.stringify(await runPhase(values.phase as Phase, values.file ?? "", values.out ?? "")));
    return;
  }
  const questions = Number(values.questions);
  const dir = mkdtempSync(join(tmpdir(), "karenina-bench-"));
  try {
    const file = join(dir, "synthetic.jsonld");
    writeFileSync(file, JSON.stringify(syntheticCheckpoint(questions), null, 2));
    const sizeMb = statSync(file).size / 2 ** 20;
    console.log(
      `synthetic checkpoint: ${questions.toLocaleString("en")} questions, ${sizeMb.toFixed(1)} MiB`,
    );
    const out = join(dir, "out.jsonld");
    const rawLoad = measureInChild("raw-load", file, out);
    const load = measureInChild("load", file, out);
    const rawSave = measureInChild("raw-save", file, out);
    const save = measureInChild("save", file, out);
    const row = (label: string, m: Measurement) =>
      `${label.padEnd(34)} ${m.ms.toFixed(0).padStart(7)} ms   peak RSS ${m.peakRssMb.toFixed(0).padStart(5)} MiB`;
    console.log(row("raw: readFile + JSON.parse", rawLoad));
    console.log(row("karenina: Benchmark.load", load));
    console.log(row("raw: JSON.stringify + writeFile", rawSave));
    console.log(row("karenina: Benchmark.save", save));
    console.log(`load / raw parse      = ${(load.ms / rawLoad.ms).toFixed(2)}x   (target ≤ 3x)`);
    console.log(`save / raw stringify  = ${(save.ms / rawSave.ms).toFixed(2)}x   (target ≤ 3x)`);
    console.log(
      `load peak RSS         = ${load.peakRssMb.toFixed(0)} MiB (target < 1024 MiB; includes the tsx loader)`,
    );
    JSON.parse(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
