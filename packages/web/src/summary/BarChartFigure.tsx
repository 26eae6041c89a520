import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

/** One series of a bar chart: a key of the data rows, and optionally the key of its standard deviation. */
export interface BarSeries {
  readonly key: string;
  readonly label: string;
  readonly colour: string;
  /** Draws whiskers of ± this key's value. */
  readonly stdKey?: string;
}

export interface BarChartFigureProps {
  readonly caption: string;
  readonly rows: readonly Record<string, string | number>[];
  readonly series: readonly BarSeries[];
  /** "%" for rates (axis 0–100). */
  readonly unit?: string;
  /** The heading of the figures table's first column (default "Model"). */
  readonly rowHeader?: string;
}

/**
 * A bar chart (recharts) with its figures also as a table for screen readers and keyboard users: the chart
 * itself is hidden from assistive technology. Loaded lazily (recharts is most of the panel's weight).
 */
export default function BarChartFigure({ caption, rows, series, unit, rowHeader }: BarChartFigureProps) {
  return (
    <figure className="summary-chart">
      <figcaption>{caption}</figcaption>
      <div aria-hidden="true" className="summary-chart-canvas">
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={[...rows]} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="name" stroke="var(--muted)" tick={{ fontSize: 12 }} />
            <YAxis stroke="var(--muted)" {...(unit === "%" ? { domain: [0, 100] } : {})} unit={unit ?? ""} />
            <Tooltip contentStyle={{ background: "var(--surface)", color: "var(--text)" }} />
            <Legend />
            {series.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.colour} isAnimationActive={false}>
                {s.stdKey === undefined ? null : (
                  <ErrorBar dataKey={s.stdKey} stroke="var(--text)" width={6} />
                )}
              </Bar>
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="summary-table summary-chart-data">
        <caption className="visually-hidden">{caption} (figures)</caption>
        <thead>
          <tr>
            <th scope="col">{rowHeader ?? "Model"}</th>
            {series.map((s) => (
              <th scope="col" key={s.key}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={String(row.name)}>
              <th scope="row">{row.name}</th>
              {series.map((s) => (
                <td key={s.key}>
                  {row[s.key]}
                  {unit === "%" ? " %" : ""}
                  {s.stdKey === undefined ? "" : ` ± ${row[s.stdKey]}`}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
