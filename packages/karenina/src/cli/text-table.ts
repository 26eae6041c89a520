import { type Palette, PLAIN, printable, type Tone } from "./colour.js";

/** A column of {@link table}. */
export interface Column {
  header: string;
  right?: boolean;
}

/** A table cell: its text, and the tone it is painted with on a terminal. */
export type Cell = string | { text: string; tone: Tone | null };

/** A cell of `text` painted with `tone` (none when null). */
export const toned = (text: string, tone: Tone | null): Cell => ({ text, tone });

const textOf = (cell: Cell | undefined) => printable(typeof cell === "object" ? cell.text : (cell ?? ""));
const toneOf = (cell: Cell | undefined) => (typeof cell === "object" ? cell.tone : null);

/**
 * An aligned table, indented by two spaces; the last column is left ragged when it is left-aligned. Colours
 * are added after the padding, so they never shift a column; the header row is painted as a heading. Control
 * characters in cells are shown escaped (see `printable`).
 */
export function table(
  columns: readonly Column[],
  rows: readonly Cell[][],
  palette: Palette = PLAIN,
): string[] {
  const texts = rows.map((row) => columns.map((_, at) => textOf(row[at])));
  const widths = columns.map((column, at) =>
    Math.max(column.header.length, ...texts.map((row) => (row[at] ?? "").length)),
  );
  const line = (cells: readonly string[], toneAt: (at: number) => Tone | null) => {
    const padded = cells.map((cell, at) => {
      const tone = toneAt(at);
      const shown = tone === null ? cell : palette.paint(cell, tone);
      const padding = " ".repeat((widths[at] ?? 0) - cell.length);
      return columns[at]?.right ? padding + shown : shown + padding;
    });
    return `  ${padded.join("  ")}`.trimEnd();
  };
  return [
    line(
      columns.map((column) => column.header),
      () => "heading",
    ),
    ...texts.map((cells, index) => line(cells, (at) => toneOf(rows[index]?.[at]))),
  ];
}
