import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import type { HeatmapQuestion } from "../library-types/index.js";
import {
  type CellStatus,
  type GridPosition,
  heatmapCells,
  heatmapColumns,
  movedPosition,
} from "./heatmap-grid.js";

export interface HeatmapProps {
  readonly questions: readonly HeatmapQuestion[];
  /** The compared models' display strings, in column order. */
  readonly models: readonly string[];
  /** Opens the detail of a cell's result. */
  readonly onOpenDetail?: (resultId: string) => void;
}

const LEGEND: readonly CellStatus[] = ["passed", "failed", "error", "abstained", "insufficient", "not run"];

const statusClass = (status: CellStatus) => `heatmap-cell heatmap-${status.replace(" ", "-")}`;

/**
 * The per-question heatmap (spec 07 §1.6 "Comparison") as an accessible grid: one tab stop, arrow keys (and
 * Home/End, PageUp/PageDown) move between cells, each cell is named by its text equivalent (also its tooltip,
 * shown on focus and hover), Enter or a click opens its result.
 */
export function Heatmap({ questions, models, onOpenDetail }: HeatmapProps) {
  const columns = useMemo(() => heatmapColumns(questions, models), [questions, models]);
  const cells = useMemo(() => heatmapCells(questions, columns), [questions, columns]);
  const [active, setActive] = useState<GridPosition>({ row: 0, col: 0 });
  const [shown, setShown] = useState<string | null>(null);
  const grid = useRef<HTMLTableElement>(null);

  const focusCell = (at: GridPosition) => {
    setActive(at);
    grid.current?.querySelector<HTMLElement>(`[data-cell="${at.row}-${at.col}"]`)?.focus();
  };

  const open = (at: GridPosition) => {
    const id = cells[at.row]?.[at.col]?.resultId;
    if (id !== null && id !== undefined) onOpenDetail?.(id);
  };

  const onKeyDown = (event: KeyboardEvent, at: GridPosition) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      open(at);
      return;
    }
    const next = movedPosition(at, event.key, event.ctrlKey, cells.length, columns.length);
    if (next === undefined) return;
    event.preventDefault();
    focusCell(next);
  };

  if (questions.length === 0) return <p>No question has results for these models.</p>;
  return (
    <div className="heatmap">
      <ul className="heatmap-legend" aria-label="Legend">
        {LEGEND.map((status) => (
          <li key={status}>
            <span className={statusClass(status)} aria-hidden="true" /> {status}
          </li>
        ))}
      </ul>
      <div className="heatmap-scroll">
        <table
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA data grid pattern (a table whose cells take the focus).
          role="grid"
          ref={grid}
          aria-label="Per-question results by model and replicate"
          aria-describedby="heatmap-help"
        >
          <thead>
            <tr>
              <th scope="col">Question</th>
              {columns.map((column) => (
                <th scope="col" key={`${column.model}-${column.index}`} className="heatmap-column">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {questions.map((question, row) => (
              <tr key={question.question_id}>
                <th scope="row" className="heatmap-question" title={question.question_text}>
                  {question.question_id}
                </th>
                {cells[row]?.map((cell, col) => {
                  const isActive = active.row === row && active.col === col;
                  const id = `${row}-${col}`;
                  return (
                    <td
                      key={id}
                      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a cell of the data grid above.
                      role="gridcell"
                      data-cell={id}
                      tabIndex={isActive ? 0 : -1}
                      aria-label={cell.text}
                      title={cell.text}
                      className={statusClass(cell.status)}
                      onFocus={() => {
                        setActive({ row, col });
                        setShown(cell.text);
                      }}
                      onMouseEnter={() => setShown(cell.text)}
                      onClick={() => {
                        focusCell({ row, col });
                        open({ row, col });
                      }}
                      onKeyDown={(event) => onKeyDown(event, { row, col })}
                    />
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p id="heatmap-help" className="heatmap-help">
        Arrow keys move between cells; Enter opens a cell's result.
      </p>
      <p className="heatmap-shown" data-testid="heatmap-shown">
        {shown ?? "Focus or point at a cell to read it."}
      </p>
    </div>
  );
}
