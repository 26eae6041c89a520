import { isAbsolute as isPosixAbsolute } from "node:path/posix";
import { isAbsolute as isWindowsAbsolute } from "node:path/win32";
import type { QuestionRecord } from "../model/question-record.js";
import { type RubricTrait, rubricFromTraits } from "../model/rubric/index.js";
import { CheckpointError } from "./errors.js";
import type { DataFeedItem } from "./jsonld-schema.js";
import { readQuestionProperties } from "./question-properties.js";
import { isQuestionTraitRating, ratingToTrait } from "./ratings.js";

/** Where an item sits, for error messages: its file and JSON path (`$.dataFeedElement[3]`). */
export interface ItemLocation {
  file: string;
  path: string;
}

/** A question record and its finished flag, read from one DataFeedItem. */
export interface ReadQuestion {
  record: QuestionRecord;
  finished: boolean;
}

/**
 * Reads one DataFeedItem into a question record (spec 01 §3.1, §6.7): properties, question-specific traits,
 * keywords (the item-level location is a fallback).
 * @throws {CheckpointError} for a bad `finished`, a bad trait, or an unsafe `workspace_path`.
 */
export function readQuestion(id: string, element: DataFeedItem, at: ItemLocation): ReadQuestion {
  const base = `${at.path}.item`;
  const q = element.item;
  const fields = readQuestionProperties(q.additionalProperty, at.file, `${base}.additionalProperty`);
  checkWorkspacePath(fields.workspace_path, at.file, base, q.additionalProperty);
  const traits: RubricTrait[] = [];
  q.rating?.forEach((rating, ratingIndex) => {
    if (!isQuestionTraitRating(rating)) return;
    traits.push(ratingToTrait(rating, { file: at.file, jsonPath: `${base}.rating[${ratingIndex}]` }).trait);
  });
  const keywords = q.keywords?.length ? q.keywords : element.keywords?.length ? element.keywords : null;
  const custom =
    fields.custom_metadata && Object.keys(fields.custom_metadata).length > 0 ? fields.custom_metadata : null;
  return {
    finished: fields.finished,
    record: {
      id,
      question: q.text,
      raw_answer: q.acceptedAnswer.text,
      answer_template: q.hasPart.text,
      date_created: element.dateCreated,
      date_modified: element.dateModified,
      author: fields.author,
      sources: fields.sources,
      custom_metadata: custom,
      question_rubric: traits.length > 0 ? rubricFromTraits(traits) : null,
      keywords,
      few_shot_examples: fields.few_shot_examples,
      answer_notes: fields.answer_notes,
      workspace_path: fields.workspace_path,
    },
  };
}

/**
 * A workspace path is relative to the benchmark's workspace root and may not leave it: an absolute path or one
 * that climbs out with `..` is refused.
 */
export function workspacePathProblem(path: string): string | null {
  if (isPosixAbsolute(path) || isWindowsAbsolute(path))
    return "a relative path (an absolute path is not allowed)";
  let depth = 0;
  for (const segment of path.split(/[\\/]+/)) {
    if (segment === "..") depth--;
    else if (segment !== "." && segment !== "") depth++;
    if (depth < 0) return "a path inside the workspace root (it climbs out with `..`)";
  }
  return null;
}

function checkWorkspacePath(
  path: string | null,
  file: string,
  base: string,
  properties: DataFeedItem["item"]["additionalProperty"],
): void {
  if (path === null) return;
  const problem = workspacePathProblem(path);
  if (problem === null) return;
  const index = properties?.findIndex((p) => p.name === "workspace_path") ?? -1;
  throw CheckpointError.expected(file, `${base}.additionalProperty[${index}].value`, problem, path);
}
