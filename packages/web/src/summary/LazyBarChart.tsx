import { lazy, Suspense } from "react";
import type { BarChartFigureProps } from "./BarChartFigure.js";

const BarChartFigure = lazy(() => import("./BarChartFigure.js"));

/** {@link BarChartFigure}, loaded on first use (keeps recharts out of the first bundle). */
export function LazyBarChart(props: BarChartFigureProps) {
  return (
    <Suspense fallback={<p className="summary-chart-loading">Loading chart…</p>}>
      <BarChartFigure {...props} />
    </Suspense>
  );
}
