import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef, useState } from "react";

/** Rows a summary table shows before "Show all" (a 100,000-row run can have a row per replicate). */
export const SHOWN_ROWS = 20;
/** Row height of the full list, in pixels: fixed, so the virtualiser never measures. */
export const SUMMARY_ROW_HEIGHT = 30;

export interface SummaryTableProps {
  readonly title: string;
  readonly head: readonly string[];
  /** Each row's first cell names it (a row header) and is unique in the table. */
  readonly rows: readonly (readonly string[])[];
}

function Cells({ head, row }: { head: readonly string[]; row: readonly string[] }) {
  return row.map((cell, i) =>
    i === 0 ? (
      <th scope="row" key={head[i]}>
        {cell}
      </th>
    ) : (
      <td key={head[i]}>{cell}</td>
    ),
  );
}

function Head({ head, style }: { head: readonly string[]; style?: React.CSSProperties }) {
  return (
    <thead>
      <tr style={style} aria-rowindex={1}>
        {head.map((cell) => (
          <th scope="col" key={cell}>
            {cell}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Every row, virtualised: only the rows in view are in the page. */
function AllRows({ title, head, rows }: SummaryTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => SUMMARY_ROW_HEIGHT,
    overscan: 10,
  });
  const grid = { gridTemplateColumns: `repeat(${head.length}, minmax(7rem, 1fr))` };
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to scroll it by keyboard (axe scrollable-region-focusable).
    <div className="summary-virtual" ref={scroller} tabIndex={0}>
      <table className="summary-table" aria-label={title} aria-rowcount={rows.length + 1}>
        <Head head={head} style={grid} />
        <tbody style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => (
            <tr
              key={item.key}
              aria-rowindex={item.index + 2}
              style={{ ...grid, transform: `translateY(${item.start}px)` }}
            >
              <Cells head={head} row={rows[item.index] ?? []} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A table of the summary panel: its first {@link SHOWN_ROWS} rows, then "Show all" for a virtualised list of
 * every row, so a summary with a row per replicate of 100,000 results renders in milliseconds.
 */
export function SummaryTable({ title, head, rows }: SummaryTableProps) {
  const [all, setAll] = useState(false);
  const capped = rows.length > SHOWN_ROWS;
  return (
    <section className="summary-block" aria-label={title}>
      <h4>{title}</h4>
      {rows.length === 0 ? (
        <p className="summary-none">None.</p>
      ) : capped && all ? (
        <AllRows title={title} head={head} rows={rows} />
      ) : (
        <table className="summary-table">
          <Head head={head} />
          <tbody>
            {rows.slice(0, SHOWN_ROWS).map((row) => (
              <tr key={row[0]}>
                <Cells head={head} row={row} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {capped ? (
        <p className="summary-more">
          {all
            ? `All ${rows.length.toLocaleString("en-US")} rows.`
            : `First ${SHOWN_ROWS} of ${rows.length.toLocaleString("en-US")} rows.`}{" "}
          <button type="button" onClick={() => setAll(!all)} aria-expanded={all}>
            {all ? `Show the first ${SHOWN_ROWS}` : `Show all ${rows.length.toLocaleString("en-US")}`}
          </button>
        </p>
      ) : null}
    </section>
  );
}
