import type { HeatmapCell, HeatmapQuestion } from "../library-types/index.js";

/** A heatmap cell's state, in the order of spec 07 §1.6's colours. */
export type CellStatus = "passed" | "failed" | "error" | "abstained" | "insufficient" | "not run";

/** One column: a compared model and one of its replicates (index into its `replicates`). */
export interface HeatmapColumn {
  readonly model: string;
  readonly index: number;
  /** "gpt-4.1 rep 1", or the model alone when every question ran once. */
  readonly label: string;
}

/** One shown cell: its status, its text equivalent and the result it opens. */
export interface GridCell {
  readonly status: CellStatus;
  readonly text: string;
  readonly resultId: string | null;
}

/**
 * A cell's status: abstained and insufficient come first (they explain the failure they cause), then an
 * error (a failure without a verdict), then the verdict; no row is "not run".
 */
export function cellStatus(cell: HeatmapCell | undefined): CellStatus {
  if (cell === undefined) return "not run";
  if (cell.abstained) return "abstained";
  if (cell.insufficient) return "insufficient";
  if (cell.passed === true) return "passed";
  if (cell.passed === false) return "failed";
  return cell.error ? "error" : "not run";
}

const count = new Intl.NumberFormat("en-US");

/** The columns: per model (in the given order) as many replicates as its widest question has. */
export function heatmapColumns(
  questions: readonly HeatmapQuestion[],
  models: readonly string[],
): HeatmapColumn[] {
  const widths = models.map((model) =>
    Math.max(1, ...questions.map((q) => q.results_by_model[model]?.replicates.length ?? 0)),
  );
  const replicated = widths.some((width) => width > 1);
  return models.flatMap((model, m) =>
    Array.from({ length: widths[m] ?? 1 }, (_, index) => ({
      model,
      index,
      label: replicated ? `${model} rep ${index + 1}` : model,
    })),
  );
}

/**
 * The text equivalent of a cell, its accessible name and tooltip:
 * "q12 / openai:gpt-4.1 rep 1: passed, 1,234 tokens".
 */
export function cellText(
  question: HeatmapQuestion,
  column: HeatmapColumn,
  cell: HeatmapCell | undefined,
): string {
  const head = `${question.question_id} / ${column.label}: ${cellStatus(cell)}`;
  if (cell === undefined) return head;
  const parts = [`${count.format(cell.input_tokens + cell.output_tokens)} tokens`];
  if (cell.execution_type === "Agent") parts.push(`agent, ${cell.iterations} iterations`);
  return `${head}, ${parts.join(", ")}`;
}

/** The grid's cells, row by row. */
export function heatmapCells(
  questions: readonly HeatmapQuestion[],
  columns: readonly HeatmapColumn[],
): GridCell[][] {
  return questions.map((question) =>
    columns.map((column) => {
      const cell = question.results_by_model[column.model]?.replicates[column.index];
      return {
        status: cellStatus(cell),
        text: cellText(question, column, cell),
        resultId: cell?.result_id ?? null,
      };
    }),
  );
}

/** A position in the grid. */
export interface GridPosition {
  readonly row: number;
  readonly col: number;
}

/**
 * Where a key moves the focus in a grid of `rows` × `cols` (the WAI-ARIA grid pattern: arrows, Home/End in the
 * row, Ctrl+Home/End to the corners, PageUp/PageDown by 10 rows). Undefined for other keys.
 */
export function movedPosition(
  at: GridPosition,
  key: string,
  ctrl: boolean,
  rows: number,
  cols: number,
): GridPosition | undefined {
  const clamp = (row: number, col: number) => ({
    row: Math.min(Math.max(row, 0), rows - 1),
    col: Math.min(Math.max(col, 0), cols - 1),
  });
  switch (key) {
    case "ArrowRight":
      return clamp(at.row, at.col + 1);
    case "ArrowLeft":
      return clamp(at.row, at.col - 1);
    case "ArrowDown":
      return clamp(at.row + 1, at.col);
    case "ArrowUp":
      return clamp(at.row - 1, at.col);
    case "PageDown":
      return clamp(at.row + 10, at.col);
    case "PageUp":
      return clamp(at.row - 10, at.col);
    case "Home":
      return ctrl ? clamp(0, 0) : clamp(at.row, 0);
    case "End":
      return ctrl ? clamp(rows - 1, cols - 1) : clamp(at.row, cols - 1);
    default:
      return undefined;
  }
}
