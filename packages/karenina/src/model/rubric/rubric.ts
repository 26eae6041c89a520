import { z } from "zod";
import { dottedPath } from "../../errors/index.js";
import { AgenticTraitSchema } from "./agentic-trait.js";
import { CallableTraitSchema } from "./callable-trait.js";
import { type IssueLocator, issuesFromZod, RubricError } from "./errors.js";
import { LlmTraitSchema } from "./llm-trait.js";
import { MetricTraitSchema } from "./metric-trait.js";
import { RegexTraitSchema } from "./regex-trait.js";
import { type RubricTrait, TRAIT_FIELDS, TRAIT_TYPES, type TraitType, traitSubject } from "./rubric-trait.js";

const RubricFields = z.strictObject({
  llm_traits: z.array(LlmTraitSchema).default([]),
  regex_traits: z.array(RegexTraitSchema).default([]),
  callable_traits: z.array(CallableTraitSchema).default([]),
  metric_traits: z.array(MetricTraitSchema).default([]),
  agentic_traits: z.array(AgenticTraitSchema).default([]),
});
type RubricLists = z.infer<typeof RubricFields>;

/** The list of a rubric holding traits of `type`. */
export const traitListKey = <T extends TraitType>(type: T) => `${type}_traits` as const;

/** A broken rubric rule, located like a Zod issue (`["llm_traits", 2, "name"]`). */
interface RubricProblem {
  path: [string, number, string];
  message: string;
}

/** The name rules of spec 03 §6: unique per list, unique across lists, no dots. */
function nameProblems(rubric: RubricLists): RubricProblem[] {
  const problems: RubricProblem[] = [];
  const owners = new Map<string, TraitType>();
  for (const type of TRAIT_TYPES) {
    const seen = new Set<string>();
    (rubric[traitListKey(type)] as RubricTrait[]).forEach((trait, index) => {
      const path: RubricProblem["path"] = [traitListKey(type), index, "name"];
      const owner = owners.get(trait.name);
      if (seen.has(trait.name)) {
        problems.push({
          path,
          message: `Duplicate ${type} trait name '${trait.name}' within the same rubric; trait names must be unique`,
        });
      } else if (owner !== undefined) {
        problems.push({
          path,
          message: `Duplicate trait name '${trait.name}' across different trait types (${owner} and ${type}); trait names must be unique`,
        });
      }
      if (trait.name.includes(".")) {
        problems.push({
          path,
          message: `Trait name '${trait.name}' cannot contain '.' (reserved for template-kind result keys "trait.field")`,
        });
      }
      seen.add(trait.name);
      if (owner === undefined) owners.set(trait.name, type);
    });
  }
  return problems;
}

/** Dynamic rubrics (spec 03 §8): every trait needs a summary or a description as its concept. */
function conceptProblems(rubric: RubricLists): RubricProblem[] {
  return TRAIT_TYPES.flatMap((type) =>
    (rubric[traitListKey(type)] as RubricTrait[]).flatMap((trait, index): RubricProblem[] =>
      trait.summary || trait.description
        ? []
        : [
            {
              path: [traitListKey(type), index, "summary"],
              message: `Dynamic rubric trait '${trait.name}' has neither summary nor description; one of them names the concept to look for`,
            },
          ],
    ),
  );
}

const reportProblems = (problems: RubricProblem[], ctx: z.RefinementCtx) => {
  for (const { path, message } of problems) ctx.addIssue({ code: "custom", path, message });
};

/**
 * A rubric: the traits applied to a question (or, as the global rubric, to every question). Lists default
 * to `[]` and each item is read with its kind's schema, so a Python `Rubric.model_dump()` parses as is.
 * @example
 * const rubric = RubricSchema.parse({ regex_traits: [{ name: "has_citation", pattern: String.raw`\[\d+\]` }] });
 * rubric.regex_traits[0]?.type; // "regex"
 */
export const RubricSchema = RubricFields.superRefine((rubric, ctx) =>
  reportProblems(nameProblems(rubric), ctx),
);
export type Rubric = z.infer<typeof RubricSchema>;
export type RubricInput = z.input<typeof RubricSchema>;

