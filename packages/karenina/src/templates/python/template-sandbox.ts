import { PythonSandbox, type PythonStateReset } from "../../sandbox/index.js";

/**
 * How far apart the Python code of one benchmark (a trust domain) runs:
 * - `"checkpoint"` (default): one interpreter process per benchmark; before a question's template (or a
 *   callable trait) runs after another's code, the interpreter is put back in its state after the trusted
 *   setup, so no template can change another question's verdict. Evaluations of one question, one after the
 *   other, reuse its loaded class.
 * - `"strict"`: the same, and every evaluation starts from a fresh state, even of the same question (no state
 *   carried from one replicate or answering model to the next).
 * Benchmarks never share an interpreter, whatever the mode.
 */
export type TemplateIsolation = "checkpoint" | "strict";

const RESET: Readonly<Record<TemplateIsolation, PythonStateReset>> = {
  checkpoint: "on-new-code",
  strict: "every-call",
};

/** Every isolation mode, for option parsing. */
export const TEMPLATE_ISOLATIONS: readonly TemplateIsolation[] = Object.keys(RESET) as TemplateIsolation[];

/**
 * A Python sandbox for one trust domain (one benchmark): its own process, started at its first Python call.
 * @example
 * const sandbox = createTemplateSandbox("strict");
 * await loadTemplate("class Answer(BaseAnswer):\n    pass\n", "Python", { pythonSandbox: sandbox });
 * await sandbox.close();
 */
export function createTemplateSandbox(isolation: TemplateIsolation = "checkpoint"): PythonSandbox {
  return PythonSandbox.create({ reset: RESET[isolation] });
}
