import type { Rubric } from "../../model/index.js";
import { canonicalKey, type VerificationResult } from "../../results/index.js";
import { describeError } from "./judge-item.js";
import type { PostHocItem, ResultRowKey, RowContext } from "./schemas.js";

/** How rows become texts to judge (spec 08 §10.2 steps 1–2); every function is optional. */
export interface RowSelection {
  /** The text to judge; default the row's `template.raw_llm_response` (`""` without a template section). */
  textSelector?: (row: VerificationResult) => string;
  /** The question and ground truth shown to the judge; default `{question: "", ground_truth: null}`. */
  rowContext?: (row: VerificationResult) => RowContext;
  /** Rows for which it returns false are left out. */
  rowFilter?: (row: VerificationResult) => boolean;
  /** The rubric of one row; default the rubric given. */
  rubricFactory?: (row: VerificationResult, rubric: Rubric) => Rubric;
  /**
   * Rows with the same identity share one generated answer and are judged once. Default: question, answering
   * key, replicate and scenario position (a turn of a scenario is its own answer, 08 Q38).
   */
  siblingIdentity?: (row: VerificationResult) => unknown;
  /** Judge one row per identity (default true); false judges every row. */
  collapseParserSiblings?: boolean;
}

/** The key of a stored row (spec 06 §1.8) with its scenario position. */
export function resultRowKey(row: VerificationResult): ResultRowKey {
  const { metadata } = row;
  return {
    question_id: metadata.question_id,
    answering_key: canonicalKey(metadata.answering),
    parsing_key: canonicalKey(metadata.parsing),
    replicate: metadata.replicate,
    run_name: metadata.run_name,
    scenario_id: metadata.scenario_id,
    scenario_node: metadata.scenario_node,
    scenario_turn: metadata.scenario_turn,
  };
}

/** The default sibling identity: the generated answer a row was parsed from. */
export function defaultSiblingIdentity(row: VerificationResult): unknown {
  const { metadata } = row;
  return [
    metadata.question_id,
    canonicalKey(metadata.answering),
    metadata.replicate,
    metadata.scenario_id,
    metadata.scenario_node,
    metadata.scenario_turn,
  ];
}

const defaultText = (row: VerificationResult) => row.template?.raw_llm_response ?? "";
const defaultContext = (): RowContext => ({ question: "", ground_truth: null });

/**
 * The text, context and rubric of a judged row. A selection function that throws fails this row's judgment
 * only (its message becomes the judgment's error), not the whole evaluation.
 */
function prepare(
  row: VerificationResult,
  rubric: Rubric,
  selection: RowSelection,
): Pick<PostHocItem, "text" | "context" | "rubric" | "preparationError"> {
  try {
    return {
      text: (selection.textSelector ?? defaultText)(row),
      context: (selection.rowContext ?? defaultContext)(row),
      rubric: selection.rubricFactory === undefined ? rubric : selection.rubricFactory(row, rubric),
    };
  } catch (error) {
    return { text: "", context: defaultContext(), rubric, preparationError: describeError(error) };
  }
}

/** A JSON text for identities that are arrays or objects, so equal values group together. */
function identityKey(identity: unknown): string {
  return typeof identity === "string" ? `s:${identity}` : `j:${JSON.stringify(identity)}`;
}

/**
 * The texts to judge, in input order of their first row: one per sibling group (collapsing on), or one per row.
 * Selection functions run once per judged row (the text, context and rubric of a group are its first row's).
 */
export function itemsFromRows(
  rows: Iterable<VerificationResult>,
  rubric: Rubric,
  selection: RowSelection = {},
): PostHocItem[] {
  const collapse = selection.collapseParserSiblings ?? true;
  const identityOf = selection.siblingIdentity ?? defaultSiblingIdentity;
  const groups = new Map<string, PostHocItem>();
  const items: PostHocItem[] = [];
  for (const row of rows) {
    if (selection.rowFilter !== undefined && !selection.rowFilter(row)) continue;
    const key = resultRowKey(row);
    const identity = collapse ? identityKey(identityOf(row)) : null;
    const group = identity === null ? undefined : groups.get(identity);
    if (group !== undefined) {
      group.siblingKeys.push(key);
      group.siblingResultIds.push(row.metadata.result_id);
      continue;
    }
    const item: PostHocItem = {
      key,
      ...prepare(row, rubric, selection),
      siblingKeys: [key],
      representativeResultId: row.metadata.result_id,
      siblingResultIds: [row.metadata.result_id],
    };
    items.push(item);
    if (identity !== null) groups.set(identity, item);
  }
  return items;
}
