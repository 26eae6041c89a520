/**
 * "Import literal trait" (spec 07 §1.4): a JSON file `{trait_name, description?, classes: {name: description},
 * higher_is_better?}` becomes a literal LLM trait, or a message saying what is wrong with the file.
 */
import type { LlmTrait } from "../library-types/index.js";
import { type ClassRow, classesProblem } from "./field-errors.js";
import { llmDefaults } from "./traits.js";

export type LiteralImport = { readonly trait: LlmTrait } | { readonly error: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function classesOf(value: unknown): { rows: ClassRow[] } | { error: string } {
  if (!isRecord(value)) return { error: '"classes" must be an object of class name → description' };
  const rows: ClassRow[] = [];
  for (const [name, description] of Object.entries(value)) {
    if (typeof description !== "string") return { error: `The description of class '${name}' must be text` };
    rows.push({ name, description });
  }
  const problem = classesProblem(rows);
  return problem === null ? { rows } : { error: problem };
}

/**
 * Reads an imported literal trait.
 * @param takenNames the names already in the rubric (an imported trait may not repeat one, ignoring case)
 */
export function parseLiteralImport(text: string, takenNames: readonly string[]): LiteralImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: "The file is not readable JSON" };
  }
  if (!isRecord(data)) return { error: "The file must hold one JSON object" };
  const name = data.trait_name;
  if (typeof name !== "string" || name.trim() === "") return { error: '"trait_name" is required' };
  if (takenNames.some((taken) => taken.toLowerCase() === name.toLowerCase()))
    return { error: `This rubric already has a trait named '${name}'` };
  if (data.description !== undefined && data.description !== null && typeof data.description !== "string")
    return { error: '"description" must be text' };
  if (data.higher_is_better !== undefined && typeof data.higher_is_better !== "boolean")
    return { error: '"higher_is_better" must be true or false' };
  const classes = classesOf(data.classes);
  if ("error" in classes) return classes;
  return {
    trait: {
      ...llmDefaults(name, (data.description as string | null | undefined) ?? null),
      kind: "literal",
      min_score: 0,
      max_score: classes.rows.length - 1,
      classes: Object.fromEntries(classes.rows.map((row) => [row.name, row.description])),
      higher_is_better: (data.higher_is_better as boolean | undefined) ?? true,
    },
  };
}
