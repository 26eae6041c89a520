import { useEffect, useId, useMemo, useState } from "react";
import { ApiRequestError, apiFetch } from "../api/index.js";
import type {
  ApiCompareModelsRequest,
  ApiCompareModelsResponse,
  ResultSummary,
} from "../library-types/index.js";
import { Heatmap } from "./Heatmap.js";
import { LazyBarChart } from "./LazyBarChart.js";
import {
  formatCount,
  formatPct,
  type ModelOption,
  modelOptionsOf,
  parsingModelsOf,
} from "./summary-figures.js";

/** The runs compared: the panel's source narrowed to the chosen run. */
export interface ComparedRuns {
  readonly db: string | null;
  readonly runIds: readonly string[];
}

export interface ComparisonViewProps {
  readonly runs: ComparedRuns;
  /** The summary of the same runs: its model combinations give the model and judge options. */
  readonly summary: ResultSummary;
  readonly onOpenDetail?: ((resultId: string) => void) | undefined;
  /** Called with each comparison the server returns (for "Export Comparison"). */
  readonly onComparison?: ((comparison: ApiCompareModelsResponse | null) => void) | undefined;
}

export const MAX_COMPARED = 4;

const round = (n: number) => Math.round(n * 10) / 10;

/** The request for the chosen models and judge. */
export function comparisonRequest(
  runs: ComparedRuns,
  models: readonly ModelOption[],
  parsingModel: string | undefined,
): ApiCompareModelsRequest {
  return {
    run_ids: [...runs.runIds],
    ...(runs.db === null ? {} : { db: runs.db }),
    models: models.map((option) => option.model),
    ...(parsingModel === undefined ? {} : { parsing_model: parsingModel }),
  };
}

/**
 * The Comparison mode (spec 07 §1.6): 1–4 answering models (the first two preselected) under one parsing model,
 * compared by the server: a metrics table, pass-rate bars, per-question token bars and the heatmap.
 */
export function ComparisonView({ runs, summary, onOpenDetail, onComparison }: ComparisonViewProps) {
  const options = useMemo(() => modelOptionsOf(summary), [summary]);
  const judges = useMemo(() => parsingModelsOf(summary), [summary]);
  const [chosen, setChosen] = useState<readonly string[]>(() => options.slice(0, 2).map((o) => o.key));
  const [judge, setJudge] = useState<string | undefined>(judges[0]);
  const [result, setResult] = useState<ApiCompareModelsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const judgeId = useId();

  const models = options.filter((option) => chosen.includes(option.key));
  const requestKey = JSON.stringify(comparisonRequest(runs, models, judge));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the request key stands for runs, models and judge.
  useEffect(() => {
    if (models.length === 0) {
      setResult(null);
      onComparison?.(null);
      return;
    }
    const abort = new AbortController();
    setError(null);
    apiFetch<ApiCompareModelsResponse>("/api/v2/verifications/compare-models", {
      body: JSON.parse(requestKey) as ApiCompareModelsRequest,
      signal: abort.signal,
    }).then(
      (body) => {
        setResult(body);
        onComparison?.(body);
      },
      (failure: unknown) => {
        if (abort.signal.aborted) return;
        setResult(null);
        onComparison?.(null);
        setError(failure instanceof ApiRequestError ? failure.message : String(failure));
      },
    );
    return () => abort.abort();
  }, [requestKey]);

  const toggle = (key: string) =>
    setChosen((current) => (current.includes(key) ? current.filter((k) => k !== key) : [...current, key]));

  const summaries = Object.entries(result?.model_summaries ?? {}) as [string, ResultSummary][];
  const shownModels = summaries.map(([model]) => model);
  return (
    <div className="comparison-view">
      <fieldset className="comparison-models">
        <legend>
          Answering models ({chosen.length} of at most {MAX_COMPARED})
        </legend>
        {options.map((option) => (
          <label key={option.key}>
            <input
              type="checkbox"
              checked={chosen.includes(option.key)}
              disabled={!chosen.includes(option.key) && chosen.length >= MAX_COMPARED}
              onChange={() => toggle(option.key)}
            />{" "}
            {option.key}
          </label>
        ))}
      </fieldset>
      <label htmlFor={judgeId} className="comparison-judge">
        Parsing model{" "}
        <select
          id={judgeId}
          value={judge ?? ""}
          onChange={(event) => setJudge(event.target.value || undefined)}
        >
          {judges.map((j) => (
            <option key={j} value={j}>
              {j}
            </option>
          ))}
        </select>
      </label>
      {models.length === 0 ? <p>Choose at least one model to compare.</p> : null}
      {error === null ? null : (
        <p className="summary-error" role="alert">
          {error}
        </p>
      )}
      {result === null ? null : (
        <>
          <section className="summary-block" aria-label="Metrics">
            <h4>Metrics</h4>
            <table className="summary-table">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Results</th>
                  <th scope="col">Completed</th>
                  <th scope="col">Passed</th>
                  <th scope="col">Failed</th>
                  <th scope="col">Pass rate</th>
                  <th scope="col">Tokens</th>
                  <th scope="col">Median tokens per result</th>
                </tr>
              </thead>
              <tbody>
                {summaries.map(([model, s]) => (
                  <tr key={model}>
                    <th scope="row">{model}</th>
                    <td>{formatCount(s.num_results)}</td>
                    <td>{formatCount(s.num_completed)}</td>
                    <td>{formatCount(s.outcomes.passed)}</td>
                    <td>{formatCount(s.outcomes.failed)}</td>
                    <td>{formatPct(s.outcomes.pass_pct)}</td>
                    <td>{formatCount(s.tokens.total_tokens)}</td>
                    <td>{formatCount(s.tokens.total_input_median + s.tokens.total_output_median)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <div className="summary-charts">
            <LazyBarChart
              caption="Pass rate by model"
              unit="%"
              rows={summaries.map(([model, s]) => ({ name: model, pass: round(s.outcomes.pass_pct) }))}
              series={[{ key: "pass", label: "Pass rate", colour: "var(--chart-pass)" }]}
            />
            <LazyBarChart
              caption="Tokens by model (median per result, ± std)"
              rows={summaries.map(([model, s]) => ({
                name: model,
                input: round(s.tokens.total_input_median),
                input_std: round(s.tokens.total_input_std),
                output: round(s.tokens.total_output_median),
                output_std: round(s.tokens.total_output_std),
              }))}
              series={[
                { key: "input", label: "Input tokens", colour: "var(--chart-input)", stdKey: "input_std" },
                {
                  key: "output",
                  label: "Output tokens",
                  colour: "var(--chart-output)",
                  stdKey: "output_std",
                },
              ]}
            />
          </div>
          <section className="summary-block" aria-label="Heatmap">
            <h4>Heatmap</h4>
            <Heatmap
              questions={result.heatmap_data}
              models={shownModels}
              {...(onOpenDetail ? { onOpenDetail } : {})}
            />
          </section>
          {result.question_token_data.length === 0 ? null : (
            <LazyBarChart
              caption="Tokens per question (median output tokens, ± std)"
              rowHeader="Question"
              rows={result.question_token_data.map((q) => ({
                name: q.question_id,
                ...Object.fromEntries(
                  q.models.flatMap((m) => [
                    [m.model_key, round(m.output_tokens_median)],
                    [`${m.model_key} std`, round(m.output_tokens_std)],
                  ]),
                ),
              }))}
              series={shownModels.map((model, i) => ({
                key: model,
                label: model,
                colour: `var(--chart-model-${i + 1})`,
                stdKey: `${model} std`,
              }))}
            />
          )}
        </>
      )}
    </div>
  );
}
