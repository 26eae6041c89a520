import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ModelValidationError } from "../../model/index.js";
import { SpreadsheetColumnError, SpreadsheetError } from "./errors.js";
import { extractQuestionsFromFile, previewSpreadsheet } from "./extract-questions.js";

// Every spreadsheet below is hand-written test data.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-spreadsheet-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text, "utf8");
  return path;
}

const QA = { questionColumn: "Question", answerColumn: "Answer" } as const;

/** Awaits `promise` and returns what it rejected with, checked to be of `errorClass`. */
async function rejected<E extends Error>(
  errorClass: abstract new (...args: never[]) => E,
  promise: Promise<unknown>,
) {
  const error = await promise.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(errorClass);
  return error as E;
}

describe("CSV and TSV", () => {
  test("a CSV gives one question per row with its answer; quoted commas stay in the cell", async () => {
    const path = await file(
      "q.csv",
      'Question,Answer\n"What is 2+2, in decimal?",4\nWhat is the capital of France?, Paris \n',
    );
    const { questions, dropped_rows, warnings, total_rows, sheet } = await extractQuestionsFromFile(path, QA);
    expect(questions.map((q) => [q.question, q.raw_answer])).toEqual([
      ["What is 2+2, in decimal?", "4"],
      ["What is the capital of France?", "Paris"],
    ]);
    expect(questions[1]?.id).toBe("cb0b4aaf80c43c9973aefeda1bd72890");
    expect(questions[0]).toMatchObject({
      keywords: [],
      author: null,
      answer_notes: null,
      custom_metadata: null,
    });
    expect({ dropped_rows, warnings, total_rows, sheet }).toEqual({
      dropped_rows: [],
      warnings: [],
      total_rows: 2,
      sheet: null,
    });
  });

  test(".tsv and .txt files are tab-separated", async () => {
    const text =
      "Question\tAnswer\tNotes\nWhich gas do plants absorb?\tCO2\tcarbon dioxide, by name or formula\n";
    for (const name of ["q.tsv", "q.txt"]) {
      const { questions } = await extractQuestionsFromFile(await file(name, text), {
        ...QA,
        answerNotesColumn: "Notes",
      });
      expect(questions.map((q) => [q.question, q.raw_answer, q.answer_notes])).toEqual([
        ["Which gas do plants absorb?", "CO2", "carbon dioxide, by name or formula"],
      ]);
    }
  });

  test("rows with an empty question or answer (after trimming) are dropped and their row numbers returned", async () => {
    const path = await file("q.csv", "Question,Answer\nQ1?,A1\n   ,A2\nQ3?,\n\n,,\nQ4?,  \nQ5?,A5\n");
    const { questions, dropped_rows, total_rows } = await extractQuestionsFromFile(path, QA);
    expect(questions.map((q) => q.question)).toEqual(["Q1?", "Q5?"]);
    // Blank lines and rows of empty cells are not data rows, so they are neither counted nor dropped.
    expect(dropped_rows).toEqual([3, 4, 7]);
    expect(total_rows).toBe(5);
  });

  test("keywords from several columns are split by their separators, trimmed, de-duplicated and sorted", async () => {
    const path = await file(
      "q.csv",
      'Question,Answer,Tags,Topics\nQ?,A,"oncology, Pharmacology ,oncology",pharmacology; biology ;\nR?,B,,\n',
    );
    const { questions } = await extractQuestionsFromFile(path, {
      ...QA,
      keywordsColumns: [{ column: "Tags" }, { column: "Topics", separator: ";" }],
    });
    expect(questions[0]?.keywords).toEqual(["Pharmacology", "biology", "oncology", "pharmacology"]);
    expect(questions[1]?.keywords).toEqual([]);
  });

  test("the author is a schema.org Person built from the non-empty author cells, or null", async () => {
    const path = await file(
      "q.csv",
      "Question,Answer,Who,Mail,Lab\nQ1?,A,Ada Lovelace,ada@example.org,\nQ2?,B,,,Analytical Society\nQ3?,C,,,\n",
    );
    const { questions } = await extractQuestionsFromFile(path, {
      ...QA,
      authorNameColumn: "Who",
      authorEmailColumn: "Mail",
      authorAffiliationColumn: "Lab",
    });
    expect(questions.map((q) => q.author)).toEqual([
      { "@type": "Person", name: "Ada Lovelace", email: "ada@example.org" },
      { "@type": "Person", affiliation: "Analytical Society" },
      null,
    ]);
  });

  test("custom metadata keeps numbers as numbers, holds the url, and is null when every cell is empty", async () => {
    const path = await file(
      "q.csv",
      "Question,Answer,Link,Difficulty,Code,Score,Mixed\n" +
        "Q1?,A,https://example.org/q1,3,007,1.50,12\n" +
        "Q2?,B,,4.5,12,2,n/a\n" +
        "Q3?,C,,,,,\n",
    );
    const { questions } = await extractQuestionsFromFile(path, {
      ...QA,
      urlColumn: "Link",
      customMetadataColumns: ["Difficulty", "Code", "Score", "Mixed"],
    });
    // A number keeps its type only when the text is how that number prints ("007" and "1.50" would change),
    // and, as in pandas, only when every cell of its column is a number.
    expect(questions.map((q) => q.custom_metadata)).toEqual([
      { url: "https://example.org/q1", Difficulty: 3, Code: "007", Score: "1.50", Mixed: "12" },
      { Difficulty: 4.5, Code: "12", Score: "2", Mixed: "n/a" },
      null,
    ]);
  });

  test("a row with more cells than the header is refused: an unquoted comma would cut the question short", async () => {
    const path = await file("q.csv", "Question,Answer\nWhat is 2+2, in decimal?,4\n");
    const error = await rejected(SpreadsheetError, extractQuestionsFromFile(path, QA));
    expect(error.message).toBe(
      `${path}: row 2 has 3 cells but the header has 2 columns (a cell holding the separator must be quoted)`,
    );
  });

  test("empty and repeated headers are named as pandas names them", async () => {
    const path = await file("q.csv", "Question,Answer,,Tag,Tag\nQ?,A,x,t1,t2\n");
    const { questions } = await extractQuestionsFromFile(path, {
      ...QA,
      keywordsColumns: [{ column: "Tag" }, { column: "Tag.1" }],
      customMetadataColumns: ["Unnamed: 2"],
    });
    expect(questions[0]).toMatchObject({ keywords: ["t1", "t2"], custom_metadata: { "Unnamed: 2": "x" } });
  });
});

