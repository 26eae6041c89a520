import {
  type DataFeedItem,
  newQuestionProperties,
  type SchemaOrgQuestion,
  type TemplateLanguage,
} from "../checkpoint/index.js";
import { firstCodePoints } from "../model/index.js";

/** Everything a new DataFeedItem is built from. */
export interface NewItem {
  id: string;
  text: string;
  rawAnswer: string;
  template: string;
  language: TemplateLanguage;
  finished: boolean;
  now: string;
  keywords?: string[] | null;
  author?: unknown;
  sources?: unknown;
  customMetadata?: Record<string, unknown> | null;
  fewShotExamples?: unknown;
  answerNotes?: string | null;
  workspacePath?: string | null;
}

/** The name the original gives a template: the first 30 characters of the question, then "... Answer Template". */
export function templateName(questionText: string): string {
  return `${firstCodePoints(questionText, 30)}... Answer Template`;
}

/** A DataFeedItem as the original's `add_question` writes it (spec 01 §4.3, §6.4–6.7). */
export function newItem(input: NewItem): DataFeedItem {
  const question: SchemaOrgQuestion = {
    "@type": "Question",
    text: input.text,
    acceptedAnswer: { "@type": "Answer", text: input.rawAnswer },
    hasPart: {
      "@type": "SoftwareSourceCode",
      name: templateName(input.text),
      text: input.template,
      programmingLanguage: input.language,
    },
    additionalProperty: newQuestionProperties({
      finished: input.finished,
      author: input.author,
      sources: input.sources,
      custom_metadata: input.customMetadata,
      few_shot_examples: input.fewShotExamples,
      answer_notes: input.answerNotes,
      workspace_path: input.workspacePath,
    }),
  };
  if (input.keywords && input.keywords.length > 0) question.keywords = [...input.keywords];
  return {
    "@type": "DataFeedItem",
    "@id": input.id,
    dateCreated: input.now,
    dateModified: input.now,
    item: question,
  };
}
