import { useEffect, useMemo, useState } from "react";
import { Dialog } from "../dialog/index.js";
import type { ExtractedQuestion } from "../library-types/index.js";
import { useSessionSlice } from "../session/index.js";
import { useToast } from "../toast/index.js";
import { AddToCuration } from "./AddToCuration.js";
import { FALLBACK_GENERATOR, GeneratorForm, useDefaultGenerator } from "./GeneratorForm.js";
import { generateSlice, matchesSearch, pendingIds } from "./generate-state.js";
import { formatDuration, type GenerationProgress, preview60 } from "./generation-progress.js";
import { useGenerationJob } from "./use-generation-job.js";
import { VirtualList } from "./VirtualList.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Seconds since `start` (epoch seconds), ticking every second while mounted. */
function useRunningFor(start: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (start === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [start]);
  return start === null ? null : Math.max(0, now / 1000 - start);
}

function ProgressCard({
  progress,
  questions,
  onCancel,
}: {
  readonly progress: GenerationProgress;
  readonly questions: ReadonlyMap<string, ExtractedQuestion>;
  readonly onCancel: () => void;
}) {
  const runningFor = useRunningFor(progress.startTime);
  const percentage = Math.round(progress.percentage);
  return (
    <section className="generate-progress" aria-label="Generation progress">
      <div
        className="generate-bar"
        role="progressbar"
        aria-label="Templates generated"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percentage}
      >
        <div style={{ width: `${percentage}%` }} />
      </div>
      <p aria-live="polite">
        {progress.processed} / {progress.total} processed ({percentage}%) — {progress.successful} ok,{" "}
        {progress.failed} failed
      </p>
      <p className="generate-muted">
        {runningFor !== null && <>Running for {formatDuration(runningFor)}. </>}
        {progress.lastTaskDuration !== null && (
          <>Last item took {formatDuration(progress.lastTaskDuration)}.</>
        )}
      </p>
      {progress.inFlight.length > 0 && (
        <>
          <h4>Queued / running ({progress.inFlight.length})</h4>
          <ul className="generate-inflight">
            {progress.inFlight.slice(0, 50).map((id) => (
              <li key={id}>{preview60(questions.get(id)?.question ?? id)}</li>
            ))}
          </ul>
        </>
      )}
      <button type="button" className="secondary-button" onClick={onCancel}>
        Cancel
      </button>
    </section>
  );
}

