import {
  type VerificationResult,
  type VerificationResultRubric,
  VerificationResultRubricSchema,
} from "../../results/index.js";
import { ExtendRunError } from "./errors.js";

/** The rubric buckets whose trait names are unioned (metric buckets and deep judgment are not merged). */
const MERGED_BUCKETS = [
  "llm_trait_scores",
  "llm_trait_labels",
  "regex_trait_scores",
  "callable_trait_scores",
  "agentic_trait_scores",
  "agentic_trait_investigation_traces",
  "dynamic_rubric_skipped_traits",
] as const;

type Bucket = (typeof MERGED_BUCKETS)[number];

function unionBucket(
  target: VerificationResultRubric,
  added: VerificationResultRubric,
  bucket: Bucket,
): void {
  const incoming = added[bucket] as Record<string, unknown> | null;
  if (incoming === null || Object.keys(incoming).length === 0) return;
  const existing = (target[bucket] ?? {}) as Record<string, unknown>;
  const collisions = Object.keys(incoming).filter((name) => Object.hasOwn(existing, name));
  if (collisions.length > 0)
    throw new ExtendRunError(
      `extendRubric: trait name collision in ${bucket} for traits [${collisions.sort().join(", ")}]; rename or remove the colliding trait (or leave the prior run's traits out of the run with rubric_trait_names)`,
    );
  (target as Record<Bucket, unknown>)[bucket] = { ...existing, ...incoming };
}

/**
 * A deep copy of a prior row with the rubric results of its rubric-only row merged in (spec 08 §10.1): the
 * trait buckets unioned (a trait name already scored is an error), promoted dynamic traits appended, trait
 * provenance merged (the new wins), and the run name stamped. `result_id` and every other field stay the
 * prior row's.
 * @throws {ExtendRunError} on a trait name collision.
 */
export function mergeRubricRow(
  prior: VerificationResult,
  added: VerificationResult,
  runName: string,
): VerificationResult {
  const row = structuredClone(prior);
  row.metadata.run_name = runName;
  const incoming = added.rubric;
  if (incoming === null) return row;
  const rubric = row.rubric ?? VerificationResultRubricSchema.parse({});
  if (incoming.rubric_evaluation_performed) rubric.rubric_evaluation_performed = true;
  if (incoming.rubric_evaluation_strategy !== null)
    rubric.rubric_evaluation_strategy = incoming.rubric_evaluation_strategy;
  for (const bucket of MERGED_BUCKETS) unionBucket(rubric, incoming, bucket);
  const promoted = incoming.dynamic_rubric_promoted_traits ?? [];
  if (promoted.length > 0) {
    const listed = rubric.dynamic_rubric_promoted_traits ?? [];
    rubric.dynamic_rubric_promoted_traits = [...listed, ...promoted.filter((name) => !listed.includes(name))];
  }
  if (incoming.trait_provenance !== null)
    rubric.trait_provenance = { ...(rubric.trait_provenance ?? {}), ...incoming.trait_provenance };
  row.rubric = rubric;
  return row;
}
