import { describe, expect, test } from "vitest";
import type { ExtractedQuestion } from "../library-types/index.js";
import {
  EMPTY_MAPPING,
  extractBlocker,
  extractionRequest,
  generateSlice,
  INITIAL_GENERATE_STATE,
  keywordsOfRow,
  matchesSearch,
  pendingIds,
  sampleValues,
} from "./generate-state.js";

const question = (id: string, text: string, answer = "x"): ExtractedQuestion =>
  ({ id, question: text, raw_answer: answer }) as ExtractedQuestion;

describe("the extraction mapping", () => {
  test("Extract waits for both required columns and says which is missing", () => {
    expect(extractBlocker(EMPTY_MAPPING)).toBe("Choose the question and answer columns.");
    expect(extractBlocker({ ...EMPTY_MAPPING, question: "Q" })).toBe("Choose the answer column.");
    expect(extractBlocker({ ...EMPTY_MAPPING, answer: "A" })).toBe("Choose the question column.");
    expect(extractBlocker({ ...EMPTY_MAPPING, question: "Q", answer: "Q" })).toMatch(/must differ/);
    expect(extractBlocker({ ...EMPTY_MAPPING, question: "Q", answer: "A" })).toBeNull();
  });

  test("the request carries only the chosen columns, keyword separators defaulting to a comma", () => {
    const request = extractionRequest(
      {
        ...EMPTY_MAPPING,
        question: "Q",
        answer: "A",
        answerNotes: "Notes",
        keywords: [
          { column: "Tags", separator: ";" },
          { column: "", separator: "," },
          { column: "More", separator: "" },
        ],
      },
      "Sheet2",
    );
    expect(request).toEqual({
      questionColumn: "Q",
      answerColumn: "A",
      sheet: "Sheet2",
      answerNotesColumn: "Notes",
      keywordsColumns: [
        { column: "Tags", separator: ";" },
        { column: "More", separator: "," },
      ],
    });
  });

  test("keyword preview splits, trims, merges, de-duplicates and sorts", () => {
    const row = { Tags: "b; a ;", More: "a,c" };
    expect(
      keywordsOfRow(row, [
        { column: "Tags", separator: ";" },
        { column: "More", separator: "," },
      ]),
    ).toEqual(["a", "b", "c"]);
  });

  test("sample values skip blank cells", () => {
    expect(sampleValues([{ A: "" }, { A: "1" }, { A: " 2 " }, { A: "3" }, { A: "4" }], "A")).toEqual([
      "1",
      "2",
      "3",
    ]);
  });
});

describe("the generator's selection", () => {
  test("pending = questions without a successful template; search looks at question, answer and id", () => {
    const questions = [
      question("id1", "What is X?"),
      question("id2", "Which Y?", "yes"),
      question("id3", "Z?"),
    ];
    expect(
      pendingIds(questions, { id1: { success: true, template_code: "c" }, id2: { success: false } }),
    ).toEqual(["id2", "id3"]);
    expect(questions.filter((q) => matchesSearch(q, "which")).map((q) => q.id)).toEqual(["id2"]);
    expect(questions.filter((q) => matchesSearch(q, "YES")).map((q) => q.id)).toEqual(["id2"]);
    expect(questions.filter((q) => matchesSearch(q, "id3")).map((q) => q.id)).toEqual(["id3"]);
  });

  test("the session slice drops a stored value that is not its shape", () => {
    expect(generateSlice.parse({ step: "elsewhere" })).toBeUndefined();
    expect(generateSlice.parse(null)).toBeUndefined();
    expect(generateSlice.parse({ ...INITIAL_GENERATE_STATE, jobId: "j1" })?.jobId).toBe("j1");
  });
});
