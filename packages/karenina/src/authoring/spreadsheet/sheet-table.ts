/** One cell's value: numbers and booleans keep their type; an empty cell is null. */
export type Cell = string | number | boolean | null;

/** A data row of a sheet. */
export interface SheetRow {
  /** The row's number as a spreadsheet program shows it, the header being row 1 (CSV: the record's number). */
  row: number;
  /** One cell per column, in column order. */
  cells: Cell[];
}

/** A sheet read into memory: its header names and its non-blank data rows. */
export interface SheetTable {
  columns: string[];
  rows: SheetRow[];
}

/**
 * Column names from header cells, as pandas makes them (so mappings written for the original still match): an
 * empty header becomes `Unnamed: <index>`, a repeated one gets `.1`, `.2`, ... (`["Q", "", "Tag", "Tag"]` →
 * `["Q", "Unnamed: 1", "Tag", "Tag.1"]`).
 */
export function headerNames(cells: readonly Cell[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, index) => {
    const name = cell === null || cell === "" ? `Unnamed: ${index}` : String(cell);
    const count = seen.get(name) ?? 0;
    seen.set(name, count + 1);
    return count === 0 ? name : `${name}.${count}`;
  });
}

/** Whether every cell is empty or blank. */
export function isBlankRow(cells: readonly Cell[]): boolean {
  return cells.every((cell) => cell === null || (typeof cell === "string" && cell.trim() === ""));
}

/** The number a text cell stands for, when the text is exactly how that number prints (`"1.50"`, `"007"` stay text). */
function canonicalNumber(text: string): number | null {
  const value = Number(text);
  return text.trim() !== "" && Number.isFinite(value) && String(value) === text ? value : null;
}

/**
 * Gives text cells (CSV, TSV) their native type, column by column as pandas does: a column whose every
 * non-empty cell is a number becomes numbers; other columns stay text. Empty text becomes null:
 * `[["3", "a"], ["", "7"]]` → `[[3, "a"], [null, "7"]]`.
 */
export function typedColumns(rows: readonly (readonly string[])[]): Cell[][] {
  const width = Math.max(0, ...rows.map((cells) => cells.length));
  const numeric = Array.from({ length: width }, (_, column) =>
    rows.every((cells) => {
      const text = cells[column] ?? "";
      return text === "" || canonicalNumber(text) !== null;
    }),
  );
  return rows.map((cells) =>
    cells.map((text, column) => {
      if (text === "") return null;
      return numeric[column] ? canonicalNumber(text) : text;
    }),
  );
}

/** A cell as text, trimmed; empty for an empty cell. */
export function cellText(cell: Cell | undefined): string {
  return cell === null || cell === undefined ? "" : String(cell).trim();
}
