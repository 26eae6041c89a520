import type { CurationState } from "./curation-store.js";
import { hasChanges } from "./curation-store.js";
import { clockTime } from "./use-curation.js";

/** The save status (spec 07 §3: aria-live): "Saved 12:03", "Saving…", or the failure with Retry. */
export function SaveStatusLine({
  curation,
  onRetry,
}: {
  readonly curation: CurationState;
  readonly onRetry: () => void;
}) {
  const { save } = curation;
  const queued = hasChanges(curation.pending);
  return (
    <div className="curator-save-status" data-testid="save-status">
      <span aria-live="polite">
        {save.state === "saving"
          ? "Saving…"
          : save.state === "failed"
            ? `Not saved: ${save.message}`
            : queued
              ? "Changes waiting to be saved…"
              : save.state === "saved"
                ? `Saved ${clockTime(save.at)}`
                : "All changes saved"}
      </span>
      {save.state === "failed" ? (
        <button type="button" className="secondary-button" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
