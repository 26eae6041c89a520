import { useEffect, useState } from "react";
import { ApiRequestError, apiFetch } from "../api/index.js";
import type { JobScenarios, ScenarioExecutionRecord, ScenarioSummary } from "../library-types/index.js";
import type { ResultsSource } from "../results-source/index.js";
import { ScenarioGraphPicture } from "./ScenarioGraphPicture.js";
import "./scenarios.css";

/** Where the scenarios of a source are read: its one run of the server's own database, else nowhere. */
export function scenariosPath(source: ResultsSource): string | null {
  const [runId] = source.runIds;
  if (source.db !== null || source.runIds.length !== 1 || runId === undefined) return null;
  return `/api/v2/verification-runs/${encodeURIComponent(runId)}/scenarios`;
}

/** The scenarios of the source (null while they load or when it has none to ask for). */
function useScenarios(source: ResultsSource): { data: JobScenarios | null; error: string | null } {
  const [state, setState] = useState<{ data: JobScenarios | null; error: string | null }>({
    data: null,
    error: null,
  });
  const path = scenariosPath(source);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new revision (the job ended) reads them again.
  useEffect(() => {
    setState({ data: null, error: null });
    if (path === null) return;
    const abort = new AbortController();
    apiFetch<JobScenarios>(path, { signal: abort.signal }).then(
      (data) => setState({ data, error: null }),
      (failure: unknown) => {
        if (abort.signal.aborted) return;
        setState({
          data: null,
          error: failure instanceof ApiRequestError ? failure.message : String(failure),
        });
      },
    );
    return () => abort.abort();
  }, [path, source.revision]);
  return state;
}

/** An outcome as a badge: ✓/✗ for a boolean, the value for a number. */
function OutcomeBadge({ name, value }: { name: string; value: boolean | number }) {
  if (typeof value === "number")
    return (
      <span className="scenario-outcome number" data-outcome={name}>
        {name}: {value}
      </span>
    );
  return (
    <span className={`scenario-outcome ${value ? "true" : "false"}`} data-outcome={name}>
      <span aria-hidden="true">{value ? "✓" : "✗"} </span>
      {name}
      <span className="visually-hidden">{value ? ": true" : ": false"}</span>
    </span>
  );
}

/** An execution's path as node chips joined by arrows. */
function PathChips({ path }: { path: readonly string[] }) {
  if (path.length === 0) return <span className="results-empty">no turn</span>;
  return (
    <span className="scenario-path" data-path={path.join(">")}>
      {path.map((node, at) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a path may visit a node more than once.
        <span key={at}>
          {at === 0 ? null : (
            <span className="scenario-path-arrow" aria-hidden="true">
              {" → "}
            </span>
          )}
          <span className="scenario-chip">{node}</span>
        </span>
      ))}
    </span>
  );
}

function outcomeSummaryText(summary: ScenarioSummary["outcomes"][string]): string {
  switch (summary.kind) {
    case "boolean":
      return `${summary.passed}/${summary.count} true${summary.pass_rate === null ? "" : ` (${Math.round(summary.pass_rate * 100)}%)`}`;
    case "number":
      return `mean ${Number(summary.mean.toFixed(2))} (${summary.min}–${summary.max})`;
    case "mixed":
      return `${summary.count} values, mixed`;
  }
}

function ScenarioSummaries({ summaries }: { summaries: readonly ScenarioSummary[] }) {
  return (
    <table className="scenario-summary">
      <caption>By scenario</caption>
      <thead>
        <tr>
          <th scope="col">Scenario</th>
          <th scope="col">Executions</th>
          <th scope="col">Statuses</th>
          <th scope="col">Mean turns</th>
          <th scope="col">Outcomes</th>
        </tr>
      </thead>
      <tbody>
        {summaries.map((summary) => (
          <tr key={summary.scenario_id} data-scenario={summary.scenario_id}>
            <th scope="row">{summary.scenario_id}</th>
            <td>{summary.executions}</td>
            <td>
              {Object.entries(summary.statuses)
                .map(([status, count]) => `${status} ${count}`)
                .join(", ")}
            </td>
            <td>{Number(summary.mean_turns.toFixed(2))}</td>
            <td>
              <ul className="scenario-outcome-summaries">
                {Object.entries(summary.outcomes).map(([name, outcome]) => (
                  <li key={name} data-outcome={name}>
                    {name}: {outcomeSummaryText(outcome)}
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function failureText(record: ScenarioExecutionRecord): string {
  const failure = record.terminal_failure;
  if (failure === null) return "";
  return `${failure.category ?? "failure"} at ${failure.node_id ?? "?"}${failure.stage ? ` (${failure.stage})` : ""}: ${failure.reason ?? ""}`;
}

function ExecutionsTable(props: {
  records: readonly ScenarioExecutionRecord[];
  selected: number | null;
  onSelect: (index: number) => void;
}) {
  return (
    <table className="scenario-executions">
      <caption>Executions</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Scenario</th>
          <th scope="col">Replicate</th>
          <th scope="col">Status</th>
          <th scope="col">Turns</th>
          <th scope="col">Path</th>
          <th scope="col">Outcomes</th>
          <th scope="col">Terminal failure</th>
        </tr>
      </thead>
      <tbody>
        {props.records.map((record, index) => (
          <tr
            // biome-ignore lint/suspicious/noArrayIndexKey: executions have no id; their order is fixed.
            key={index}
            className={props.selected === index ? "selected" : undefined}
            data-execution={index + 1}
          >
            <td>
              <button
                type="button"
                aria-pressed={props.selected === index}
                aria-label={`Show execution ${index + 1} in the graph`}
                onClick={() => props.onSelect(index)}
              >
                {index + 1}
              </button>
            </td>
            <td>{record.scenario_id}</td>
            <td>{record.replicate ?? "–"}</td>
            <td>
              <span className={`scenario-status ${record.status}`}>{record.status}</span>
            </td>
            <td>{record.turn_count}</td>
            <td>
              <PathChips path={record.path} />
            </td>
            <td>
              {Object.entries(record.outcome_results).map(([name, value]) => (
                <OutcomeBadge key={name} name={name} value={value} />
              ))}
            </td>
            <td className="scenario-failure">{failureText(record)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The scenarios of a run (spec 08 §6): a summary per scenario, one row per execution (status, turns, path,
 * outcomes, terminal failure) and each scenario's graph, the selected execution's path highlighted. Nothing
 * is shown for a run without scenarios.
 */
export function ScenariosPanel({ source }: { source: ResultsSource }) {
  const { data, error } = useScenarios(source);
  const [selected, setSelected] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another source or revision starts unselected.
  useEffect(() => setSelected(null), [data]);
  if (error !== null)
    return (
      <p role="alert" className="results-error">
        Scenarios: {error}
      </p>
    );
  if (data === null || (data.scenario_results.length === 0 && data.scenarios.length === 0)) return null;
  const record = selected === null ? null : (data.scenario_results[selected] ?? null);
  return (
    <section className="scenarios-panel" aria-labelledby="scenarios-heading">
      <h3 id="scenarios-heading">Scenarios</h3>
      <ScenarioSummaries summaries={data.summary} />
      <ExecutionsTable records={data.scenario_results} selected={selected} onSelect={setSelected} />
      <div className="scenario-graphs">
        {data.scenarios.map((graph) => {
          const mine = record !== null && record.scenario_id === graph.scenario_id;
          return (
            <ScenarioGraphPicture
              key={graph.scenario_id}
              graph={graph}
              path={mine ? record.path : null}
              reachedEnd={mine && record.status === "completed"}
            />
          );
        })}
      </div>
    </section>
  );
}
