import type { Rubric } from "../library-types/index.js";

/** The names of every trait of a rubric, whatever its kind (each kind is a `*_traits` list). */
export function traitNames(rubric: Rubric | null): string[] {
  if (rubric === null) return [];
  return Object.values(rubric).flatMap((list: unknown) =>
    Array.isArray(list)
      ? list.flatMap((trait: unknown) => {
          const name = (trait as { name?: unknown } | null)?.name;
          return typeof name === "string" ? [name] : [];
        })
      : [],
  );
}

/** Whether two rubrics are the same (a draft brought back to the saved rubric is no longer a draft). */
export function sameRubric(a: Rubric | null, b: Rubric | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
