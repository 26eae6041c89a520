import type { Benchmark } from "../../benchmark/index.js";
import { writeFileAtomic } from "../../checkpoint/index.js";
import { CURATION_COLUMNS, type CurationRow, type CurationStatus, curationRows } from "./curation-rows.js";

/** What the summary sheet reports, and {@link exportCurationWorkbook} returns. */
export interface CurationSummary {
  benchmark: string;
  version: string;
  exported_at: string;
  questions: number;
  fields_to_review: number;
  /** Questions per curation status. */
  by_status: Record<CurationStatus, number>;
}

/** Excel's limit on the text of one cell. */
const CELL_LIMIT = 32_767;
const TRUNCATED = "… [truncated: the full text is in the checkpoint]";

/** Text fit for a cell: checkpoint text can exceed what Excel opens. */
function cellText(text: string): string {
  return text.length <= CELL_LIMIT ? text : text.slice(0, CELL_LIMIT - TRUNCATED.length) + TRUNCATED;
}

const WIDTHS: Record<(typeof CURATION_COLUMNS)[number], number> = {
  "Question ID": 28,
  Question: 50,
  "Reference Answer": 40,
  Field: 20,
  Type: 12,
  "Judge Instruction": 50,
  "Reference Value": 24,
  "Verified With": 30,
  "Curation Status": 16,
  "Reviewer Notes": 40,
};

const STATUS_CHOICES = '"Needs review,Approved,Needs changes,Rejected,Finished,No template"';

function summaryOf(benchmark: Benchmark, rows: readonly CurationRow[]): CurationSummary {
  const by_status: Record<CurationStatus, number> = { Finished: 0, "Needs review": 0, "No template": 0 };
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row["Question ID"])) continue;
    seen.add(row["Question ID"]);
    by_status[row["Curation Status"] as CurationStatus]++;
  }
  return {
    benchmark: benchmark.name,
    version: benchmark.version,
    exported_at: new Date().toISOString(),
    questions: benchmark.getQuestionIds().length,
    fields_to_review: rows.filter((row) => row.Field !== "").length,
    by_status,
  };
}

/**
 * Writes the curation workbook of spec 06 §7, for people to review templates outside the tool: a `Curation`
 * sheet with one row per template field (`Question`, `Reference Answer`, `Field`, `Judge Instruction`,
 * `Reference Value`, `Verified With`, `Curation Status`, an empty `Reviewer Notes`), and a `Summary` sheet.
 * Every cell is written as text, never as a formula, so text from a checkpoint starting with `=` stays text.
 * The file is written atomically.
 * @example
 * const bench = Benchmark.create({ name: "demo" });
 * const template = new AnswerBuilder().addAttribute("target", "str", "The drug's target", "BCL2").compile();
 * bench.addQuestion("What does venetoclax target?", "BCL2", { answerTemplate: template, finished: false });
 * const summary = await exportCurationWorkbook(bench, "review.xlsx");
 * summary.by_status; // { Finished: 0, "Needs review": 1, "No template": 0 }
 */
export async function exportCurationWorkbook(benchmark: Benchmark, path: string): Promise<CurationSummary> {
  // Loaded on first use: exceljs is large, and only this export needs it.
  const rows = await curationRows(benchmark);
  const { default: ExcelJS } = await import("exceljs");
  const summary = summaryOf(benchmark, rows);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "karenina";
  const sheet = workbook.addWorksheet("Curation", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = CURATION_COLUMNS.map((header) => ({ header, key: header, width: WIDTHS[header] }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const added = sheet.addRow(CURATION_COLUMNS.map((column) => cellText(row[column])));
    added.alignment = { wrapText: true, vertical: "top" };
  }
  const status = CURATION_COLUMNS.indexOf("Curation Status") + 1;
  for (let line = 2; line <= rows.length + 1; line++) {
    sheet.getCell(line, status).dataValidation = {
      type: "list",
      allowBlank: false,
      formulae: [STATUS_CHOICES],
    };
  }
  const facts = workbook.addWorksheet("Summary");
  facts.columns = [
    { header: "Item", key: "item", width: 28 },
    { header: "Value", key: "value", width: 40 },
  ];
  facts.getRow(1).font = { bold: true };
  facts.addRows([
    ["Benchmark", cellText(summary.benchmark)],
    ["Version", cellText(summary.version)],
    ["Exported at", summary.exported_at],
    ["Questions", summary.questions],
    ["Fields to review", summary.fields_to_review],
    ["Finished", summary.by_status.Finished],
    ["Needs review", summary.by_status["Needs review"]],
    ["No template", summary.by_status["No template"]],
  ]);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  await writeFileAtomic(path, buffer);
  return summary;
}