function download(name: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "2. Answer Template Generation": selector, generator model, progress, results (spec 07 §1.2). */
export function GenerationPanel() {
  const [state, setState] = useSessionSlice(generateSlice);
  const toast = useToast();
  const defaults = useDefaultGenerator();
  const job = useGenerationJob();
  const [search, setSearch] = useState("");
  const [force, setForce] = useState(false);
  const [apiKey, setApiKey] = useState("");
  const [confirmClear, setConfirmClear] = useState(false);
  const [starting, setStarting] = useState(false);
  const settings = state.generator ?? defaults ?? FALLBACK_GENERATOR;
  const byId = useMemo(
    () => new Map(state.questions.map((question) => [question.id, question])),
    [state.questions],
  );
  const pending = useMemo(() => pendingIds(state.questions, state.results), [state.questions, state.results]);
  const selected = useMemo(() => new Set(state.selection ?? pending), [state.selection, pending]);
  const shown = state.questions.filter((question) => matchesSearch(question, search));
  const pendingSet = new Set(pending);
  const toGenerate = state.questions.filter((q) => selected.has(q.id) && (force || pendingSet.has(q.id)));
  const resultRows = state.questions.filter((question) => state.results[question.id] !== undefined);
  const okCount = resultRows.filter((question) => state.results[question.id]?.success).length;
  const failedRows = resultRows.filter((question) => state.results[question.id]?.success === false);
  const running = state.jobId !== null;

  const setSelection = (ids: Iterable<string>) =>
    setState((current) => ({ ...current, selection: [...ids] }));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelection(next);
  };

  const resume = async () => {
    setStarting(true);
    try {
      await job.resume();
    } catch (error) {
      toast({ tone: "error", message: `Resume failed: ${messageOf(error)}` });
    } finally {
      setStarting(false);
    }
  };

  const generate = async (questions: readonly ExtractedQuestion[], forceRun: boolean) => {
    setStarting(true);
    try {
      await job.start(questions, settings, apiKey, forceRun);
    } catch (error) {
      toast({ tone: "error", message: `Generation did not start: ${messageOf(error)}` });
    } finally {
      setStarting(false);
    }
  };

  const remove = (id: string) =>
    setState((current) => {
      const { [id]: _, ...results } = current.results;
      return { ...current, results };
    });

  if (state.questions.length === 0)
    return (
      <section className="generate-card" aria-labelledby="generation-heading">
        <h2 id="generation-heading">2. Answer Template Generation</h2>
        <p className="generate-muted">Extract questions above to generate their answer templates.</p>
      </section>
    );

  return (
    <section className="generate-card" aria-labelledby="generation-heading">
      <h2 id="generation-heading">2. Answer Template Generation</h2>
      <fieldset className="generate-selector">
        <legend>
          Questions ({selected.size} of {state.questions.length} selected)
        </legend>
        <div className="generate-actions">
          <label className="generate-field">
            Search questions
            <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
          </label>
          <button
            type="button"
            className="secondary-button"
            onClick={() => setSelection(state.questions.map((q) => q.id))}
          >
            Select All
          </button>
          <button type="button" className="secondary-button" onClick={() => setSelection([])}>
            Select None
          </button>
        </div>
        <VirtualList
          items={shown}
          label="Questions to generate"
          rowHeight={40}
          maxHeight={280}
          keyOf={(question) => question.id}
          renderItem={(question) => (
            <label className="generate-select-row">
              <input
                type="checkbox"
                checked={selected.has(question.id)}
                onChange={() => toggle(question.id)}
              />
              <span>{preview60(question.question)}</span>
              <span className="generate-muted">
                {state.results[question.id]?.success ? "done" : "pending"}
              </span>
            </label>
          )}
        />
      </fieldset>
      <GeneratorForm
        settings={settings}
        onChange={(generator) => setState((current) => ({ ...current, generator }))}
        apiKey={apiKey}
        onApiKey={setApiKey}
      />
      <div className="generate-actions">
        <label>
          <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} />{" "}
          Regenerate questions that already have a template
        </label>
        <button
          type="button"
          className="primary-button"
          disabled={running || starting || toGenerate.length === 0}
          onClick={() => void generate(toGenerate, force)}
        >
          Generate Templates ({toGenerate.length} questions)
        </button>
      </div>
      {running && job.progress === null && <p aria-live="polite">Starting generation…</p>}
      {running && job.progress !== null && (
        <ProgressCard progress={job.progress} questions={byId} onCancel={() => void job.cancel()} />
      )}
      {!running && (job.completedIn !== null || job.endNote !== null) && (
        <p className="generate-muted" aria-live="polite">
          {job.endNote === null ? "Completed" : `Ended (${job.endNote})`}
          {job.completedIn !== null && ` in ${formatDuration(job.completedIn)}`}
        </p>
      )}
      {!running && job.interruptedJobId !== null && (
        <div className="generate-actions">
          <p className="generate-muted">
            A server restart stopped this job; its finished templates are kept.
          </p>
          <button type="button" className="primary-button" disabled={starting} onClick={() => void resume()}>
            Resume
          </button>
        </div>
      )}
      {resultRows.length > 0 && (
        <section aria-labelledby="generated-heading">
          <h3 id="generated-heading">
            Generated Templates ({okCount}/{resultRows.length} successful)
          </h3>
          {state.resultsModel !== null && (
            <p className="generate-muted">
              Model {state.resultsModel.name}
              {state.resultsModel.provider !== null && ` (${state.resultsModel.provider})`} via{" "}
              {state.resultsModel.interface}, temperature {state.resultsModel.temperature}
            </p>
          )}
          <div className="generate-actions">
            <button
              type="button"
              className="secondary-button"
              disabled={running || failedRows.length === 0}
              onClick={() => void generate(failedRows, true)}
            >
              Retry Failed ({failedRows.length})
            </button>
            <button
              type="button"
              className="secondary-button"
              onClick={() => download("generated_templates.json", state.results)}
            >
              Download JSON
            </button>
            <button
              type="button"
              className="secondary-button"
              disabled={running}
              onClick={() => setConfirmClear(true)}
            >
              Clear All
            </button>
            <AddToCuration disabled={running} />
          </div>
          <table className="generate-results">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {resultRows.map((question) => {
                const outcome = state.results[question.id];
                const short = preview60(question.question);
                return (
                  <tr key={question.id} data-status={outcome?.success ? "success" : "failed"}>
                    <td>{short}</td>
                    <td>{outcome?.success ? "Success" : `Failed: ${outcome?.error ?? "unknown error"}`}</td>
                    <td>
                      {outcome?.success === false && (
                        <button
                          type="button"
                          className="secondary-button"
                          aria-label={`Retry ${short}`}
                          disabled={running}
                          onClick={() => void generate([question], true)}
                        >
                          Retry
                        </button>
                      )}
                      <button
                        type="button"
                        className="secondary-button"
                        aria-label={`Remove ${short}`}
                        onClick={() => remove(question.id)}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}
      {confirmClear && (
        <Dialog
          title="Clear all generated templates?"
          onClose={() => setConfirmClear(false)}
          footer={
            <>
              <button type="button" className="secondary-button" onClick={() => setConfirmClear(false)}>
                Keep them
              </button>
              <button
                type="button"
                className="primary-button"
                onClick={() => {
                  setState((current) => ({ ...current, results: {}, resultsModel: null, selection: null }));
                  setConfirmClear(false);
                }}
              >
                Clear All
              </button>
            </>
          }
        >
          <p>
            Every generated template of this tab is removed. Templates already added to the curator stay
            there.
          </p>
        </Dialog>
      )}
    </section>
  );
}