/** A dynamic rubric (spec 03 §8): a rubric whose traits are only evaluated when their concept is present. */
export const DynamicRubricSchema = RubricFields.superRefine((rubric, ctx) =>
  reportProblems([...nameProblems(rubric), ...conceptProblems(rubric)], ctx),
);
export type DynamicRubric = z.infer<typeof DynamicRubricSchema>;

/** Names the trait an issue points into (`llm_traits[2]…`), reading its name from the raw input. */
function rubricLocator(input: unknown): IssueLocator {
  return (path) => {
    const [list, index, ...field] = path;
    const type = TRAIT_TYPES.find((candidate) => traitListKey(candidate) === list);
    if (type === undefined || typeof index !== "number") return { subject: null, field: path };
    const item = (input as Record<string, unknown[]> | null)?.[list as string]?.[index];
    return { subject: traitSubject(type, item), field };
  };
}

function parseWith<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new RubricError(issuesFromZod(result.error, input, rubricLocator(input)));
}

/**
 * Parses a rubric (e.g. a Python `Rubric.model_dump()`).
 * @throws RubricError naming the trait and field of every problem.
 */
export function parseRubric(input: unknown): Rubric {
  return parseWith(RubricSchema, input);
}

/** Parses a dynamic rubric; see {@link parseRubric}. */
export function parseDynamicRubric(input: unknown): DynamicRubric {
  return parseWith(DynamicRubricSchema, input);
}

const emptyLists = (): Rubric => ({
  llm_traits: [],
  regex_traits: [],
  callable_traits: [],
  metric_traits: [],
  agentic_traits: [],
});

/**
 * Sorts already-parsed traits into a rubric (Python `Rubric.from_traits`); null stays null. Only the name
 * rules are checked: the traits themselves were validated when they were built.
 * @throws RubricError on duplicate or dotted names.
 * @example
 * rubricFromTraits([parseRubricTrait({ name: "clarity", kind: "score" }, "llm")])?.llm_traits.length; // 1
 */
export function rubricFromTraits(traits: readonly RubricTrait[] | null): Rubric | null {
  if (traits === null) return null;
  const rubric = emptyLists();
  for (const trait of traits) (rubric[traitListKey(trait.type)] as RubricTrait[]).push(trait);
  const problems = nameProblems(rubric);
  if (problems.length === 0) return rubric;
  const locate = rubricLocator(rubric);
  throw new RubricError(
    problems.map(({ path, message }) => {
      const { subject, field } = locate(path);
      return { subject, field: dottedPath(field), message };
    }),
  );
}

/** Every trait of a rubric, in the order llm, regex, callable, metric, agentic; none for a null rubric. */
export function rubricTraits(rubric: Rubric | null): RubricTrait[] {
  return rubric === null ? [] : TRAIT_TYPES.flatMap((type) => rubric[traitListKey(type)] as RubricTrait[]);
}

/** Every trait name of a rubric, in the order of {@link rubricTraits}. */
export function rubricTraitNames(rubric: Rubric | null): string[] {
  return rubricTraits(rubric).map((trait) => trait.name);
}

/** True when there is no rubric or it has no trait. */
export function isEmptyRubric(rubric: Rubric | null): boolean {
  return rubricTraits(rubric).length === 0;
}

/** A trait as Python's `model_dump()` writes it: every field, in the original's order, without `type`. */
export function toPythonTraitDump(trait: RubricTrait): Record<string, unknown> {
  const record = trait as Record<string, unknown>;
  return Object.fromEntries(
    TRAIT_FIELDS[trait.type].filter((key) => key !== "type").map((key) => [key, record[key]]),
  );
}

export type PythonRubricDump = Record<ReturnType<typeof traitListKey>, Record<string, unknown>[]>;

/**
 * The rubric as Python's `Rubric.model_dump()` shapes it (the inverse of {@link parseRubric}).
 * @example
 * toPythonRubricDump(parseRubric({})); // { llm_traits: [], regex_traits: [], callable_traits: [], metric_traits: [], agentic_traits: [] }
 */
export function toPythonRubricDump(rubric: Rubric): PythonRubricDump {
  return Object.fromEntries(
    TRAIT_TYPES.map((type) => [
      traitListKey(type),
      (rubric[traitListKey(type)] as RubricTrait[]).map(toPythonTraitDump),
    ]),
  ) as PythonRubricDump;
}
