import { useEffect, useState } from "react";
import { withTokenQuery } from "../api/index.js";
import {
  elapsedSeconds,
  etaSeconds,
  FINAL_STATUSES,
  formatCost,
  formatDuration,
  formatTokens,
  type RunProgress,
} from "./progress-state.js";

export interface VerificationControlProps {
  readonly progress: RunProgress | null;
  readonly onCancel: () => void;
}

function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/** The status line read out by screen readers (changes a few times per task, not every second). */
export function progressAnnouncement(progress: RunProgress): string {
  if (progress.status === "pending") return "Initializing verification…";
  if (progress.status === "running") return `Verifying: ${progress.processed} of ${progress.total} done`;
  return `Verification ${progress.status}: ${progress.processed} of ${progress.total} done`;
}

/** Verification Control (spec 07 §1.5): the running job's progress, Cancel, and after it the export and counts. */
export function VerificationControl({ progress, onCancel }: VerificationControlProps) {
  const finished = progress !== null && FINAL_STATUSES.includes(progress.status);
  const now = useNow(progress !== null && !finished);
  if (progress === null) return null;
  const elapsed = elapsedSeconds(progress, now);
  const eta = etaSeconds(progress, now);
  const exportUrl = (fmt: "json" | "csv") =>
    withTokenQuery(`/api/v2/verifications/${encodeURIComponent(progress.jobId)}/export?fmt=${fmt}`);
  return (
    <section className="run-panel" aria-labelledby="control-heading">
      <h3 id="control-heading">Verification Control</h3>
      <p className="progress-status" aria-live="polite">
        {progressAnnouncement(progress)}
      </p>
      <progress
        className="run-progress"
        aria-label="Verification progress"
        max={progress.total === 0 ? 1 : progress.total}
        value={progress.processed}
      />
      <p>
        <span>
          {progress.processed} / {progress.total} processed
        </span>
        {elapsed !== null && <span> · Elapsed {formatDuration(elapsed)}</span>}
        {!finished && eta !== null && <span> · About {formatDuration(eta)} left</span>}
        {progress.lastTaskDuration !== null && (
          <span> · Last task {progress.lastTaskDuration.toFixed(1)} s</span>
        )}
      </p>
      {progress.usage !== null && (
        <p className="progress-usage" role="status" aria-live="polite" aria-label="Tokens and cost">
          <span>{formatTokens(progress.usage)}</span> · <span>{formatCost(progress.usage)}</span>
        </p>
      )}
      {!finished && progress.inFlight.length > 0 && (
        <div>
          <span>In flight:</span>
          <ul className="in-flight">
            {progress.inFlight.map((question) => (
              <li key={question}>{question}</li>
            ))}
          </ul>
        </div>
      )}
      {progress.error !== null && <p className="error-box">{progress.error}</p>}
      {!finished ? (
        <button type="button" className="secondary-button" onClick={onCancel}>
          Cancel
        </button>
      ) : (
        <>
          <p className="run-stats">
            <span>Passed: {progress.passed}</span> · <span>Failed: {progress.failed}</span> ·{" "}
            <span>Abstained: {progress.abstained}</span>
          </p>
          {elapsed !== null && <p>Last job took: {formatDuration(elapsed)}</p>}
          {progress.processed > 0 && (
            <div className="card-actions">
              <a className="secondary-button" href={exportUrl("json")} download>
                Export JSON
              </a>
              <a className="secondary-button" href={exportUrl("csv")} download>
                Export CSV
              </a>
            </div>
          )}
        </>
      )}
    </section>
  );
}