describe("XLSX", () => {
  async function workbook(): Promise<string> {
    const book = new ExcelJS.Workbook();
    const first = book.addWorksheet("Drafts");
    first.addRow(["Question", "Answer"]);
    first.addRow(["Draft question?", "Draft answer"]);
    const second = book.addWorksheet("Final");
    second.addRow(["Question", "Answer", "Chromosomes", "Reviewed", "Added", "Doubled", "Tags", "Checked"]);
    second.addRow([
      "How many chromosomes are in a human somatic cell?",
      46,
      46,
      new Date(Date.UTC(2024, 2, 1)),
      new Date(Date.UTC(2024, 2, 1, 14, 30, 0)),
      { formula: "C2*2", result: 92 },
      { richText: [{ text: "genetics, " }, { text: "biology", font: { bold: true } }] },
      true,
    ]);
    second.addRow([]);
    second.addRow([null, "answer without question"]);
    const path = join(dir, "questions.xlsx");
    await book.xlsx.writeFile(path);
    return path;
  }

  test("the first sheet is read by default", async () => {
    const { questions, sheet } = await extractQuestionsFromFile(await workbook(), QA);
    expect(sheet).toBe("Drafts");
    expect(questions.map((q) => q.question)).toEqual(["Draft question?"]);
  });

  test("a named sheet is read with native cell types: numbers, ISO dates, formula results, rich text", async () => {
    const result = await extractQuestionsFromFile(await workbook(), {
      ...QA,
      sheet: "Final",
      keywordsColumns: [{ column: "Tags" }],
      customMetadataColumns: ["Chromosomes", "Reviewed", "Added", "Doubled", "Checked"],
    });
    expect(result.sheet).toBe("Final");
    expect(result.dropped_rows).toEqual([4]);
    expect(result.questions).toHaveLength(1);
    expect(result.questions[0]).toMatchObject({
      raw_answer: "46",
      keywords: ["biology", "genetics"],
      custom_metadata: {
        Chromosomes: 46,
        Reviewed: "2024-03-01",
        Added: "2024-03-01T14:30:00",
        Doubled: 92,
        Checked: true,
      },
    });
  });

  test("an unknown sheet is an error listing the sheets there are", async () => {
    const path = await workbook();
    const error = await rejected(SpreadsheetError, extractQuestionsFromFile(path, { ...QA, sheet: "final" }));
    expect(error.message).toBe(`${path}: no sheet named "final" (sheets: "Drafts", "Final")`);
  });
});

