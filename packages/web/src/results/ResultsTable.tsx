import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useRef } from "react";
import type { ResultTableRow } from "../library-types/index.js";
import type { TableView } from "./table-view.js";
import type { TablePages } from "./use-table-pages.js";

/** Row height in pixels: fixed, so the virtualiser never measures (spec 07 §3). */
export const ROW_HEIGHT = 36;

interface Column {
  readonly id: string;
  readonly label: string;
  readonly width: number;
  /** The server's sort column, when the column sorts. */
  readonly sort?: string;
  readonly cell: (row: ResultTableRow, index: number) => React.ReactNode;
}

const chips = (values: readonly string[]) => (values.length === 0 ? "—" : values.join(", "));
const STATUS = { completed: "true", failed: "false", abstained: "Abstained" } as const;
const VERIFICATION = {
  passed: "Passed",
  failed: "Failed",
  not_evaluated: "Not evaluated",
  "n/a": "N/A",
} as const;

function rubricCell(row: ResultTableRow) {
  const traits = Object.entries(row.traits);
  if (row.rubric === "none") return "Not evaluated";
  const detail = traits.map(([name, value]) => `${name}: ${String(value)}`).join(", ");
  return (
    <span title={detail}>{`${row.rubric === "passed" ? "Passed" : "Failed"} (${traits.length} traits)`}</span>
  );
}

export const COLUMNS: readonly Column[] = [
  { id: "row", label: "#", width: 56, sort: "row", cell: (_row, index) => index + 1 },
  { id: "question", label: "Question", width: 280, sort: "question_text", cell: (row) => row.question_text },
  {
    id: "raw_answer",
    label: "Raw Answer",
    width: 160,
    sort: "raw_answer",
    cell: (row) => row.raw_answer ?? "—",
  },
  {
    id: "status",
    label: "Status",
    width: 100,
    sort: "status",
    cell: (row) => (
      <span
        title={
          row.failure_category === null ? undefined : `${row.failure_category}: ${row.failure_reason ?? ""}`
        }
      >
        {STATUS[row.status]}
      </span>
    ),
  },
  {
    id: "verification",
    label: "Verification",
    width: 116,
    sort: "verification",
    cell: (row) => VERIFICATION[row.verification],
  },
  { id: "keywords", label: "Keywords", width: 160, cell: (row) => chips(row.keywords) },
  {
    id: "answering",
    label: "Answering Model",
    width: 200,
    sort: "answering_model",
    cell: (row) => row.answering_model,
  },
  {
    id: "parsing",
    label: "Parsing Model",
    width: 180,
    sort: "parsing_model",
    cell: (row) => row.parsing_model,
  },
  { id: "mcp", label: "MCP Servers", width: 120, cell: (row) => chips(row.mcp_servers) },
  {
    id: "granular",
    label: "Granular",
    width: 90,
    sort: "granular_score",
    cell: (row) => (row.granular_score === null ? "No" : row.granular_score.toFixed(2)),
  },
  { id: "rubric", label: "Rubric", width: 150, sort: "rubric", cell: rubricCell },
  {
    id: "risk",
    label: "Hallucination Risk",
    width: 130,
    sort: "hallucination_risk",
    cell: (row) => row.hallucination_risk ?? "—",
  },
  {
    id: "time",
    label: "Time (s)",
    width: 84,
    sort: "execution_time",
    cell: (row) => row.execution_time.toFixed(2),
  },
  { id: "timestamp", label: "Timestamp", width: 160, sort: "timestamp", cell: (row) => row.timestamp },
  { id: "run", label: "Run", width: 120, sort: "run_name", cell: (row) => row.run_name ?? "—" },
  { id: "replicate", label: "Replicate", width: 84, sort: "replicate", cell: (row) => row.replicate ?? "" },
];

const TEMPLATE = `${COLUMNS.map((column) => `${column.width}px`).join(" ")} 180px`;
const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

export interface ResultsTableProps {
  readonly pages: TablePages;
  readonly view: TableView;
  readonly onSort: (column: string) => void;
  readonly onOpenDetail: (resultId: string) => void;
}

interface ResultRowProps {
  readonly index: number;
  /** Offset from the top of the body, in pixels. */
  readonly start: number;
  /** Undefined while its page loads. */
  readonly row: ResultTableRow | undefined;
  readonly onOpenDetail: (resultId: string) => void;
}

/**
 * One body row. Memoised: scrolling re-renders the table on every scroll event, and only the rows that came
 * into view (or whose page arrived) may render again; the others keep their props (same index, offset, row
 * object and handler).
 */
const ResultRow = memo(function ResultRow({ index, start, row, onOpenDetail }: ResultRowProps) {
  return (
    <tr
      aria-rowindex={index + 2}
      className="results-row"
      style={{ gridTemplateColumns: TEMPLATE, transform: `translateY(${start}px)` }}
    >
      {row === undefined ? (
        <td className="results-loading">Loading…</td>
      ) : (
        <>
          {COLUMNS.map((column) => (
            <td key={column.id} className={`results-cell results-col-${column.id}`}>
              {column.cell(row, index)}
            </td>
          ))}
          <td>
            <button
              type="button"
              className="results-detail"
              data-result-id={row.result_id}
              onClick={() => onOpenDetail(row.result_id)}
            >
              View detailed trace
            </button>
          </td>
        </>
      )}
    </tr>
  );
});

/** The virtualised results table: a fixed-height row per result, pages fetched as they scroll into view. */
export function ResultsTable({ pages, view, onSort, onOpenDetail }: ResultsTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const count = pages.total ?? 0;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // Few rows beyond the view: a fast scroll replaces every row on each frame, and each costs its layout.
    overscan: 4,
    // Rows render in React's next batch, not synchronously inside each scroll event.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index;
  const last = items.at(-1)?.index;
  useEffect(() => {
    if (first !== undefined && last !== undefined) pages.want(first, last);
  }, [first, last, pages]);

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to scroll it by keyboard (axe scrollable-region-focusable).
    <div className="results-table" ref={scroller} tabIndex={0}>
      <table aria-rowcount={count + 1} aria-label="Test results">
        <thead>
          <tr
            className="results-row results-head"
            aria-rowindex={1}
            style={{ gridTemplateColumns: TEMPLATE }}
          >
            {COLUMNS.map((column) => (
              <th
                key={column.id}
                scope="col"
                aria-sort={
                  column.sort !== undefined && view.sort === column.sort ? ARIA_SORT[view.order] : undefined
                }
              >
                {column.sort === undefined ? (
                  column.label
                ) : (
                  <button
                    type="button"
                    className="results-sort"
                    onClick={() => onSort(column.sort as string)}
                  >
                    {column.label}
                    {view.sort === column.sort ? (view.order === "asc" ? " ▲" : " ▼") : ""}
                  </button>
                )}
              </th>
            ))}
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody className="results-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => (
            <ResultRow
              key={item.key}
              index={item.index}
              start={item.start}
              row={pages.row(item.index)}
              onOpenDetail={onOpenDetail}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
