import type { z } from "zod";
import { type Benchmark, datasetMetadataOf, setDatasetMetadata } from "../../benchmark/index.js";
import { KareninaError } from "../../errors/index.js";
import type { Storage } from "../../storage/index.js";
import type { Curation, CurationSaved, CuratorQuestion } from "../api-types/curator.js";
import { ApiError } from "../core/index.js";
import { libraryCall } from "../databases/index.js";
import { applyCuratorQuestion, curatorQuestionOf, type RawQuestionValues } from "./curator-question.js";
import type { CurationChangesSchema, NewQuestionSchema } from "./schemas.js";

type CurationChanges = z.infer<typeof CurationChangesSchema>;
type NewQuestion = z.infer<typeof NewQuestionSchema>;

/** Everything the curator shows of a benchmark, in benchmark order. */
export function curationOf(bench: Benchmark): Curation {
  return {
    name: bench.name,
    metadata: datasetMetadataOf(bench),
    global_rubric: bench.getGlobalRubric(),
    questions: bench.getQuestionIds().map((id) => curatorQuestionOf(bench, id)),
  };
}

/** `GET …/curation`: the stored benchmark as the curator edits it. */
export async function loadCuration(storage: Storage, name: string): Promise<Curation> {
  return curationOf(await libraryCall(() => storage.loadBenchmark(name)));
}

/** The raw body's values the schema would lose (`__proto__` keys), per upserted question and for `custom`. */
export interface RawCurationValues {
  readonly upsert: readonly RawQuestionValues[];
  readonly metadataCustom?: unknown;
}

/** A 422 naming the question and the field (`upsert["<id>"].<field>: ...`). */
function questionProblem(id: string, field: string, reason: string): ApiError {
  const where = `body.upsert[${JSON.stringify(id)}]${field ? `.${field}` : ""}`;
  return new ApiError(422, "invalid_request", `${where}: ${reason}`, [
    { field: where, question_id: id, message: reason },
  ]);
}

/** Runs one step of the edit, naming `where` in the 422 a library refusal becomes. */
function step<T>(where: (reason: string) => ApiError, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (KareninaError.isInstance(error)) throw where((error as Error).message);
    throw error;
  }
}

/** The field a library refusal is about, from its message (the library names it). */
function fieldOf(message: string): string {
  if (/rubric|trait/i.test(message)) return "question_rubric";
  const match = /(author|sources|custom_metadata|few_shot_examples)/.exec(message);
  return match?.[1] ?? "";
}

function checkChanges(changes: CurationChanges): void {
  const seen = new Set<string>();
  for (const question of changes.upsert) {
    if (seen.has(question.id)) throw questionProblem(question.id, "id", "sent twice in one save");
    seen.add(question.id);
    if (changes.delete.includes(question.id)) {
      throw questionProblem(question.id, "id", "both upserted and deleted in one save");
    }
  }
}

/**
 * `PATCH …/curation`: an incremental save in one transaction. Upserts (new ids appended, in the order sent),
 * deletes (ids the benchmark lacks are ignored, so a retried autosave succeeds), the whole order, the global
 * rubric and the dataset metadata are applied with the library's own methods; only the touched rows are written.
 * @throws {ApiError} 404 for an unknown benchmark; 422 naming the question id and field, the order, or a rename.
 */
