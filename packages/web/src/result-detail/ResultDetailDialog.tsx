import { useEffect, useState } from "react";
import { ApiRequestError, apiFetch } from "../api/index.js";
import { Dialog } from "../dialog/index.js";
import type { VerificationResult } from "../library-types/index.js";
import { ResultDetail } from "./ResultDetail.js";
import { resultPath } from "./result-path.js";

export interface ResultDetailDialogProps {
  /** The database holding the result (null: the server's default database). */
  readonly db: string | null;
  /** `metadata.result_id` of the stored row. */
  readonly resultId: string;
  /** The stored run holding it, when several runs hold that result id. */
  readonly runId?: string;
  readonly onClose: () => void;
}

type Loaded =
  | { readonly state: "loading" }
  | { readonly state: "loaded"; readonly result: VerificationResult }
  | { readonly state: "failed"; readonly message: string };

/**
 * "Detailed Answering Trace" (spec 07 §1.6): loads one full stored result from the server and shows every
 * part of it; Escape or × closes it and focus returns to the opener.
 */
export function ResultDetailDialog({ db, resultId, runId, onClose }: ResultDetailDialogProps) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });

  useEffect(() => {
    const abort = new AbortController();
    setLoaded({ state: "loading" });
    apiFetch<VerificationResult>(resultPath(db, resultId, runId), { signal: abort.signal }).then(
      (result) => setLoaded({ state: "loaded", result }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof ApiRequestError ? error.message : String(error);
        setLoaded({ state: "failed", message });
      },
    );
    return () => abort.abort();
  }, [db, resultId, runId]);

  return (
    <Dialog title="Detailed Answering Trace" onClose={onClose}>
      <div className="result-detail-dialog" aria-busy={loaded.state === "loading"}>
        {loaded.state === "loading" ? <p role="status">Loading result {resultId}…</p> : null}
        {loaded.state === "failed" ? (
          <p role="alert" className="detail-error">
            Could not load result {resultId}: {loaded.message}
          </p>
        ) : null}
        {loaded.state === "loaded" ? <ResultDetail result={loaded.result} /> : null}
      </div>
    </Dialog>
  );
}
