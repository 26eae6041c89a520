import { describe, expect, test } from "vitest";
import { curation, question } from "./__fixtures__/curation.js";
import {
  entryLabel,
  filterQuestions,
  neighbourOf,
  searchKeyOf,
  selectionAfterDelete,
} from "./navigator-filter.js";

const questions = [
  question(1, { question: "Capital of France?", raw_answer: "Paris", finished: true }),
  question(2, { question: "Largest planet?", raw_answer: "Jupiter" }),
  question(3, { id: "urn:uuid:special-ID", question: "Smallest prime?", raw_answer: "2", finished: true }),
];
const keys = questions.map(searchKeyOf);

describe("the navigator's search and filter", () => {
  test("search is a case-insensitive substring over question, raw answer and id", () => {
    const ids = (search: string) => filterQuestions(questions, keys, search, "all").map((e) => e.question.id);
    expect(ids("FRANCE")).toEqual(["urn:uuid:question-1"]);
    expect(ids("jupiter")).toEqual(["urn:uuid:question-2"]);
    expect(ids("special-id")).toEqual(["urn:uuid:special-ID"]);
    expect(ids("  ")).toHaveLength(3);
    expect(ids("nothing like it")).toEqual([]);
  });

  test("the finished filter combines with the search, and numbers stay the benchmark's", () => {
    expect(filterQuestions(questions, keys, "", "unfinished").map((e) => e.number)).toEqual([2]);
    expect(filterQuestions(questions, keys, "?", "finished").map((e) => e.number)).toEqual([1, 3]);
  });

  test("labels are the number and the first 60 characters", () => {
    const long = question(4, { question: `${"x".repeat(70)}` });
    expect(entryLabel({ question: long, number: 12 })).toBe(`12. ${"x".repeat(60)}…`);
    expect(entryLabel({ question: questions[0] ?? long, number: 1 })).toBe("1. Capital of France?");
  });

  test("previous and next move over the filtered list and stop at its ends", () => {
    const finished = filterQuestions(questions, keys, "", "finished");
    expect(neighbourOf(finished, "urn:uuid:question-1", 1)).toBe("urn:uuid:special-ID");
    expect(neighbourOf(finished, "urn:uuid:question-1", -1)).toBeUndefined();
    expect(neighbourOf(finished, "urn:uuid:question-2", 1)).toBeUndefined();
  });

  test("after a delete the next question is shown, or the previous one when it was the last", () => {
    const all = curation(3).questions;
    expect(selectionAfterDelete(all, "urn:uuid:question-2")).toBe("urn:uuid:question-3");
    expect(selectionAfterDelete(all, "urn:uuid:question-3")).toBe("urn:uuid:question-2");
    expect(selectionAfterDelete(all.slice(0, 1), "urn:uuid:question-1")).toBeUndefined();
  });

  test("5,000 questions filter in one pass (the list is built, not rendered)", () => {
    const many = curation(5000).questions;
    const manyKeys = many.map(searchKeyOf);
    expect(filterQuestions(many, manyKeys, "question 4999", "all").map((e) => e.number)).toEqual([4999]);
  });
});
