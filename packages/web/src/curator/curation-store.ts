import type {
  Curation,
  CurationChanges,
  CurationSaved,
  CuratorQuestion,
  CuratorQuestionInput,
  Rubric,
} from "../library-types/index.js";

/**
 * The curator's loaded benchmark and its autosave queue, as pure functions of a state (the React hook in
 * `use-curation.ts` runs them). Every mutation but template drafts is applied here at once and queued; the
 * queue is sent as one incremental PATCH (changed questions only, spec 07 §3) and put back when that fails, so
 * no edit is lost.
 */

/** Dataset metadata fields a save may change. */
export type MetadataChanges = NonNullable<CurationChanges["metadata"]>;

/** What is waiting to be written. */
export interface PendingChanges {
  /** Ids of changed questions (their current state is sent). */
  readonly questionIds: readonly string[];
  readonly deleted: readonly string[];
  readonly orderChanged: boolean;
  readonly metadata?: MetadataChanges;
  readonly globalRubric?: { readonly rubric: Rubric | null };
}

export const NO_CHANGES: PendingChanges = { questionIds: [], deleted: [], orderChanged: false };

export type SaveStatus =
  | { readonly state: "idle" }
  | { readonly state: "saving" }
  | { readonly state: "saved"; readonly at: string }
  | { readonly state: "failed"; readonly message: string };

export interface CurationState {
  readonly name: string;
  readonly metadata: Curation["metadata"];
  /** The global rubric as the page knows it (saved, or queued for saving). */
  readonly globalRubric: Rubric | null;
  /** In benchmark order, with `answer_template` = the saved template (drafts live apart). */
  readonly questions: readonly CuratorQuestion[];
  /** Templates as first loaded in this page (for "Modified" and the diff against the original). */
  readonly originals: Readonly<Record<string, string>>;
  readonly pending: PendingChanges;
  /** What is being sent now (kept to put back when the save fails). */
  readonly inFlight: PendingChanges | null;
  readonly save: SaveStatus;
}

/** The state of a freshly loaded curation; `originals` are kept from an earlier load of the same page. */
export function loadedState(
  curation: Curation,
  originals: Readonly<Record<string, string>> = {},
): CurationState {
  const first: Record<string, string> = {};
  for (const question of curation.questions)
    first[question.id] = originals[question.id] ?? question.answer_template;
  return {
    name: curation.name,
    metadata: curation.metadata,
    globalRubric: curation.global_rubric,
    questions: curation.questions,
    originals: first,
    pending: NO_CHANGES,
    inFlight: null,
    save: { state: "idle" },
  };
}

export function hasChanges(changes: PendingChanges): boolean {
  return (
    changes.questionIds.length > 0 ||
    changes.deleted.length > 0 ||
    changes.orderChanged ||
    changes.metadata !== undefined ||
    changes.globalRubric !== undefined
  );
}

function withIds(ids: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...ids, ...added])];
}

/** Two queues as one (the later one's metadata and rubric win; a deleted question is no longer upserted). */
export function mergeChanges(earlier: PendingChanges, later: PendingChanges): PendingChanges {
  const deleted = withIds(earlier.deleted, later.deleted);
  const gone = new Set(deleted);
  const metadata =
    earlier.metadata === undefined && later.metadata === undefined
      ? undefined
      : { ...earlier.metadata, ...later.metadata };
  const globalRubric = later.globalRubric ?? earlier.globalRubric;
  return {
    questionIds: withIds(earlier.questionIds, later.questionIds).filter((id) => !gone.has(id)),
    deleted,
    orderChanged: earlier.orderChanged || later.orderChanged,
    ...(metadata === undefined ? {} : { metadata }),
    ...(globalRubric === undefined ? {} : { globalRubric }),
  };
}

function queued(state: CurationState, changes: Partial<PendingChanges>): CurationState {
  return { ...state, pending: mergeChanges(state.pending, { ...NO_CHANGES, ...changes }) };
}

/** Replaces one question (by id) and queues it. */
export function updateQuestion(
  state: CurationState,
  id: string,
  update: (question: CuratorQuestion) => CuratorQuestion,
): CurationState {
  let found = false;
  const questions = state.questions.map((question) => {
    if (question.id !== id) return question;
    found = true;
    return update(question);
  });
  return found ? queued({ ...state, questions }, { questionIds: [id] }) : state;
}

