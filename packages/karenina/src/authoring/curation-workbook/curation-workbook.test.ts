/**
 * The curation workbook (spec 06 §7), written and read back with exceljs as a reviewer's spreadsheet would be.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { CLASSIC_TEMPLATE } from "../../test-support/classic-template.js";
import { AnswerBuilder } from "../answer-builder/index.js";
import { CURATION_COLUMNS, exportCurationWorkbook } from "./index.js";

const bench = Benchmark.create({ name: "Drug targets", version: "2.0.0" });
afterAll(() => bench.close());

async function readBack(path: string) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const rows = (name: string) => {
    const out: string[][] = [];
    book.getWorksheet(name)?.eachRow((row) => {
      out.push((row.values as unknown[]).slice(1).map((value) => (value == null ? "" : String(value))));
    });
    return out;
  };
  return { book, curation: rows("Curation"), summary: rows("Summary") };
}

test("one row per field to review, the reference values, a status per question and a summary sheet", async () => {
  const generated = bench.addQuestion("What does venetoclax target?", "BCL2", {
    questionId: "generated",
    finished: false,
    answerTemplate: new AnswerBuilder()
      .addAttribute("target", "str", "The protein the drug targets", "BCL2")
      .addAttribute("approved", "bool", "Whether the drug is approved", true)
      .compile(),
  });
  bench.addQuestion('=HYPERLINK("http://x")', "no template", { questionId: "draft", finished: false });
  bench.addQuestion("What is the capital of France?", "Paris", {
    questionId: "classic",
    answerTemplate: CLASSIC_TEMPLATE,
  });
  const path = join(await mkdtemp(join(tmpdir(), "karenina-curation-")), "review.xlsx");
  const summary = await exportCurationWorkbook(bench, path);
  const { book, curation, summary: facts } = await readBack(path);

  expect(book.worksheets.map((sheet) => sheet.name)).toEqual(["Curation", "Summary"]);
  expect(curation[0]).toEqual([...CURATION_COLUMNS]);
  for (const column of ["Reference Answer", "Judge Instruction", "Reference Value", "Curation Status"]) {
    expect(curation[0]).toContain(column);
  }
  const byColumn = (row: string[]) => Object.fromEntries(CURATION_COLUMNS.map((c, i) => [c, row[i] ?? ""]));
  const rows = curation.slice(1).map(byColumn);
  expect(rows.filter((row) => row["Question ID"] === generated)).toEqual([
    expect.objectContaining({
      Field: "target",
      "Reference Answer": "BCL2",
      "Judge Instruction": "The protein the drug targets",
      "Reference Value": "BCL2",
      "Verified With": "ExactMatch(normalize=['lowercase', 'strip'])",
      "Curation Status": "Needs review",
    }),
    expect.objectContaining({
      Field: "approved",
      "Reference Value": "True",
      "Curation Status": "Needs review",
    }),
  ]);
  expect(rows.find((row) => row["Question ID"] === "draft")).toMatchObject({
    Question: '=HYPERLINK("http://x")',
    Field: "",
    "Curation Status": "No template",
  });
  const classic = rows.filter((row) => row["Question ID"] === "classic");
  expect(classic.length).toBeGreaterThan(0);
  expect(classic.every((row) => row["Curation Status"] === "Finished")).toBe(true);

  // checkpoint text is written as text, never as a formula
  const formulaCell = book.getWorksheet("Curation")?.getRow(4).getCell(2);
  expect(formulaCell?.formula).toBeUndefined();

  const status = book
    .getWorksheet("Curation")
    ?.getRow(2)
    .getCell(CURATION_COLUMNS.indexOf("Curation Status") + 1);
  expect(status?.dataValidation?.type).toBe("list");

  expect(Object.fromEntries(facts.slice(1))).toMatchObject({
    Benchmark: "Drug targets",
    Version: "2.0.0",
    Questions: "3",
    "Fields to review": String(summary.fields_to_review),
    Finished: "1",
    "Needs review": "1",
    "No template": "1",
  });
  expect(summary.by_status).toEqual({ Finished: 1, "Needs review": 1, "No template": 1 });
});
