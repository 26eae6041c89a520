import { useCallback, useEffect, useState } from "react";
import { ApiRequestError, apiFetch, queryString } from "../api/index.js";
import type {
  StartedVerification,
  StartVerificationRequest,
  StoredCheckpoint,
  VerificationConfigInput,
  VerificationJobView,
} from "../library-types/index.js";
import { resultsSourceSlice } from "../results-source/index.js";
import { useSessionSlice } from "../session/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import { FINAL_STATUSES, foldEvent, initialProgress, type RunProgress } from "./progress-state.js";
import { followJobProgress } from "./progress-stream.js";
import { activeJobSlice } from "./run-settings.js";

const jobPath = (jobId: string) => `/api/v2/verifications/${encodeURIComponent(jobId)}`;

/** The body of `POST /api/v2/verifications`: a benchmark of the server's database by name, or (another connection) its checkpoint. */
export async function startRequestOf(
  benchmark: WorkingBenchmark,
  config: VerificationConfigInput,
  questionIds: readonly string[],
  runName: string,
): Promise<StartVerificationRequest> {
  const common = {
    config: config as Record<string, unknown>,
    question_ids: [...questionIds],
    ...(runName.trim() === "" ? {} : { run_name: runName.trim() }),
  };
  if (benchmark.db === null) return { ...common, benchmark_name: benchmark.name };
  const stored = await apiFetch<StoredCheckpoint>(
    `/api/v2/benchmarks/${encodeURIComponent(benchmark.name)}${queryString({ db: benchmark.db })}`,
  );
  return { ...common, checkpoint: stored.checkpoint as unknown as Record<string, unknown> };
}

export interface VerificationJob {
  readonly progress: RunProgress | null;
  /** A job is queued or running: the configuration and selection are locked. */
  readonly active: boolean;
  readonly error: string | null;
  start(
    benchmark: WorkingBenchmark,
    config: VerificationConfigInput,
    questionIds: readonly string[],
    runName: string,
  ): Promise<void>;
  cancel(): Promise<void>;
  clearError(): void;
}

/**
 * The verification job of this page: started here, followed over its progress stream, remembered in the
 * session so a reload reattaches (a snapshot, then every event of the job again from the server's log).
 */
export function useVerificationJob(): VerificationJob {
  const [{ jobId }, setActiveJob] = useSessionSlice(activeJobSlice);
  const [, setResultsSource] = useSessionSlice(resultsSourceSlice);
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (jobId === null) {
      setProgress(null);
      return;
    }
    setProgress(initialProgress(jobId));
    return followJobProgress(jobId, 0, {
      onEvent: (event) => setProgress((current) => foldEvent(current ?? initialProgress(jobId), event)),
      onEnd: ({ notFound }) => {
        if (notFound) {
          setActiveJob({ jobId: null });
          return;
        }
        setResultsSource(({ source }) =>
          source?.jobId === jobId
            ? { source: { ...source, revision: (source.revision ?? 0) + 1 } }
            : { source },
        );
        void apiFetch<VerificationJobView>(`${jobPath(jobId)}/progress`)
          .then((view) =>
            setProgress((current) =>
              current === null
                ? current
                : {
                    ...current,
                    status: view.status,
                    durationSeconds: view.duration_seconds,
                    usage: view.usage_totals ?? current.usage,
                  },
            ),
          )
          .catch(() => undefined);
      },
      onFailure: (message) => setError(message),
    });
  }, [jobId, setActiveJob, setResultsSource]);

  const start = useCallback<VerificationJob["start"]>(
    async (benchmark, config, questionIds, runName) => {
      setError(null);
      try {
        const body = await startRequestOf(benchmark, config, questionIds, runName);
        const started = await apiFetch<StartedVerification>("/api/v2/verifications", { body });
        const view = await apiFetch<VerificationJobView>(`${jobPath(started.job_id)}/progress`).catch(
          () => null,
        );
        setResultsSource({
          source: {
            db: null,
            runIds: [view?.run_id ?? started.job_id],
            label: `Run ${started.run_name}`,
            jobId: started.job_id,
          },
        });
        setActiveJob({ jobId: started.job_id });
      } catch (caught) {
        setError(
          caught instanceof ApiRequestError || caught instanceof Error ? caught.message : String(caught),
        );
      }
    },
    [setActiveJob, setResultsSource],
  );

  const cancel = useCallback(async () => {
    if (jobId === null) return;
    try {
      const view = await apiFetch<VerificationJobView>(jobPath(jobId), { method: "DELETE" });
      setProgress((current) => (current === null ? current : { ...current, status: view.status }));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [jobId]);

  const active = progress !== null && !FINAL_STATUSES.includes(progress.status);
  return { progress, active, error, start, cancel, clearError: () => setError(null) };
}
