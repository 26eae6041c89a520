import type { Rubric } from "./rubric/index.js";

/**
 * A question as a benchmark holds it (the original's question dict, spec 01 §3.1): intrinsic data only;
 * the `finished` flag lives in the benchmark's registry. Keys are in the original's order.
 */
export interface QuestionRecord {
  id: string;
  question: string;
  raw_answer: string;
  answer_template: string;
  date_created: string;
  date_modified: string;
  author: unknown;
  sources: unknown;
  custom_metadata: Record<string, unknown> | null;
  question_rubric: Rubric | null;
  keywords: string[] | null;
  few_shot_examples: unknown;
  answer_notes: string | null;
  workspace_path: string | null;
}
