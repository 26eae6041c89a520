/**
 * Re-judging kept answers with a new rubric against a full re-run (issue 19, spec 08 §10.2).
 *
 *   npx tsx bench/rejudge-rubric.ts                       # N=1000, 20 ms per reply, 32 at once
 *   npx tsx bench/rejudge-rubric.ts --n 1000 --latency 20 --concurrency 32
 *
 * A scripted OpenAI-compatible server on 127.0.0.1 (hand-written replies, each after `--latency` ms) answers and
 * judges. `karenina verify` first stores a run of N questions in a SQLite file (answer + parse per question; not
 * measured). Then, measured: (1) `karenina rubric apply` of that stored run with a new rubric (one LLM trait and
 * one regex trait), and (2) the full re-run the rubric would otherwise need: `karenina verify` of the same N
 * questions with the rubric attached (template_and_rubric). Printed per side: wall time and LLM calls by model.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runCli } from "../packages/karenina/src/cli/program.js";
import { Benchmark, openStorage } from "../packages/karenina/src/index.js";
import { startOpenAiServer } from "../packages/karenina/src/test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../packages/karenina/src/test-support/pipeline-context.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "1000" },
    latency: { type: "string", default: "20" },
    concurrency: { type: "string", default: "32" },
  },
});
const n = Number(values.n);
const latency = Number(values.latency);
const concurrency = Number(values.concurrency);

const RUBRIC = {
  llm_traits: [{ name: "clarity", kind: "score", description: "How clear the answer is" }],
  regex_traits: [{ name: "names_drug", pattern: "Venetoclax" }],
};

// Hand-written replies, not output of any model: the answer, the parse, the rubric verdict.
const server = await startOpenAiServer([
  { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs: latency }, repeat: true },
  {
    match: { model: "judge", lastUserIncludes: "traits" },
    reply: { json: { scores: { clarity: 4 } }, delayMs: latency },
    repeat: true,
  },
  { match: { model: "judge" }, reply: { json: { drug: "venetoclax" }, delayMs: latency }, repeat: true },
]);
const dir = await mkdtemp(join(tmpdir(), "karenina-bench-rejudge-"));

async function cli(...args: string[]): Promise<void> {
  let err = "";
  const code = await runCli(args, { out: () => undefined, err: (text) => (err += text) });
  if (code > 1) throw new Error(`karenina ${args.slice(0, 2).join(" ")} exited with ${code}: ${err}`);
}

/** Wall milliseconds and LLM calls by model of `work`. */
async function measured(
  work: () => Promise<void>,
): Promise<{ wallMs: number; calls: Record<string, number> }> {
  const before = server.requests.length;
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const calls: Record<string, number> = {};
  for (const request of server.requests.slice(before)) {
    const model = typeof request.body.model === "string" ? request.body.model : "(no model: preflight)";
    calls[model] = (calls[model] ?? 0) + 1;
  }
  return { wallMs, calls };
}

function checkpoint(withRubric: boolean): Benchmark {
  const bench = Benchmark.create({ name: "rejudge-bench" });
  for (let i = 0; i < n; i++) {
    bench.addQuestion(`Which drug inhibits BCL2? (${i})`, "venetoclax", {
      questionId: `q${i}`,
      answerTemplate: DRUG_TEMPLATE,
    });
  }
  if (withRubric) bench.setGlobalRubric(RUBRIC as Parameters<Benchmark["setGlobalRubric"]>[0]);
  return bench;
}

const models = [
  "-a",
  `openai_endpoint:answerer@${server.baseURL}`,
  "-p",
  `openai_endpoint:judge@${server.baseURL}`,
];
try {
  const db = join(dir, "karenina.db");
  const plain = join(dir, "plain.jsonld");
  const withRubric = join(dir, "with-rubric.jsonld");
  await checkpoint(false).save(plain);
  await checkpoint(true).save(withRubric);
  const rubricFile = join(dir, "rubric.json");
  await writeFile(rubricFile, JSON.stringify(RUBRIC));

  await cli("verify", plain, ...models, "-c", String(concurrency), "--db", db, "--no-progress");
  const storage = await openStorage(db);
  const runName = (await storage.listRuns())[0]?.runName ?? "";
  await storage.close();

  const rejudge = await measured(() =>
    cli(
      ...["rubric", "apply", runName, "--db", db, "--rubric", rubricFile],
      ...["--parsing-model", `openai_endpoint:judge@${server.baseURL}`, "--max-workers", String(concurrency)],
      ...["--output", join(dir, "judgments.jsonl")],
    ),
  );
  const rerun = await measured(() =>
    cli(
      "verify",
      withRubric,
      ...models,
      "-c",
      String(concurrency),
      "-m",
      "template_and_rubric",
      "--no-progress",
    ),
  );

  const total = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);
  const line = (name: string, figures: { wallMs: number; calls: Record<string, number> }) =>
    `${name.padEnd(26)} wall ${(figures.wallMs / 1000).toFixed(2).padStart(7)} s   LLM calls ${String(total(figures.calls)).padStart(6)}   ${JSON.stringify(figures.calls)}`;
  console.log(`N=${n} stored results, ${latency} ms per reply, ${concurrency} at once`);
  console.log(line("re-judge (rubric apply)", rejudge));
  console.log(line("full re-run (verify)", rerun));
  console.log(
    `re-judging: ${(rerun.wallMs / rejudge.wallMs).toFixed(2)}× faster, ${total(rerun.calls) - total(rejudge.calls)} fewer LLM calls (${rejudge.calls.answerer ?? 0} answering calls)`,
  );
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
