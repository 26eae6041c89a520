import type { Benchmark } from "../benchmark/index.js";
import { isRealTemplate, type Rubric } from "../model/index.js";
import type { VerificationConfig } from "../pipeline/index.js";
import { decodeCallableCode } from "../rubrics/index.js";
import { isDeclarativePython } from "../templates/index.js";
import type { CliIo } from "./cli-io.js";
import type { CommandSession } from "./command-session.js";

/** Which questions a run may verify, as the command knows them before selecting them. */
export interface RunQuestions {
  /** Only these (ids); default every question the run takes. */
  readonly questionIds?: readonly string[];
  /** Drafts are verified too. */
  readonly includeDrafts?: boolean;
}

/** The notice a person at a terminal sees while the interpreter starts (a pipe or a log does not get it). */
export const PYTHON_SANDBOX_NOTICE = "starting Python sandbox…";

const hasPythonCallable = (rubric: Rubric | null) =>
  rubric?.callable_traits.some((trait) => decodeCallableCode(trait.callable_code).form === "python") ?? false;

/** A template only the Python interpreter (Pyodide) can run: Python that is not a declarative template. */
function needsInterpreter(code: string, language: string, questionText: string): boolean {
  if (language !== "Python" || !isRealTemplate(code, questionText)) return false;
  try {
    return !isDeclarativePython(code);
  } catch {
    return true;
  }
}

/**
 * Whether a run of `benchmark` under `config` will need its Python sandbox: a question it verifies has a
 * template only Pyodide runs (template modes), or a rubric it evaluates has a Python callable trait (rubric
 * modes). Templates that do not load count too: loading them is what tells.
 */
export function runNeedsPythonSandbox(
  benchmark: Benchmark,
  config: VerificationConfig,
  questions: RunQuestions = {},
): boolean {
  const templates = config.evaluation_mode !== "rubric_only";
  const rubrics = config.evaluation_mode !== "template_only";
  const wanted = questions.questionIds === undefined ? undefined : new Set(questions.questionIds);
  const ids = benchmark
    .getQuestionIds()
    .filter(
      (id) => wanted?.has(id) !== false && (questions.includeDrafts === true || benchmark.isFinished(id)),
    );
  if (ids.length === 0) return false;
  if (rubrics && hasPythonCallable(benchmark.getGlobalRubric())) return true;
  return ids.some((id) => {
    const record = benchmark.getQuestion(id);
    if (
      templates &&
      needsInterpreter(record.answer_template, benchmark.getTemplateLanguage(id), record.question)
    )
      return true;
    return rubrics && hasPythonCallable(benchmark.getQuestionRubric(id));
  });
}

/**
 * Starts the benchmark's Python sandbox in the background as soon as the command knows the run will need
 * it, so the interpreter's start (seconds, in its own process) overlaps whatever the command does before
 * its first Python code instead of following it; on a terminal, says so on stderr (the wait that follows is
 * then explained). A start that fails is reported where the sandbox is first used. The sandbox is stopped
 * when the command ends, so a command that stops early (a usage error) does not wait for the start.
 * Returns whether it started one.
 */
export function startPythonSandboxEarly(
  benchmark: Benchmark,
  config: VerificationConfig,
  io: CliIo,
  session: CommandSession,
  questions: RunQuestions = {},
): boolean {
  if (!runNeedsPythonSandbox(benchmark, config, questions)) return false;
  if (io.errIsTerminal === true) io.err(`${PYTHON_SANDBOX_NOTICE}\n`);
  benchmark.pythonSandbox.start().catch(() => {});
  session.atEnd(() => benchmark.close());
  return true;
}
