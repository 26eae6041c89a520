import { PythonRegexError, translatePythonRegex } from "../../python-regex/index.js";
import { pyRepr } from "../../python-repr/index.js";
import { specToPython, type TemplateCode, type TemplateSpec } from "../../templates/index.js";
import {
  type GroundTruthAttribute,
  generatedTemplateSpec,
  groundTruthProblem,
  parseAttributeType,
} from "../template-generation/index.js";
import { AnswerBuilderError } from "./errors.js";

/** How a regex check compares what `re.findall` found with `expected` (spec 02 §2.6). */
export type RegexMatchType = "exact" | "contains" | "count" | "all";

/** Options of {@link AnswerBuilder.addRegex}. */
export interface RegexCheckOptions {
  /** `exact`/`contains`: a string; `count`: an integer; `all`: a list of strings. */
  expected: unknown;
  /** Default `"exact"`: exactly one match, equal to `expected`. */
  matchType?: RegexMatchType;
  description?: string;
}

interface RegexCheck {
  pattern: string;
  expected: unknown;
  match_type: RegexMatchType;
}

const MATCH_TYPES: readonly string[] = ["exact", "contains", "count", "all"];
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function expectedProblem(matchType: RegexMatchType, expected: unknown): string | null {
  if (matchType === "count") return Number.isInteger(expected) ? null : "an integer (the number of matches)";
  if (matchType === "all") return Array.isArray(expected) ? null : "a list (every item must be matched)";
  return expected === undefined ? "the match to find" : null;
}

/**
 * Builds an answer template in code, as the original's `AnswerBuilder` (spec 06 §7): attributes become
 * VerifiedFields with the primitive their type calls for (the mapping of generated templates, spec 02 §9.6),
 * regex checks become the template's `self.regex`, run on the raw response (spec 02 §2.6).
 * {@link compile} gives the Python code, which the original loads too; pass it wherever a template is taken.
 * A template of attributes only runs natively (declarative); one with regex checks runs in the Python sandbox.
 * @example
 * const template = new AnswerBuilder()
 *   .addAttribute("mentions_drug", "bool", "Whether the response names the drug", true)
 *   .addAttribute("target", "str", "The protein the drug targets", "BCL2")
 *   .addRegex("citations", String.raw`\[\d+\]`, { expected: 3, matchType: "count" })
 *   .compile();
 * template.language; // "Python"
 * const bench = Benchmark.create({ name: "demo" });
 * const id = bench.addQuestion("What does venetoclax target?", "BCL2 [1][2][3]");
 * await bench.addAnswerTemplate(id, template);
 * bench.hasTemplate(id); // true
 * await bench.close();
 */
export class AnswerBuilder {
  readonly #attributes: GroundTruthAttribute[] = [];
  readonly #descriptions: Record<string, string> = {};
  readonly #regex = new Map<string, RegexCheck>();

