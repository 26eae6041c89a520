/**
 * Re-records the example responses of the bundled example benchmark (`karenina verify` with no checkpoint
 * replays them offline). Run it after a change to a prompt, since recordings are keyed by the exact request:
 *
 *   npm run example:record
 *
 * Every reply below was WRITTEN BY HAND for the demo. None is the output of a model: a local scripted server
 * serves them and the recording layer stores them, keyed by request.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Benchmark, parseVerificationConfig } from "../src/index.js";
import { BUNDLED_EXAMPLE_CONFIG, BUNDLED_RECORDINGS } from "../src/cli/bundled-example.js";
import { BUNDLED_EXAMPLE } from "../src/cli/cli-io.js";
import { type ScriptRule, startOpenAiServer } from "../src/test-support/openai-server/index.js";

/** Question text fragment → the hand-written answer and the fields a judge would extract from it. */
const ANSWERS: { question: string; answer: string; fields: Record<string, unknown>; concise: boolean }[] = [
  {
    question: "putative target of venetoclax",
    answer: "Venetoclax targets BCL2, the anti-apoptotic B-cell lymphoma 2 protein.",
    fields: { target: "BCL2" },
    concise: true,
  },
  {
    question: "aspirin irreversibly inhibit",
    answer: "Aspirin irreversibly acetylates cyclooxygenase (COX-1 and COX-2).",
    fields: { enzyme: "cyclooxygenase" },
    concise: true,
  },
  {
    question: "How many chromosomes",
    answer: "Well, there are many chromosomes in a cell, and I think it is probably 48 of them.",
    fields: { count: 48 },
    concise: false,
  },
  {
    question: "imatinib a tyrosine kinase inhibitor",
    answer: "Yes. Imatinib inhibits the BCR-ABL tyrosine kinase, as well as KIT and PDGFR.",
    fields: { is_tki: true },
    concise: true,
  },
  {
    question: "mechanism of action of metformin",
    answer: "I'm not sure, and I cannot say how metformin works without access to the literature.",
    fields: { mentions_hepatic_glucose: false },
    concise: true,
  },
];

// Each rule answers once. Within a task the judge parses the answer first, then scores the rubric.
const rules: ScriptRule[] = ANSWERS.flatMap(({ question, answer, fields, concise }) => [
  { match: { model: "handwritten-example-answers", lastUserIncludes: question }, reply: { text: answer } },
  { match: { model: "handwritten-example-judge", lastUserIncludes: answer }, reply: { json: fields } },
  {
    match: { model: "handwritten-example-judge", lastUserIncludes: answer },
    reply: { json: { scores: { conciseness: concise } } },
  },
]);

const server = await startOpenAiServer(rules);
try {
  const models = (key: "answering_models" | "parsing_models") =>
    (BUNDLED_EXAMPLE_CONFIG[key] ?? []).map((model) => ({ ...model, endpoint_base_url: server.baseURL }));
  const config = parseVerificationConfig({
    ...BUNDLED_EXAMPLE_CONFIG,
    answering_models: models("answering_models"),
    parsing_models: models("parsing_models"),
  });
  await rm(BUNDLED_RECORDINGS, { recursive: true, force: true });
  const benchmark = await Benchmark.load(BUNDLED_EXAMPLE);
  const run = await benchmark.runVerification(config, { recording: { dir: BUNDLED_RECORDINGS, mode: "record" } });
  for (const failure of run.failures) console.error(String(failure.error));
  for (const result of run.results) {
    const problem = result.metadata.failure;
    if (problem && problem.category !== "content") throw new Error(`${result.metadata.question_id}: ${problem.reason}`);
    if (result.metadata.warnings.length > 0) throw new Error(`${result.metadata.question_id}: ${result.metadata.warnings[0]}`);
  }
  await writeFile(
    join(BUNDLED_RECORDINGS, "README.md"),
    [
      "# Example responses of the bundled example benchmark",
      "",
      "Every response in this folder was **written by hand** for the karenina demo: the answers of",
      "`handwritten-example-answers` and the judge replies of `handwritten-example-judge`. None of them is the",
      "output of a language model. Some answers are wrong or evasive on purpose, so the demo shows failures too.",
      "",
      "`karenina verify` (with no checkpoint) replays them offline, keyed by the exact request. After changing a",
      "prompt, re-record them with `npm run example:record` (see `examples/record-example-responses.ts`).",
      "",
    ].join("\n"),
  );
  console.log(`recorded ${run.summary.calls} responses for ${run.results.length} results in ${BUNDLED_RECORDINGS}`);
} finally {
  await server.close();
}
