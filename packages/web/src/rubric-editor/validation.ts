/**
 * The server's verdict on an edited rubric (`POST /api/v2/rubrics/validation`), sorted by trait: a 422
 * envelope's `details` name fields like `body.rubric.llm_traits[2].classes`; readiness errors name their trait.
 */
import type { RubricValidation } from "../library-types/index.js";
import { type PlacedTrait, refKey, TRAIT_LISTS } from "./traits.js";

/** One problem the server reported about a trait (or about the rubric as a whole when `traitKey` is null). */
export interface ServerProblem {
  readonly traitKey: string | null;
  /** The trait field it is about (`classes`, `pattern`), or null. */
  readonly field: string | null;
  readonly message: string;
}

/** The server's problems: refusals (the rubric is invalid) and readiness errors (it would not run). */
export interface ServerVerdict {
  readonly invalid: readonly ServerProblem[];
  readonly readiness: readonly ServerProblem[];
}

export const NO_VERDICT: ServerVerdict = { invalid: [], readiness: [] };

const FIELD_PATH = /^(?:body\.)?rubric\.([a-z]+_traits)\[(\d+)\](?:\.([A-Za-z_]+))?/;

/** One `details` entry of a 422 envelope (`{field, message}`) placed on its trait. */
export function problemOfDetail(detail: unknown): ServerProblem | null {
  if (typeof detail !== "object" || detail === null) return null;
  const { field, message } = detail as { field?: unknown; message?: unknown };
  if (typeof message !== "string") return null;
  const match = typeof field === "string" ? FIELD_PATH.exec(field) : null;
  const list = match?.[1] as (typeof TRAIT_LISTS)[number] | undefined;
  if (match === null || list === undefined || !TRAIT_LISTS.includes(list))
    return {
      traitKey: null,
      field: null,
      message: typeof field === "string" ? `${field}: ${message}` : message,
    };
  const type = list.replace(/_traits$/, "") as PlacedTrait["ref"]["type"];
  return { traitKey: refKey({ type, index: Number(match[2]) }), field: match[3] ?? null, message };
}

/** The problems of a 422 answer: its details when it has them, else its message. */
export function problemsOfRefusal(message: string, details: unknown): ServerProblem[] {
  const placed = Array.isArray(details) ? details.map(problemOfDetail).filter((p) => p !== null) : [];
  return placed.length > 0 ? placed : [{ traitKey: null, field: null, message }];
}

/** Readiness errors (`{source: trait name, error}`) placed on the trait of that name when there is one. */
export function problemsOfReadiness(
  readiness: RubricValidation["readiness_errors"],
  traits: readonly PlacedTrait[],
): ServerProblem[] {
  return readiness.map(({ source, error }) => {
    const owner = traits.find(({ trait }) => trait.name === source);
    return { traitKey: owner === undefined ? null : refKey(owner.ref), field: null, message: error };
  });
}

/** The messages about one trait, refusals first. */
export function problemsOf(verdict: ServerVerdict, traitKey: string | null): ServerProblem[] {
  return [...verdict.invalid, ...verdict.readiness].filter((problem) => problem.traitKey === traitKey);
}
