import type { TemplateLanguage } from "../checkpoint/index.js";
import { KareninaError } from "../errors/index.js";
import type { PythonSandbox } from "../sandbox/index.js";
import { type AnswerTemplate, TemplateError } from "./answer-template.js";
import {
  isDeclarativePython,
  loadDeclarativeTemplate,
  specToPython,
  type TemplateSpecInput,
  TemplateSpecSchema,
} from "./declarative/index.js";
import { isTypeScriptTemplate, loadJavaScriptTemplate, type TypeScriptTemplate } from "./javascript/index.js";
import { defaultPythonSandbox, loadPythonTemplate } from "./python/index.js";

/** Template code as a checkpoint stores it. */
export interface TemplateCode {
  code: string;
  language: TemplateLanguage;
}

/**
 * Anything a template can be given as: Python source (a string, as in the original), code with its language,
 * a declarative TemplateSpec (parsed or as written, defaults left out: a `TemplateSpecInput`), or a template
 * defined in TypeScript with `defineAnswerTemplate`.
 */
export type TemplateInput = string | TemplateCode | TemplateSpecInput | TypeScriptTemplate;

function isTemplateCode(input: object): input is TemplateCode {
  return "code" in input && "language" in input;
}

/**
 * What a checkpoint stores for a template: declarative specs become the original's VerifiedField Python (so the
 * original can load them), TypeScript templates their JavaScript source.
 * @example
 * templateCode("class Answer(BaseAnswer):\n    pass\n").language; // "Python"
 */
export function templateCode(input: TemplateInput): TemplateCode {
  if (typeof input === "string") return { code: input, language: "Python" };
  if (isTypeScriptTemplate(input)) return { code: input.source, language: "JavaScript" };
  if (isTemplateCode(input)) return input;
  const spec = TemplateSpecSchema.safeParse(input);
  if (!spec.success) {
    const problems = spec.error.issues.map(
      (issue) => `${issue.path.join(".") || "(spec)"}: ${issue.message}`,
    );
    throw new TemplateError(`Invalid template: not a TemplateSpec: ${problems.join("; ")}`);
  }
  return { code: specToPython(spec.data), language: "Python" };
}

/** Options of {@link loadTemplate}. */
export interface LoadTemplateOptions {
  /**
   * The sandbox of the template's trust domain (its benchmark; see `createTemplateSandbox`), where Python
   * templates that need an interpreter run. Default: the process's shared sandbox.
   */
  readonly pythonSandbox?: PythonSandbox;
}

/** Loaded templates by sandbox (trust domain), then by language and code. */
const loaded = new WeakMap<PythonSandbox, Map<string, Promise<AnswerTemplate>>>();
const CACHE_LIMIT = 1000;

/**
 * Loads (and so validates) template code: JavaScript runs in QuickJS; Python VerifiedField templates run
 * natively as declarative templates; other Python runs in the Pyodide sandbox of its trust domain. Loads are
 * cached by code, per sandbox.
 * @throws {TemplateError} `Invalid template: <what to fix>`.
 */
export function loadTemplate(
  code: string,
  language: TemplateLanguage,
  options: LoadTemplateOptions = {},
): Promise<AnswerTemplate> {
  const sandbox = options.pythonSandbox ?? defaultPythonSandbox();
  let cache = loaded.get(sandbox);
  if (cache === undefined) {
    cache = new Map();
    loaded.set(sandbox, cache);
  }
  const key = `${language}\u0000${code}`;
  let template = cache.get(key);
  if (template === undefined) {
    template = loadUncached(code, language, sandbox);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, template);
    const owner = cache;
    template.catch(() => owner.delete(key));
  }
  return template;
}

async function loadUncached(
  code: string,
  language: TemplateLanguage,
  sandbox: PythonSandbox,
): Promise<AnswerTemplate> {
  try {
    if (language === "JavaScript") return await loadJavaScriptTemplate(code);
    if (isDeclarativePython(code)) return loadDeclarativeTemplate(code);
    return await loadPythonTemplate(code, { lenientDummyCheck: true, sandbox });
  } catch (error) {
    if (error instanceof TemplateError && error.message.startsWith("Invalid template: ")) throw error;
    const message = KareninaError.isInstance(error) || error instanceof Error ? error.message : String(error);
    throw new TemplateError(`Invalid template: ${message}`, { cause: error });
  }
}

/** Loads a template given in any form (see {@link TemplateInput}). */
export function loadTemplateInput(
  input: TemplateInput,
  options: LoadTemplateOptions = {},
): Promise<AnswerTemplate> {
  const { code, language } = templateCode(input);
  return loadTemplate(code, language, options);
}

/** Null when the template loads, else the message saying why not (spec 02 §8). */
export async function templateProblem(
  code: string,
  language: TemplateLanguage,
  options: LoadTemplateOptions = {},
): Promise<string | null> {
  try {
    await loadTemplate(code, language, options);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid template: /, "");
  }
}
