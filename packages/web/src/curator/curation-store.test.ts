import { describe, expect, test } from "vitest";
import { curation, question } from "./__fixtures__/curation.js";
import {
  beginSave,
  changesBody,
  deleteQuestion,
  hasChanges,
  insertStoredQuestion,
  loadedState,
  mergeChanges,
  moveQuestion,
  NO_CHANGES,
  saveFailed,
  saveSucceeded,
  saveTemplates,
  setGlobalRubric,
  setMetadata,
  toggleFinished,
} from "./curation-store.js";

const savedOf = (questions: ReturnType<typeof question>[]) => ({
  name: "bench",
  question_count: 3,
  finished_count: 0,
  saved_questions: questions,
  deleted: [],
  last_modified: "2026-02-02T12:03:00Z",
});

describe("the curation store", () => {
  test("a fresh load has nothing queued and remembers the templates as first loaded", () => {
    const state = loadedState(curation(3));
    expect(hasChanges(state.pending)).toBe(false);
    expect(state.originals["urn:uuid:question-2"]).toContain("value: int = 2");
  });

  test("a reload keeps the originals of the first load in this page", () => {
    const first = loadedState(curation(2));
    const changed = curation(2);
    changed.questions[0] = question(1, { answer_template: "saved later" });
    const again = loadedState(changed, first.originals);
    expect(again.originals["urn:uuid:question-1"]).toBe(first.originals["urn:uuid:question-1"]);
    expect(again.questions[0]?.answer_template).toBe("saved later");
  });

  test("the PATCH body holds exactly the changed question, not the others", () => {
    const state = toggleFinished(loadedState(curation(200)), "urn:uuid:question-7");
    const body = changesBody(state, state.pending);
    expect(body.upsert).toHaveLength(1);
    expect(body.upsert?.[0]).toMatchObject({ id: "urn:uuid:question-7", finished: true });
    expect(body.upsert?.[0]).not.toHaveProperty("has_template");
    expect(body.delete).toEqual([]);
    expect(body).not.toHaveProperty("order");
    expect(body).not.toHaveProperty("global_rubric");
  });

  test("saving drafts makes them the saved templates and queues those questions", () => {
    const state = saveTemplates(loadedState(curation(3)), { "urn:uuid:question-3": "new text" });
    expect(state.questions[2]?.answer_template).toBe("new text");
    expect(state.pending.questionIds).toEqual(["urn:uuid:question-3"]);
    expect(state.originals["urn:uuid:question-3"]).not.toBe("new text");
  });

  test("deleting queues the deletion and drops a queued upsert of the same question", () => {
    let state = toggleFinished(loadedState(curation(3)), "urn:uuid:question-2");
    state = deleteQuestion(state, "urn:uuid:question-2");
    expect(state.questions.map((q) => q.id)).toEqual(["urn:uuid:question-1", "urn:uuid:question-3"]);
    expect(changesBody(state, state.pending)).toMatchObject({ upsert: [], delete: ["urn:uuid:question-2"] });
  });

  test("a stored clone goes right after its source and is not queued again", () => {
    const clone = question(9, { id: "urn:uuid:clone" });
    const state = insertStoredQuestion(loadedState(curation(3)), clone, "urn:uuid:question-1");
    expect(state.questions.map((q) => q.id)[1]).toBe("urn:uuid:clone");
    expect(hasChanges(state.pending)).toBe(false);
    expect(insertStoredQuestion(state, question(10)).questions.at(-1)?.id).toBe("urn:uuid:question-10");
  });

  test("moving a question sends the whole order", () => {
    const state = moveQuestion(loadedState(curation(3)), "urn:uuid:question-3", 0);
    expect(changesBody(state, state.pending).order).toEqual([
      "urn:uuid:question-3",
      "urn:uuid:question-1",
      "urn:uuid:question-2",
    ]);
  });

  test("metadata and the global rubric are sent only when changed; the later edit wins", () => {
    let state = setMetadata(loadedState(curation(1)), { description: "a" });
    state = setMetadata(state, { version: "2.0" });
    state = setGlobalRubric(state, null);
    const body = changesBody(state, state.pending);
    expect(body.metadata).toEqual({ description: "a", version: "2.0" });
    expect(body.global_rubric).toBeNull();
    expect(state.metadata.version).toBe("2.0");
  });

  test("a failed save puts its changes back under later edits, so nothing is lost", () => {
    let state = toggleFinished(loadedState(curation(3)), "urn:uuid:question-1");
    state = beginSave(state);
    expect(state.inFlight?.questionIds).toEqual(["urn:uuid:question-1"]);
    expect(hasChanges(state.pending)).toBe(false);
    state = toggleFinished(state, "urn:uuid:question-2");
    state = saveFailed(state, "the server cannot be reached");
    expect(state.inFlight).toBeNull();
    expect(state.pending.questionIds).toEqual(["urn:uuid:question-1", "urn:uuid:question-2"]);
    expect(state.save).toEqual({ state: "failed", message: "the server cannot be reached" });
  });

  test("a successful save takes the server's fields, except for a question edited again meanwhile", () => {
    let state = toggleFinished(loadedState(curation(3)), "urn:uuid:question-1");
    state = toggleFinished(state, "urn:uuid:question-2");
    state = beginSave(state);
    state = toggleFinished(state, "urn:uuid:question-2");
    const stored = [
      question(1, { finished: true, date_modified: "2026-02-02T12:03:00Z" }),
      question(2, { finished: true, date_modified: "2026-02-02T12:03:00Z" }),
    ];
    state = saveSucceeded(state, savedOf(stored));
    expect(state.questions[0]?.date_modified).toBe("2026-02-02T12:03:00Z");
    expect(state.questions[1]?.finished).toBe(false);
    expect(state.pending.questionIds).toEqual(["urn:uuid:question-2"]);
    expect(state.save).toEqual({ state: "saved", at: "2026-02-02T12:03:00Z" });
  });

  test("merging queues keeps every id once", () => {
    const merged = mergeChanges(
      { ...NO_CHANGES, questionIds: ["a", "b"] },
      { ...NO_CHANGES, questionIds: ["b", "c"], deleted: ["a"] },
    );
    expect(merged.questionIds).toEqual(["b", "c"]);
    expect(merged.deleted).toEqual(["a"]);
  });
});
