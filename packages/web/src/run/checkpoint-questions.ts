import type { DataFeed } from "../library-types/index.js";
import { md5Hex } from "./md5.js";

/** A question of the working benchmark as Test Selection lists it. */
export interface RunQuestion {
  readonly id: string;
  readonly text: string;
  readonly answer: string;
  readonly finished: boolean;
  readonly lastModified: string | null;
  /** The MD5 of the question text: the key of its manual trace. */
  readonly hash: string;
  /** Its few-shot examples (for the custom few-shot picker). */
  readonly fewShotExamples: readonly FewShotExampleRef[];
}

/**
 * A question's few-shot example as the custom picker shows it: `ref` is what `selected_examples` holds, the MD5
 * of the example's question (the library reads a string reference as that MD5, a number as an index).
 */
export interface FewShotExampleRef {
  readonly ref: string;
  readonly question: string;
}

interface PropertyLike {
  readonly name?: unknown;
  readonly value?: unknown;
}

function propertyValue(properties: unknown, name: string): unknown {
  if (!Array.isArray(properties)) return undefined;
  return (properties as PropertyLike[]).find((property) => property?.name === name)?.value;
}

function fewShotExamples(value: unknown): FewShotExampleRef[] {
  let examples = value;
  if (typeof value === "string") {
    try {
      examples = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(examples)) return [];
  return examples.flatMap((example) => {
    const question = (example as { question?: unknown } | null)?.question;
    return typeof question === "string" ? [{ ref: md5Hex(question), question }] : [];
  });
}

/** The questions of a stored checkpoint (`GET /api/v2/benchmarks/{name}`), in its order. */
export function questionsOfCheckpoint(checkpoint: DataFeed): RunQuestion[] {
  return checkpoint.dataFeedElement.map((element) => {
    const item = element.item as unknown as Record<string, unknown>;
    const text = typeof item.text === "string" ? item.text : "";
    const answer = (item.acceptedAnswer as { text?: unknown } | undefined)?.text;
    const modified = (element as unknown as { dateModified?: unknown }).dateModified;
    return {
      id: String(element["@id"]),
      text,
      answer: typeof answer === "string" ? answer : "",
      finished: propertyValue(item.additionalProperty, "finished") === true,
      lastModified: typeof modified === "string" ? modified : null,
      hash: md5Hex(text),
      fewShotExamples: fewShotExamples(propertyValue(item.additionalProperty, "few_shot_examples")),
    };
  });
}

/** Those of `questions` whose id or text contains `search` (case-insensitive). */
export function matchingQuestions(questions: readonly RunQuestion[], search: string): RunQuestion[] {
  const needle = search.trim().toLowerCase();
  if (needle === "") return [...questions];
  return questions.filter(
    (q) => q.id.toLowerCase().includes(needle) || q.text.toLowerCase().includes(needle),
  );
}
