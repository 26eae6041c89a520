/**
 * CLI test helpers: running `karenina` in-process with its output captured, and a small benchmark of drug
 * questions (hand-written test data) whose template is the pipeline tests' drug template.
 */
import { Benchmark } from "../benchmark/index.js";
import { runCli } from "../cli/program.js";
import { DRUG_TEMPLATE } from "./pipeline-context.js";

/** Runs `karenina ARGS` in-process and returns its exit code, stdout and stderr. */
export async function runKarenina(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** A benchmark of `questions` finished questions `q0`, `q1`, ... "Which drug inhibits BCL2? (i)". */
export function drugBenchmark(questions: number, name = "cli-test"): Benchmark {
  const bench = Benchmark.create({ name });
  for (let i = 0; i < questions; i++) {
    bench.addQuestion(`Which drug inhibits BCL2? (${i})`, "venetoclax", {
      questionId: `q${i}`,
      answerTemplate: DRUG_TEMPLATE,
    });
  }
  return bench;
}

/**
 * `verify FILE` with the scripted server's models "answerer" and "judge" at `baseURL` (`openai_endpoint`),
 * `extra` options, and no progress bar.
 */
export function scriptedVerifyArgs(baseURL: string, file: string, ...extra: string[]): string[] {
  return [
    "verify",
    file,
    "-a",
    `openai_endpoint:answerer@${baseURL}`,
    "-p",
    `openai_endpoint:judge@${baseURL}`,
    ...extra,
    "--no-progress",
  ];
}
