// One measured run of `bench/pipeline.ts`, in plain Node on the built library, so tsx's loader is not
// counted in CPU or RSS. Prints one JSON line of figures. Usage: node pipeline-child.mjs N LATENCY CONCURRENCY URL
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [n, latency, concurrency] = process.argv.slice(2, 5).map(Number);
const url = process.argv[5];
const { parseVerificationConfig, runVerification } = await import("../packages/karenina/dist/index.js");

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

const model = (id) => ({
  id,
  model_name: id,
  interface: "openai_endpoint",
  endpoint_base_url: url,
  endpoint_api_key: "bench",
});
const config = parseVerificationConfig({
  answering_models: [model("answerer")],
  parsing_models: [model("judge")],
  async_max_workers: concurrency,
  max_concurrent_requests: concurrency,
});
const questions = Array.from({ length: n }, (_, i) => ({
  id: `q${i}`,
  text: `Which drug inhibits BCL2? (variant ${i})`,
  rawAnswer: "venetoclax",
  template: { code: TEMPLATE, language: "Python" },
  keywords: null,
  fewShotExamples: [],
  rubric: null,
  dynamicRubric: null,
  workspacePath: null,
}));
const dir = await mkdtemp(join(tmpdir(), "karenina-bench-"));
try {
  // Warm-up: loading the template and building the clients are one-off costs, not per-call overhead.
  await runVerification(questions.slice(0, 2), config, { keepResults: false });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const run = await runVerification(questions, config, {
    output: join(dir, "run.jsonl"),
    keepResults: false,
  });
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  globalThis.gc?.();
  const figures = {
    n,
    latency,
    concurrency,
    wall,
    ideal: (Math.ceil(n / concurrency) * 2 * latency) / 1000,
    calls: run.summary.calls,
    cpuMsPerCall: (used.user + used.system) / 1000 / run.summary.calls,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    liveHeapMb: process.memoryUsage().heapUsed / 1048576,
    passed: run.summary.passed,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
