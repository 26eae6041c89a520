import type { ResultSummary, TraitCounts } from "../library-types/index.js";
import { LazyBarChart } from "./LazyBarChart.js";
import { SummaryTable } from "./SummaryTable.js";
import {
  completionCards,
  evaluationCards,
  formatCount,
  formatPct,
  formatUsd,
  type MetricCard,
  overviewCards,
  type SummaryFilter,
} from "./summary-figures.js";

export interface SummaryViewProps {
  readonly summary: ResultSummary;
  /** Filters the results table; cards with a filter are buttons when given. */
  readonly onFilter?: ((filter: SummaryFilter) => void) | undefined;
}

function Cards({
  title,
  cards,
  onFilter,
}: {
  title: string;
  cards: readonly MetricCard[];
  onFilter?: SummaryViewProps["onFilter"];
}) {
  return (
    <section className="summary-block" aria-label={title}>
      <h4>{title}</h4>
      <ul className="summary-cards">
        {cards.map((card) => (
          <li key={card.label}>
            {card.filter !== undefined && onFilter !== undefined ? (
              <button
                type="button"
                className="summary-card summary-card-action"
                onClick={() => onFilter(card.filter as SummaryFilter)}
                title={`Show the ${card.label.toLowerCase()} results in the table`}
              >
                <span className="summary-card-value">{card.value}</span>
                <span className="summary-card-label">{card.label}</span>
              </button>
            ) : (
              <div className="summary-card">
                <span className="summary-card-value">{card.value}</span>
                <span className="summary-card-label">{card.label}</span>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

const round = (n: number) => Math.round(n * 10) / 10;

function traitRows(counts: TraitCounts, scope: string): string[][] {
  return Object.entries(counts)
    .filter(([, trait]) => trait.count > 0)
    .map(([kind, trait]) => [`${scope} ${kind}`, formatCount(trait.count), trait.names.join(", ")]);
}

/** The Summary mode of the panel (spec 07 §1.6): the server's `ResultSummary` as cards, tables and charts. */
export function SummaryView({ summary, onFilter }: SummaryViewProps) {
  const passByCombo = Object.entries(summary.template_pass_by_combo ?? {});
  const tokensByCombo = Object.entries(summary.tokens_by_combo);
  const traits = summary.rubric_traits;
  return (
    <div className="summary-view">
      <Cards title="Overview" cards={overviewCards(summary)} />
      <Cards title="Completion Status" cards={completionCards(summary)} onFilter={onFilter} />
      <Cards title="Evaluation Types" cards={evaluationCards(summary)} />
      <SummaryTable
        title="Template Pass Rates"
        head={["Model combination", "Passed", "Judged", "Pass rate"]}
        rows={passByCombo.map(([combo, rate]) => [
          combo,
          formatCount(rate.passed),
          formatCount(rate.total),
          formatPct(rate.pass_pct),
        ])}
      />
      <SummaryTable
        title="Failures by Category"
        head={["Category", "Results"]}
        rows={Object.entries(summary.failures_by_category).map(([category, n]) => [
          category,
          formatCount(n ?? 0),
        ])}
      />
      <SummaryTable
        title="Tokens by Model Combination"
        head={["Model combination", "Input", "Output", "Total", "Median per result"]}
        rows={tokensByCombo.map(([combo, t]) => [
          combo,
          formatCount(t.input),
          formatCount(t.output),
          formatCount(t.total),
          `${formatCount(t.input_median + t.output_median)}`,
        ])}
      />
      {summary.cost === null ? null : (
        <SummaryTable
          title="Cost"
          head={["Model", "Tokens", "Cost"]}
          rows={[
            ...Object.entries(summary.cost.by_model).map(([model, m]) => [
              model,
              formatCount(m.total_tokens),
              m.cost_usd === null ? "no price" : formatUsd(m.cost_usd),
            ]),
            ["Total", formatCount(summary.tokens.total_tokens), formatUsd(summary.cost.total_usd)],
          ]}
        />
      )}
      {traits === null ? null : (
        <SummaryTable
          title="Rubric Traits"
          head={["Traits", "Evaluations", "Names"]}
          rows={[
            ...traitRows(traits.global_traits, "global"),
            ...traitRows(traits.question_specific_traits, "question-specific"),
          ]}
        />
      )}
      {summary.replicate_stats === null || summary.num_replicates <= 1 ? null : (
        <SummaryTable
          title="Replicate Statistics"
          head={["Replicate", "Passed", "Judged", "Pass rate"]}
          rows={[
            ...Object.entries(summary.replicate_stats.replicate_pass_rates).map(([rep, rate]) => [
              `Replicate ${rep}`,
              formatCount(rate.passed),
              formatCount(rate.total),
              formatPct(rate.pass_pct),
            ]),
            [
              "Mean ± std",
              "",
              "",
              `${formatPct(summary.replicate_stats.replicate_summary.mean * 100)} ± ${formatPct(summary.replicate_stats.replicate_summary.std * 100)}`,
            ],
          ]}
        />
      )}
      <div className="summary-charts">
        {passByCombo.length === 0 ? null : (
          <LazyBarChart
            caption="Pass rate by model"
            unit="%"
            rows={passByCombo.map(([combo, rate]) => ({ name: combo, pass: round(rate.pass_pct) }))}
            series={[{ key: "pass", label: "Pass rate", colour: "var(--chart-pass)" }]}
          />
        )}
        {tokensByCombo.length === 0 ? null : (
          <LazyBarChart
            caption="Tokens by model (median per result)"
            rows={tokensByCombo.map(([combo, t]) => ({
              name: combo,
              input: round(t.input_median),
              input_std: round(t.input_std),
              output: round(t.output_median),
              output_std: round(t.output_std),
            }))}
            series={[
              { key: "input", label: "Input tokens", colour: "var(--chart-input)", stdKey: "input_std" },
              { key: "output", label: "Output tokens", colour: "var(--chart-output)", stdKey: "output_std" },
            ]}
          />
        )}
      </div>
    </div>
  );
}
