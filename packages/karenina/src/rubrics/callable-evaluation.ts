import type { CallableTrait } from "../model/rubric/index.js";
import { pythonAsset } from "../python-assets/index.js";
import type { JavaScriptSandbox, PythonSandbox } from "../sandbox/index.js";
import { decodeCallableCode } from "./callable-code.js";
import { type CallableValue, checkCallableOutput } from "./callable-output.js";
import { TraitEvaluationError } from "./errors.js";
import { assertScoreRange } from "./score-range.js";

/** A function computing a callable trait from the rubric evaluation text. */
export type CallableFunction = (text: string) => unknown;

/** Trait name → function; a registered function wins over the trait's stored code (spec 03 §4.2). */
export type CallableRegistry = ReadonlyMap<string, CallableFunction>;

/** Where callable traits can run. Code whose runtime is missing evaluates to null with a reason. */
export interface CallableEvaluationOptions {
  readonly registry?: CallableRegistry;
  /** Runs `callable_code` holding Python source. */
  readonly pythonSandbox?: PythonSandbox;
  /** Runs `callable_code` holding JavaScript source (the `// karenina:javascript` marker line). */
  readonly javascriptSandbox?: JavaScriptSandbox;
}

/** A trait's result, or null with the reason it has none. */
export interface TraitOutcome<V> {
  readonly value: V | null;
  readonly error: string | null;
}

/**
 * Python run once per interpreter (`callable_trait_setup.py` beside this file, read on first use): a module whose
 * `pick(namespace)` returns the function the trait's source defines — `evaluate`, else the one function defined at
 * top level.
 */
const pickFunctionSetup = pythonAsset(new URL("./callable_trait_setup.py", import.meta.url));

const PICK_FUNCTION_ENTRY = `__import__("_karenina_callable_trait").pick(globals())`;

/** Trusted wrapper applied to a JavaScript callable's value: exposes the function as `evaluate`. */
const JAVASCRIPT_WRAPPER = `(fn) => {
  if (typeof fn !== "function") throw new TypeError("the stored JavaScript is not a function expression");
  return { evaluate: fn };
}`;

/**
 * Runs a stored JavaScript function expression on the text in QuickJS. The expression is evaluated in
 * parentheses (a trailing semicolon dropped), so `function (text) {…}` reads as an expression too.
 */
export async function runJavaScriptCallable(
  sandbox: JavaScriptSandbox,
  functionSource: string,
  text: string,
): Promise<unknown> {
  const expression = `(\n${functionSource.replace(/;\s*$/, "")}\n)`;
  const script = await sandbox.load(expression, { wrapper: JAVASCRIPT_WRAPPER });
  try {
    return await script.call("evaluate", [text]);
  } finally {
    script.dispose();
  }
}

/** Runs whatever computes the trait and returns its raw output; throws TraitEvaluationError when nothing can. */
async function callableOutput(
  trait: CallableTrait,
  text: string,
  options: CallableEvaluationOptions,
): Promise<unknown> {
  const fail = (reason: string) => new TraitEvaluationError(trait.name, "callable", "callable_code", reason);
  const registered = options.registry?.get(trait.name);
  if (registered !== undefined) return await registered(text);
  const code = decodeCallableCode(trait.callable_code);
  switch (code.form) {
    case "empty":
      throw fail(`no code is stored; register a function for trait '${trait.name}'`);
    case "cloudpickle":
      throw fail(
        `serialized Python function (cloudpickle) cannot run here; register a function for trait '${trait.name}'`,
      );
    case "unreadable":
      throw fail(`${code.reason}; register a function for trait '${trait.name}'`);
    case "python":
      if (options.pythonSandbox === undefined) {
        throw fail(`the code is Python source, and no Python sandbox was given to run it`);
      }
      return await options.pythonSandbox.run({
        setup: pickFunctionSetup(),
        code: code.source,
        entry: PICK_FUNCTION_ENTRY,
        args: [text],
      });
    case "javascript":
      if (options.javascriptSandbox === undefined) {
        throw fail("the code is JavaScript, and no JavaScript sandbox was given to run it");
      }
      return await runJavaScriptCallable(options.javascriptSandbox, code.source, text);
  }
}

/**
 * Evaluates a callable trait on the rubric evaluation text (spec 03 §4): a function registered under the
 * trait's name, else the stored code (Python source in the Pyodide sandbox, JavaScript in QuickJS). The
 * output is checked by kind ({@link checkCallableOutput}). Nothing here throws for a bad trait or bad code:
 * an empty or cloudpickle `callable_code`, a missing runtime, an exception, a sandbox limit or a wrong
 * output give a null value with the reason, so the caller carries on with the other traits.
 * @example
 * const short = parseRubricTrait({ name: "short", kind: "boolean", callable_code: "" }, "callable");
 * const registry = new Map([["short", (text: string) => text.length < 20]]);
 * await evaluateCallableTrait(short as CallableTrait, "Paris.", { registry }); // { value: true, error: null }
 * (await evaluateCallableTrait(short as CallableTrait, "Paris.", {})).error;
 * // "callable trait \"short\": field \"callable_code\": no code is stored; register a function for trait 'short'"
 */
export async function evaluateCallableTrait(
  trait: CallableTrait,
  text: string,
  options: CallableEvaluationOptions = {},
): Promise<TraitOutcome<CallableValue>> {
  try {
    assertScoreRange(trait);
    const output = await callableOutput(trait, text, options);
    return { value: checkCallableOutput(trait, output), error: null };
  } catch (error) {
    return { value: null, error: failureMessage(trait, error) };
  }
}

function failureMessage(trait: CallableTrait, error: unknown): string {
  if (error instanceof TraitEvaluationError) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  return new TraitEvaluationError(trait.name, "callable", null, `evaluation failed: ${detail}`).message;
}