/** Saves template drafts: each becomes its question's saved template (sent with the next save). */
export function saveTemplates(state: CurationState, drafts: Readonly<Record<string, string>>): CurationState {
  let next = state;
  for (const [id, text] of Object.entries(drafts))
    next = updateQuestion(next, id, (question) => ({ ...question, answer_template: text }));
  return next;
}

export function toggleFinished(state: CurationState, id: string): CurationState {
  return updateQuestion(state, id, (question) => ({ ...question, finished: !question.finished }));
}

/** Adds a question the server already stored (add or clone): after `afterId`, else at the end. Not queued. */
export function insertStoredQuestion(
  state: CurationState,
  question: CuratorQuestion,
  afterId?: string,
): CurationState {
  const at = afterId === undefined ? -1 : state.questions.findIndex((q) => q.id === afterId);
  const questions =
    at < 0
      ? [...state.questions, question]
      : [...state.questions.slice(0, at + 1), question, ...state.questions.slice(at + 1)];
  return {
    ...state,
    questions,
    originals: { ...state.originals, [question.id]: question.answer_template },
  };
}

export function deleteQuestion(state: CurationState, id: string): CurationState {
  if (!state.questions.some((question) => question.id === id)) return state;
  return queued({ ...state, questions: state.questions.filter((q) => q.id !== id) }, { deleted: [id] });
}

/** Moves a question to another place in the order (queues the whole order). */
export function moveQuestion(state: CurationState, id: string, toIndex: number): CurationState {
  const from = state.questions.findIndex((question) => question.id === id);
  const moving = state.questions[from];
  if (moving === undefined || toIndex === from) return state;
  const rest = state.questions.filter((question) => question.id !== id);
  const at = Math.max(0, Math.min(toIndex, rest.length));
  return queued(
    { ...state, questions: [...rest.slice(0, at), moving, ...rest.slice(at)] },
    { orderChanged: true },
  );
}

export function setGlobalRubric(state: CurationState, rubric: Rubric | null): CurationState {
  return queued({ ...state, globalRubric: rubric }, { globalRubric: { rubric } });
}

export function setMetadata(state: CurationState, changes: MetadataChanges): CurationState {
  return queued({ ...state, metadata: { ...state.metadata, ...changes } }, { metadata: changes });
}

/** What a question sends: the fields the server computes are left out. */
function inputOf(question: CuratorQuestion): CuratorQuestionInput {
  const { has_template: _computed, date_modified: _stamped, ...input } = question;
  return input;
}

/** The PATCH body of a queue: the current state of each changed question and nothing unchanged. */
export function changesBody(state: CurationState, changes: PendingChanges): CurationChanges {
  const byId = new Map(state.questions.map((question) => [question.id, question]));
  const upsert = changes.questionIds.flatMap((id) => {
    const question = byId.get(id);
    return question === undefined ? [] : [inputOf(question)];
  });
  return {
    upsert,
    delete: [...changes.deleted],
    ...(changes.orderChanged ? { order: state.questions.map((question) => question.id) } : {}),
    ...(changes.globalRubric === undefined ? {} : { global_rubric: changes.globalRubric.rubric }),
    ...(changes.metadata === undefined ? {} : { metadata: changes.metadata }),
  };
}

/** Starts a save: the queue moves in flight (a new queue collects later edits). */
export function beginSave(state: CurationState): CurationState {
  if (state.inFlight !== null || !hasChanges(state.pending)) return state;
  return { ...state, inFlight: state.pending, pending: NO_CHANGES, save: { state: "saving" } };
}

/**
 * A save went through: the stored questions' server fields (`has_template`, `date_modified`) are taken, unless
 * the question changed again meanwhile (its newer state is queued and wins).
 */
export function saveSucceeded(state: CurationState, saved: CurationSaved): CurationState {
  const requeued = new Set(state.pending.questionIds);
  const stored = new Map(saved.saved_questions.map((question) => [question.id, question]));
  const questions = state.questions.map((question) => {
    const fresh = stored.get(question.id);
    return fresh === undefined || requeued.has(question.id) ? question : fresh;
  });
  return {
    ...state,
    questions,
    metadata: { ...state.metadata, date_modified: saved.last_modified },
    inFlight: null,
    save: { state: "saved", at: saved.last_modified },
  };
}

/** A save failed: what was in flight goes back to the queue (under any later edits) to be retried. */
export function saveFailed(state: CurationState, message: string): CurationState {
  if (state.inFlight === null) return state;
  return {
    ...state,
    pending: mergeChanges(state.inFlight, state.pending),
    inFlight: null,
    save: { state: "failed", message },
  };
}