describe("errors and warnings", () => {
  test("a missing file is an error naming it", async () => {
    const path = join(dir, "nope.csv");
    const error = await rejected(SpreadsheetError, extractQuestionsFromFile(path, QA));
    expect(error.message).toBe(`${path}: no such file`);
  });

  test("an unsupported extension is refused before reading; .xls is told to be saved as .xlsx", async () => {
    const json = await rejected(SpreadsheetError, extractQuestionsFromFile(join(dir, "q.json"), QA));
    expect(json.message).toContain('unsupported file type ".json"; expected .xlsx, .csv, .tsv or .txt');
    const xls = await rejected(SpreadsheetError, extractQuestionsFromFile(join(dir, "old.XLS"), QA));
    expect(xls.message).toContain("save it as .xlsx");
  });

  test("missing required columns are named with the closest header, and every column is listed", async () => {
    const path = await file("q.csv", "question,Reference answer,Notes\nQ?,A,N\n");
    const error = await rejected(
      SpreadsheetColumnError,
      extractQuestionsFromFile(path, { questionColumn: "Question", answerColumn: "Answer" }),
    );
    expect(error.message).toBe(
      `${path}: missing required columns "Question" (question; did you mean "question"?), "Answer" (answer); ` +
        'the file has columns "question", "Reference answer", "Notes"',
    );
    expect(error.missing.map((m) => m.column)).toEqual(["Question", "Answer"]);
  });

  test("an absent optional column is ignored with a warning that suggests the closest header", async () => {
    const path = await file("q.csv", "Question,Answer,Url\nQ?,A,https://example.org\n");
    const { questions, warnings } = await extractQuestionsFromFile(path, {
      ...QA,
      urlColumn: "URL",
      answerNotesColumn: "Notes",
    });
    expect(questions).toHaveLength(1);
    expect(questions[0]?.custom_metadata).toBeNull();
    expect(warnings).toEqual([
      `${path}: no url column "URL"; ignored (did you mean "Url"?)`,
      `${path}: no answer notes column "Notes"; ignored`,
    ]);
  });

  test("a sheet named for a CSV file is ignored with a warning", async () => {
    const path = await file("q.csv", "Question,Answer\nQ?,A\n");
    const { questions, warnings } = await extractQuestionsFromFile(path, { ...QA, sheet: "Final" });
    expect(questions).toHaveLength(1);
    expect(warnings).toEqual([`${path}: sheet "Final" ignored: only .xlsx files have sheets`]);
  });

  test("an invalid mapping is refused with the field at fault", async () => {
    const path = await file("q.csv", "Question,Answer\nQ?,A\n");
    const error = await rejected(
      ModelValidationError,
      extractQuestionsFromFile(path, { ...QA, keywordsColumns: [{ column: "Tags", separator: "" }] }),
    );
    expect(error.message).toContain("keywordsColumns[0].separator: must be a non-empty separator");
  });
});

describe("previewSpreadsheet", () => {
  test("gives the columns, the row count and the first rows as text", async () => {
    const path = await file("q.csv", "Question,Answer,Year\nQ1?,A1,2020\nQ2?,,2021\nQ3?,A3,\n");
    expect(await previewSpreadsheet(path, { rows: 2 })).toEqual({
      success: true,
      total_rows: 3,
      columns: ["Question", "Answer", "Year"],
      preview_rows: 2,
      data: [
        { Question: "Q1?", Answer: "A1", Year: "2020" },
        { Question: "Q2?", Answer: "", Year: "2021" },
      ],
      sheet: null,
      sheets: null,
    });
  });

  test("reports a file it cannot read instead of throwing", async () => {
    const path = join(dir, "q.xls");
    const preview = await previewSpreadsheet(path);
    expect(preview.success).toBe(false);
    expect(preview).toMatchObject({ error: expect.stringContaining(`${path}: the old Excel .xls format`) });
  });
});