export async function saveCuration(
  storage: Storage,
  name: string,
  changes: CurationChanges,
  raw: RawCurationValues,
): Promise<CurationSaved> {
  checkChanges(changes);
  const saved = await libraryCall(() =>
    storage.saveBenchmarkChanges(name, (bench) => {
      if (changes.metadata?.name !== undefined && changes.metadata.name !== name) {
        throw new ApiError(
          422,
          "rename_not_supported",
          `body.metadata.name: a curation save cannot rename benchmark ${JSON.stringify(name)}; keep the name (renaming is not supported yet)`,
        );
      }
      const deleted = changes.delete.filter((id) => bench.removeQuestion(id));
      changes.upsert.forEach((question, index) => {
        step(
          (reason) => questionProblem(question.id, fieldOf(reason), reason),
          () => applyCuratorQuestion(bench, question, raw.upsert[index] ?? {}),
        );
      });
      if (changes.order !== undefined) {
        const order = changes.order;
        step(
          (reason) => new ApiError(422, "invalid_request", `body.order: ${reason}`),
          () => bench.reorderQuestions(order),
        );
      }
      if (changes.global_rubric !== undefined) {
        const rubric = changes.global_rubric;
        step(
          (reason) => new ApiError(422, "invalid_request", `body.global_rubric: ${reason}`),
          () => bench.setGlobalRubric(rubric),
        );
      }
      if (changes.metadata !== undefined) {
        const metadata = changes.metadata;
        const custom = raw.metadataCustom ?? metadata.custom;
        setDatasetMetadata(bench, {
          ...metadata,
          ...(custom === undefined ? {} : { custom: custom as Record<string, unknown> }),
        });
      }
      return { changed: changes.upsert.map((q) => q.id), removed: deleted };
    }),
  );
  const bench = saved.benchmark;
  return {
    name,
    question_count: bench.questionCount,
    finished_count: bench.finishedCount,
    saved_questions: saved.changes.changed.map((id) => curatorQuestionOf(bench, id)),
    deleted: saved.changes.removed,
    last_modified: new Date().toISOString(),
  };
}

/**
 * `POST …/curation/questions`: a new question with the library's id rules and placeholder, unfinished as in the
 * original GUI; `clone_of` copies the template, metadata, rubric and few-shot examples under "[CLONED] " text;
 * `after_id` places it right after that question.
 * @throws {ApiError} 404 for an unknown benchmark, `clone_of` or `after_id`.
 */
export async function addCurationQuestion(
  storage: Storage,
  name: string,
  request: NewQuestion,
): Promise<CuratorQuestion> {
  const saved = await libraryCall(() =>
    storage.saveBenchmarkChanges(name, (bench) => {
      const known = (id: string | undefined, field: string) => {
        if (id !== undefined && !bench.has(id)) {
          throw new ApiError(
            404,
            "not_found",
            `body.${field}: no question ${JSON.stringify(id)} in the benchmark`,
          );
        }
      };
      known(request.clone_of, "clone_of");
      known(request.after_id, "after_id");
      const id = request.clone_of === undefined ? addNew(bench, request) : addClone(bench, request.clone_of);
      if (request.after_id !== undefined) {
        const others = bench.getQuestionIds().filter((other) => other !== id);
        others.splice(others.indexOf(request.after_id) + 1, 0, id);
        bench.reorderQuestions(others);
      }
      return { changed: [id], removed: [] };
    }),
  );
  const [id] = saved.changes.changed;
  return curatorQuestionOf(saved.benchmark, id as string);
}

function addNew(bench: Benchmark, request: NewQuestion): string {
  const id = bench.addQuestion(request.question, request.raw_answer, {
    finished: false,
    ...(request.author === undefined ? {} : { author: request.author }),
    ...(request.keywords === undefined ? {} : { keywords: request.keywords }),
  });
  if (request.answer_template !== undefined && request.answer_template.trim() !== "") {
    bench.updateQuestion(id, { answer_template: request.answer_template });
  }
  return id;
}

function addClone(bench: Benchmark, sourceId: string): string {
  const source = bench.getQuestion(sourceId);
  const id = bench.addQuestion(`[CLONED] ${source.question}`, source.raw_answer, {
    finished: false,
    author: (source.author as Record<string, unknown> | null) ?? null,
    sources: (source.sources as Record<string, unknown>[] | null) ?? null,
    customMetadata: source.custom_metadata,
    fewShotExamples: (source.few_shot_examples as Record<string, string>[] | null) ?? null,
    answerNotes: source.answer_notes,
    keywords: source.keywords,
  });
  // The source's placeholder names the source's text: the clone keeps its own placeholder instead.
  if (bench.hasTemplate(sourceId)) {
    bench.updateQuestion(id, {
      answer_template: source.answer_template,
      template_language: bench.getTemplateLanguage(sourceId),
    });
  }
  if (source.question_rubric !== null) bench.setQuestionRubric(id, source.question_rubric);
  return id;
}
