import ExcelJS from "exceljs";
import type { Page } from "playwright-core";

// Spreadsheets for the extraction wizard's browser tests, written in the test (nothing is committed).

export interface FilePayload {
  readonly name: string;
  readonly mimeType: string;
  readonly buffer: Buffer;
}

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A CSV (or TSV with `separator` "\t") of a header and rows. */
export function delimitedFile(name: string, rows: readonly (readonly string[])[], separator = ","): FilePayload {
  const quote = (cell: string) => (/[",\n\t]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  const text = rows.map((row) => row.map(quote).join(separator)).join("\n");
  return {
    name,
    mimeType: separator === "\t" ? "text/tab-separated-values" : "text/csv",
    buffer: Buffer.from(`${text}\n`),
  };
}

/** An .xlsx workbook with one worksheet per entry of `sheets`. */
export async function xlsxFile(
  name: string,
  sheets: Readonly<Record<string, readonly (readonly (string | number)[])[]>>,
): Promise<FilePayload> {
  const workbook = new ExcelJS.Workbook();
  for (const [sheet, rows] of Object.entries(sheets)) {
    const worksheet = workbook.addWorksheet(sheet);
    for (const row of rows) worksheet.addRow([...row]);
  }
  return { name, mimeType: XLSX_TYPE, buffer: Buffer.from(await workbook.xlsx.writeBuffer()) };
}

/** `count` drug questions with a header (Id, Category, Question, Answer, Tags). */
export function drugRows(count: number, prefix = "Which drug is number"): string[][] {
  const rows = [["Id", "Category", "Question", "Answer", "Tags"]];
  for (let i = 0; i < count; i++) rows.push([`${i}`, "oncology", `${prefix} ${i}?`, `drug-${i}`, `t${i % 3}; shared`]);
  return rows;
}

/** Drops `file` on the wizard's drop zone, as a user dragging it from the desktop would. */
export async function dropFile(page: Page, selector: string, file: FilePayload): Promise<void> {
  const transfer = await page.evaluateHandle(
    `(() => {
      const data = new DataTransfer();
      const bytes = Uint8Array.from(atob(${JSON.stringify(file.buffer.toString("base64"))}), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], ${JSON.stringify(file.name)}, { type: ${JSON.stringify(file.mimeType)} }));
      return data;
    })()`,
  );
  await page.locator(selector).dispatchEvent("drop", { dataTransfer: transfer });
}
