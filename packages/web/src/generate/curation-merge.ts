import type {
  CuratorQuestion,
  CuratorQuestionInput,
  ExtractedQuestion,
  GeneratedTemplateOutcome,
} from "../library-types/index.js";

/** A successfully generated question: the extracted question and its template's code. */
export interface GeneratedQuestion {
  readonly question: ExtractedQuestion;
  readonly code: string;
}

/** The questions with a successful template, in extraction order. */
export function generatedQuestions(
  questions: readonly ExtractedQuestion[],
  results: Readonly<Record<string, GeneratedTemplateOutcome>>,
): GeneratedQuestion[] {
  const found: GeneratedQuestion[] = [];
  for (const question of questions) {
    const outcome = results[question.id];
    if (outcome?.success === true && typeof outcome.template_code === "string")
      found.push({ question, code: outcome.template_code });
  }
  return found;
}

/** Ids of the batch whose question already has a real (non-placeholder) template in the working benchmark. */
export function overwrittenIds(
  batch: readonly GeneratedQuestion[],
  stored: readonly CuratorQuestion[],
): string[] {
  const withTemplate = new Set(
    stored.filter((question) => question.has_template).map((question) => question.id),
  );
  return batch.filter(({ question }) => withTemplate.has(question.id)).map(({ question }) => question.id);
}

function newQuestion({ question, code }: GeneratedQuestion): CuratorQuestionInput {
  return {
    id: question.id,
    question: question.question,
    raw_answer: question.raw_answer,
    answer_template: code,
    template_language: "Python",
    finished: false,
    date_created: question.date_created,
    author: question.author,
    sources: question.sources,
    keywords: question.keywords.length === 0 ? null : question.keywords,
    custom_metadata: question.custom_metadata,
    few_shot_examples: null,
    answer_notes: question.answer_notes,
    question_rubric: null,
  };
}

/**
 * The `upsert` that merges a batch into the working benchmark (spec 07 §1.2, Fix: merge, never replace). A new
 * question is added from its extraction; a stored one keeps its metadata, rubric and few-shot examples and only
 * takes the generated template (marked not finished, the new template is unreviewed) — unless it already has a
 * real template and `overwrite` is false, then it is left out.
 */
export function curationUpserts(
  batch: readonly GeneratedQuestion[],
  stored: readonly CuratorQuestion[],
  overwrite: boolean,
): CuratorQuestionInput[] {
  const byId = new Map(stored.map((question) => [question.id, question]));
  const upserts: CuratorQuestionInput[] = [];
  for (const item of batch) {
    const existing = byId.get(item.question.id);
    if (existing === undefined) upserts.push(newQuestion(item));
    else if (!existing.has_template || overwrite)
      upserts.push({ ...existing, answer_template: item.code, template_language: "Python", finished: false });
  }
  return upserts;
}
