import { createHash } from "node:crypto";
import { assertSchemaWithinLimits, SchemaLimitError } from "../../json-schema-limits/index.js";
import type { JsonValue, PythonSandbox } from "../../sandbox/index.js";
import {
  type AnswerTemplate,
  type JsonSchema,
  TemplateError,
  type TemplateEvaluation,
  type TemplateRunContext,
} from "../answer-template.js";
import { type LoadReply, LoadReplySchema } from "./bridge-replies.js";
import { bridgeEntry, pythonCompatSetup } from "./compat/compat-setup.js";
import { defaultPythonSandbox } from "./default-sandbox.js";
import { EvaluationQueue, type TemplateSource } from "./evaluation-queue.js";
import { describeSandboxFailure } from "./sandbox-failure.js";

/** Options of {@link loadPythonTemplate}. */
export interface LoadPythonTemplateOptions {
  /**
   * The sandbox to run the template in; by default one shared sandbox, started at the first Python template.
   * Templates loaded in one sandbox share its interpreter (and so could tamper with each other's modules): use
   * one sandbox per trust domain, for example per benchmark file.
   */
  readonly sandbox?: PythonSandbox;
  /**
   * The original rejects a template whose `ground_truth()`/`model_post_init()` class cannot be built from dummy
   * values (spec 02 §2.2, §8 step 5: `""` for an `int | None` field, for instance). When true, such a rejection
   * is not an error and the ground truth is read from an unvalidated dummy instance instead. Default false.
   */
  readonly lenientDummyCheck?: boolean;
}

type Described = Extract<LoadReply, { ok: true }>;

/**
 * A template written in Python, as the original stores it, run for real in the Pyodide sandbox over a pure-Python
 * compatibility layer (`pydantic` and the original's `karenina` module tree). Made by {@link loadPythonTemplate}.
 *
 * Its class is loaded once per interpreter and cached there by a hash of the code; each evaluation builds a new
 * instance, in one sandbox call that also runs the regex checks and the granular score (concurrent evaluations
 * share calls). A template that times out, exhausts memory or crashes the interpreter fails that evaluation only.
 */
export class PythonTemplate implements AnswerTemplate {
  readonly runtime = "python";
  readonly className: string;
  readonly mode: "classic" | "verified" | "mixed";
  readonly judgeSchema: JsonSchema;
  readonly structuredOutputSchema: JsonSchema;
  readonly groundTruth: Record<string, unknown> | null;
  readonly extractionHints: Record<string, string>;
  readonly needsNoJudge: boolean;
  readonly #source: TemplateSource;
  readonly #queue: EvaluationQueue;

  /** @internal Made by {@link loadPythonTemplate}. */
  constructor(described: Described, source: TemplateSource, sandbox: PythonSandbox) {
    this.className = described.className;
    this.mode = described.mode;
    this.judgeSchema = described.judgeSchema;
    this.structuredOutputSchema = described.structuredOutputSchema;
    this.groundTruth = described.groundTruth;
    this.extractionHints = described.extractionHints;
    this.needsNoJudge = described.needsNoJudge;
    this.#source = source;
    this.#queue = EvaluationQueue.of(sandbox);
  }

  /**
   * Verifies a parsed answer (spec 02 §2.3–2.7). Never rejects: a value the class refuses, an exception in
   * `verify()`, or a failure of the sandbox yields `verify: false` and an `error` saying what happened.
   */
  evaluate(parsed: Record<string, unknown>, context: TemplateRunContext = {}): Promise<TemplateEvaluation> {
    return this.#queue.submit(this.#source, parsed as JsonValue, context as unknown as JsonValue);
  }
}

/** The interpreter's cache key of a template: the code's hash, and whether it was loaded leniently. */
function templateKey(code: string, lenient: boolean): string {
  return `${createHash("sha256").update(code).digest("hex")}${lenient ? ":lenient" : ""}`;
}

/**
 * Loads a Python template (the original's format): runs its code in the sandbox, finds its answer class and
 * validates it as the original does (spec 02 §1.2, §8), and describes it for the judge. As in the original, names
 * defined at the template's top level are not visible in the class body or its methods (spec 02 §1.1). Two
 * choices differ: a top-level helper model may serve as a field's type; and when several leaf classes derive from
 * `BaseAnswer`, the one named `Answer` is used.
 * @throws {TemplateError} with the original's validation message (e.g. `No BaseAnswer subclass found in template
 * namespace`), saying why the sandbox could not run the code (e.g. `Template timed out after 1000 ms`), or
 * naming where its judge schema is too large, too deep or recursive once its `$ref`s are expanded.
 * @example
 * const code = [
 *   "class Answer(BaseAnswer):",
 *   "    city: str = Field(description='The capital named in the response')",
 *   "    def ground_truth(self):",
 *   "        self.correct = {'city': 'Paris'}",
 *   "    def verify(self):",
 *   "        return self.city.strip().lower() == self.correct['city'].lower()",
 * ].join("\n");
 * const template = await loadPythonTemplate(code);
 * template.groundTruth; // { city: "Paris" }
 * (await template.evaluate({ city: " paris " })).verify; // true
 */
export async function loadPythonTemplate(
  code: string,
  options: LoadPythonTemplateOptions = {},
): Promise<PythonTemplate> {
  const sandbox = options.sandbox ?? defaultPythonSandbox();
  const lenient = options.lenientDummyCheck ?? false;
  const key = templateKey(code, lenient);
  let reply: JsonValue;
  try {
    reply = await sandbox.run({
      setup: pythonCompatSetup(),
      code: "",
      entry: bridgeEntry("load_template"),
      args: [key, code, lenient],
      stateKey: key,
    });
  } catch (error) {
    throw new TemplateError(describeSandboxFailure(error), { cause: error });
  }
  const parsed = LoadReplySchema.safeParse(reply);
  if (!parsed.success) throw new TemplateError("the Python bridge returned malformed data");
  if (!parsed.data.ok) throw new TemplateError(parsed.data.error);
  assertSchemasWithinLimits(parsed.data);
  return new PythonTemplate(parsed.data, { key, code, lenient }, sandbox);
}

/**
 * Refuses a template whose schemas would not stay small once their `$ref`s are expanded: they come from the
 * template's own code (its class may override `model_json_schema`, or nest models without end), and the host
 * walks them, `$defs` expanded, to coerce every judge's answer.
 */
function assertSchemasWithinLimits(described: Described): void {
  try {
    // Pydantic allows a model to hold itself (a tree): the host's walkers of these schemas follow the data.
    const recursion = { recursion: "through-data" } as const;
    assertSchemaWithinLimits(described.judgeSchema, "judge", "judgeSchema", recursion);
    assertSchemaWithinLimits(
      described.structuredOutputSchema,
      "structured-output",
      "structuredOutputSchema",
      recursion,
    );
  } catch (error) {
    if (error instanceof SchemaLimitError) throw new TemplateError(error.message, { cause: error });
    throw error;
  }
}
