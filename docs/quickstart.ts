/**
 * The README's TypeScript quickstart: build a benchmark, run it, summarise the results. `quickstart.test.ts`
 * runs it against a local scripted server, so the README's copy of this code cannot rot. In your own project
 * the import is `from "karenina"`; the defaults reach a model served by Ollama on this machine.
 */
import { z } from "zod";
import {
  Benchmark,
  defineAnswerTemplate,
  parseVerificationConfig,
  summarizeResults,
  trait,
} from "../packages/karenina/src/index.js";

export interface QuickstartOptions {
  /** An OpenAI-compatible server: Ollama, vLLM, llama.cpp, a gateway. */
  baseURL?: string;
  answeringModel?: string;
  judgeModel?: string;
}

export async function quickstart({
  baseURL = "http://127.0.0.1:11434/v1",
  answeringModel = "llama3.1",
  judgeModel = "llama3.1",
}: QuickstartOptions = {}) {
  // 1. A benchmark: a question, a template saying what a right answer contains, a rubric trait.
  const benchmark = Benchmark.create({ name: "Medicine cabinet", version: "1.0.0" });
  const id = benchmark.addQuestion(
    "Which enzyme does aspirin irreversibly inhibit?",
    "Cyclooxygenase (COX-1 and COX-2)",
  );
  const template = await defineAnswerTemplate({
    fields: z.object({ enzyme: z.string().describe("The enzyme the response says aspirin inhibits") }),
    groundTruth: { enzyme: "cyclooxygenase" },
    verify: (answer, correct) => answer.enzyme.toLowerCase().includes(correct.enzyme),
  });
  await benchmark.addAnswerTemplate(id, template);
  benchmark.setGlobalRubric([
    trait.llm.boolean({ name: "concise", description: "Answers in one or two sentences." }),
  ]);
  await benchmark.save("medicine-cabinet.jsonld");

  // 2. A run: one model answers, a judge model fills the template's fields from the answer.
  const endpoint = { interface: "openai_endpoint", endpoint_base_url: baseURL, endpoint_api_key: "ollama" };
  const config = parseVerificationConfig({
    answering_models: [{ id: "answerer", model_name: answeringModel, ...endpoint }],
    parsing_models: [{ id: "judge", model_name: judgeModel, ...endpoint }],
    evaluation_mode: "template_and_rubric",
  });
  const run = await benchmark.runVerification(config, { output: "medicine-cabinet.jsonl" });

  // 3. The summary: pass rates, rubric traits, tokens and cost (`karenina results medicine-cabinet.jsonl` prints it).
  const summary = summarizeResults(run.results);
  const { passed, failed } = summary.outcomes;
  console.log(`passed ${passed} of ${passed + failed}`);
  return { run, summary };
}
