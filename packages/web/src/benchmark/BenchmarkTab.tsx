import { DatabaseBar } from "../database/index.js";
import { ResultDeepLink } from "../result-detail/index.js";
import { ResultsSection } from "../results/index.js";
import { RunSection } from "../run/index.js";

/**
 * Tab 3 (spec 07 §1.5–§1.7): the database bar (connect, browse stored benchmarks and runs), the run set-up and
 * its progress, then the results of the chosen source (table, detail, summary and comparison).
 */
export function BenchmarkTab() {
  return (
    <div className="benchmark-tab">
      <h2 className="tab-title">3. Benchmark</h2>
      <DatabaseBar />
      <RunSection />
      <ResultsSection />
      <ResultDeepLink />
    </div>
  );
}
