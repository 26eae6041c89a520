import type {
  ExtractedQuestion,
  FilePreview,
  GeneratedTemplateOutcome,
  QuestionExtractionRequest,
  UploadedFile,
} from "../library-types/index.js";
import { defineSlice } from "../session/index.js";

/** The extraction wizard's steps (spec 07 §1.1): upload → preview/configure → visualize. */
export type WizardStep = "upload" | "configure" | "done";

/** A keyword column and the separator between its keywords. */
export interface KeywordColumnDraft {
  readonly column: string;
  readonly separator: string;
}

/** The column mapping as the selects hold it: "" = not chosen ("None (skip)"). */
export interface MappingDraft {
  readonly question: string;
  readonly answer: string;
  readonly authorName: string;
  readonly authorEmail: string;
  readonly authorAffiliation: string;
  readonly url: string;
  readonly answerNotes: string;
  readonly keywords: readonly KeywordColumnDraft[];
}

/** The generator model as the form holds it (its API key is never stored: it stays in the page's memory). */
export interface GeneratorSettings {
  readonly interface: string;
  readonly provider: string;
  readonly model: string;
  readonly temperature: number;
  readonly endpointBaseUrl: string;
}

/** Who generated the templates of the results table (its summary line). */
export interface ResultsModel {
  readonly name: string;
  readonly provider: string | null;
  readonly interface: string;
  readonly temperature: number;
}

/** Tab 1's state, kept in the session so tab switches and reloads keep the wizard and the templates. */
export interface GenerateState {
  readonly step: WizardStep;
  readonly upload: UploadedFile | null;
  readonly preview: FilePreview | null;
  readonly mapping: MappingDraft;
  readonly questions: readonly ExtractedQuestion[];
  readonly warnings: readonly string[];
  /** The generator's selected question ids; null until the user changes it (then: every pending question). */
  readonly selection: readonly string[] | null;
  readonly generator: GeneratorSettings | null;
  /** The running generation job, so a reloaded page reattaches to it. */
  readonly jobId: string | null;
  readonly results: Readonly<Record<string, GeneratedTemplateOutcome>>;
  readonly resultsModel: ResultsModel | null;
}

export const EMPTY_MAPPING: MappingDraft = {
  question: "",
  answer: "",
  authorName: "",
  authorEmail: "",
  authorAffiliation: "",
  url: "",
  answerNotes: "",
  keywords: [{ column: "", separator: "," }],
};

export const INITIAL_GENERATE_STATE: GenerateState = {
  step: "upload",
  upload: null,
  preview: null,
  mapping: EMPTY_MAPPING,
  questions: [],
  warnings: [],
  selection: null,
  generator: null,
  jobId: null,
  results: {},
  resultsModel: null,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const generateSlice = defineSlice<GenerateState>({
  key: "generate",
  version: 1,
  initial: INITIAL_GENERATE_STATE,
  parse: (stored) => {
    if (!isObject(stored)) return undefined;
    const { step, mapping, questions, results, selection, jobId } = stored;
    if (step !== "upload" && step !== "configure" && step !== "done") return undefined;
    if (!isObject(mapping) || !Array.isArray(mapping.keywords)) return undefined;
    if (!Array.isArray(questions) || !isObject(results)) return undefined;
    if (selection !== null && !Array.isArray(selection)) return undefined;
    if (jobId !== null && typeof jobId !== "string") return undefined;
    return { ...INITIAL_GENERATE_STATE, ...(stored as Partial<GenerateState>) };
  },
});

/** The extraction request of a mapping (only the chosen optional columns). */
export function extractionRequest(mapping: MappingDraft, sheet: string | null): QuestionExtractionRequest {
  const optional = (value: string) => (value === "" ? undefined : value);
  const request: Record<string, unknown> = {
    questionColumn: mapping.question,
    answerColumn: mapping.answer,
    sheet: sheet ?? undefined,
    authorNameColumn: optional(mapping.authorName),
    authorEmailColumn: optional(mapping.authorEmail),
    authorAffiliationColumn: optional(mapping.authorAffiliation),
    urlColumn: optional(mapping.url),
    answerNotesColumn: optional(mapping.answerNotes),
    keywordsColumns: mapping.keywords
      .filter((keyword) => keyword.column !== "")
      .map((keyword) => ({
        column: keyword.column,
        separator: keyword.separator === "" ? "," : keyword.separator,
      })),
  };
  for (const key of Object.keys(request)) if (request[key] === undefined) delete request[key];
  return request as QuestionExtractionRequest;
}

/** Why Extract is disabled, or null when both required columns are chosen. */
export function extractBlocker(mapping: MappingDraft): string | null {
  if (mapping.question === "" && mapping.answer === "") return "Choose the question and answer columns.";
  if (mapping.question === "") return "Choose the question column.";
  if (mapping.answer === "") return "Choose the answer column.";
  if (mapping.question === mapping.answer) return "The question and answer columns must differ.";
  return null;
}

/** The keywords a row yields with these keyword columns: split, trimmed, merged, de-duplicated, sorted. */
export function keywordsOfRow(
  row: Readonly<Record<string, string>>,
  columns: readonly KeywordColumnDraft[],
): string[] {
  const found = new Set<string>();
  for (const { column, separator } of columns) {
    if (column === "") continue;
    for (const part of (row[column] ?? "").split(separator === "" ? "," : separator)) {
      const keyword = part.trim();
      if (keyword !== "") found.add(keyword);
    }
  }
  return [...found].sort();
}

/** The first non-empty values of `column` in the preview (shown beside each chosen column). */
export function sampleValues(
  rows: readonly Readonly<Record<string, string>>[],
  column: string,
  count = 3,
): string[] {
  const values: string[] = [];
  for (const row of rows) {
    const value = row[column]?.trim() ?? "";
    if (value !== "") values.push(value);
    if (values.length === count) break;
  }
  return values;
}

/** Ids of the questions without a successful template ("pending": the generator's initial selection). */
export function pendingIds(
  questions: readonly ExtractedQuestion[],
  results: Readonly<Record<string, GeneratedTemplateOutcome>>,
): string[] {
  return questions
    .filter((question) => results[question.id]?.success !== true)
    .map((question) => question.id);
}

/** Case-insensitive search on question, answer and id. */
export function matchesSearch(question: ExtractedQuestion, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  return [question.question, question.raw_answer, question.id].some((text) =>
    text.toLowerCase().includes(needle),
  );
}