  /**
   * Adds a field the judge extracts and the template checks against `groundTruth`.
   * @param type `bool`, `int`, `float`, `str`, `List[str]` or `Literal['a', 'b', ...]`.
   * @throws {AnswerBuilderError} for a name that is not a Python identifier or is taken, a type outside
   *   those, or a ground truth that is not of the type.
   */
  addAttribute(name: string, type: string, description: string, groundTruth: unknown): this {
    this.#checkName(name, "attribute");
    const parsed = parseAttributeType(type);
    if (!parsed.ok) throw new AnswerBuilderError(`Attribute '${name}': ${parsed.problem}`);
    const problem = groundTruthProblem(parsed.type, groundTruth);
    if (problem !== null) {
      throw new AnswerBuilderError(
        `Attribute '${name}': the ground truth of a ${type} attribute must be ${problem}, got ${JSON.stringify(groundTruth)}`,
      );
    }
    this.#attributes.push({
      name,
      type: parsed.type,
      typeText: type,
      groundTruth: groundTruth as GroundTruthAttribute["groundTruth"], // checked just above
    });
    this.#descriptions[name] = description;
    return this;
  }

  /** @throws {AnswerBuilderError} when there is no such attribute. */
  removeAttribute(name: string): this {
    const index = this.#attributes.findIndex((attribute) => attribute.name === name);
    if (index < 0) throw new AnswerBuilderError(`Attribute '${name}' not found`);
    this.#attributes.splice(index, 1);
    delete this.#descriptions[name];
    return this;
  }

  /**
   * Adds a check of the raw response: `re.findall(pattern, response)` (Python `re`, no flags) compared with
   * `expected` by `matchType`. The template passes only when its fields and every check pass.
   * @throws {AnswerBuilderError} for a bad or taken name, a pattern Python's `re` would refuse, an unknown
   *   match type, or an `expected` the match type cannot use.
   */
  addRegex(name: string, pattern: string, options: RegexCheckOptions): this {
    this.#checkName(name, "regex pattern");
    try {
      translatePythonRegex(pattern);
    } catch (error) {
      if (!(error instanceof PythonRegexError)) throw error;
      throw new AnswerBuilderError(`Invalid regex pattern '${pattern}': ${error.message}`, { cause: error });
    }
    const matchType = options.matchType ?? "exact";
    if (!MATCH_TYPES.includes(matchType)) {
      throw new AnswerBuilderError(
        `Invalid match_type '${matchType}'. Must be one of: ${MATCH_TYPES.join(", ")}`,
      );
    }
    const problem = expectedProblem(matchType, options.expected);
    if (problem !== null) {
      throw new AnswerBuilderError(
        `Regex '${name}': expected must be ${problem} for match type '${matchType}'`,
      );
    }
    this.#regex.set(name, { pattern, expected: options.expected, match_type: matchType });
    return this;
  }

  /** @throws {AnswerBuilderError} when there is no such check. */
  removeRegex(name: string): this {
    if (!this.#regex.delete(name)) throw new AnswerBuilderError(`Regex pattern '${name}' not found`);
    return this;
  }

  /** The attributes as a TemplateSpec (regex checks have no place in a spec). */
  toSpec(className = "Answer"): TemplateSpec {
    return { ...generatedTemplateSpec(this.#attributes, this.#descriptions), class_name: className };
  }

  /**
   * The template's Python code: VerifiedFields for the attributes, and a `model_post_init` setting
   * `self.regex` when there are regex checks (a template of regex checks only gets a `verify` returning True).
   * @throws {AnswerBuilderError} when nothing was added.
   */
  compile(className = "Answer"): TemplateCode {
    if (!IDENTIFIER.test(className)) {
      throw new AnswerBuilderError(`Invalid class name '${className}': must be a Python identifier`);
    }
    if (this.#attributes.length === 0 && this.#regex.size === 0) {
      throw new AnswerBuilderError(
        "Cannot compile empty AnswerBuilder: no attributes or regex patterns defined",
      );
    }
    const fields =
      this.#attributes.length > 0
        ? specToPython(this.toSpec(className))
        : `from karenina.schemas.entities import BaseAnswer\n\n\nclass ${className}(BaseAnswer):\n`;
    if (this.#regex.size === 0) return { code: fields, language: "Python" };
    const checks = pyRepr(Object.fromEntries(this.#regex));
    const lines = [
      "",
      "    def model_post_init(self, __context):",
      "        super().model_post_init(__context)",
      `        self.regex = ${checks}`,
      ...(this.#attributes.length === 0 ? ["", "    def verify(self) -> bool:", "        return True"] : []),
    ];
    const code = `${this.#attributes.length > 0 ? fields : fields.replace(/\n$/, "")}${lines.join("\n")}\n`;
    return { code, language: "Python" };
  }

  #checkName(name: string, what: string): void {
    if (!IDENTIFIER.test(name)) {
      throw new AnswerBuilderError(`Invalid ${what} name '${name}': must be a valid Python identifier`);
    }
    if (this.#attributes.some((attribute) => attribute.name === name) || this.#regex.has(name)) {
      throw new AnswerBuilderError(`Name '${name}' is already used by an attribute or a regex pattern`);
    }
  }
}
