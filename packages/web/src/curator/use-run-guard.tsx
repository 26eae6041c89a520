import { type ReactNode, useState } from "react";
import { Dialog } from "../dialog/index.js";
import { useToast } from "../toast/index.js";
import { DialogButtons } from "./form-parts.js";
import { useUnsavedCuration } from "./use-unsaved-curation.js";

/** The warning's text: what the run will not see. */
export function unsavedRunMessage(draftCount: number, rubricUnsaved: boolean): string {
  const drafts = `${draftCount} template draft${draftCount === 1 ? "" : "s"}`;
  const what =
    draftCount > 0 && rubricUnsaved
      ? `${drafts} and the global rubric are`
      : draftCount > 0
        ? `${drafts} ${draftCount === 1 ? "is" : "are"}`
        : "the global rubric is";
  return `The run uses the saved benchmark: ${what} unsaved.`;
}

/**
 * Guards the run screen's start (spec 07 §4, "unsaved-rubric warning before a run"): with unsaved curator
 * drafts or rubric edits, `guard(start)` asks first — Save all and run / Run anyway / Cancel.
 */
export function useRunGuard(): { readonly guard: (start: () => void) => void; readonly dialog: ReactNode } {
  const { draftCount, rubricUnsaved, saveAll } = useUnsavedCuration();
  const toast = useToast();
  const [waiting, setWaiting] = useState<(() => void) | null>(null);
  const [saving, setSaving] = useState(false);
  const guard = (start: () => void) => {
    if (draftCount === 0 && !rubricUnsaved) start();
    else setWaiting(() => start);
  };
  const saveAndRun = async (start: () => void) => {
    setSaving(true);
    try {
      await saveAll();
      setWaiting(null);
      start();
    } catch (error) {
      toast({
        tone: "error",
        message: `Saving failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setSaving(false);
    }
  };
  const dialog =
    waiting === null ? null : (
      <Dialog
        title="Unsaved curator edits"
        onClose={() => setWaiting(null)}
        footer={
          <DialogButtons
            onCancel={() => setWaiting(null)}
            alternative={{
              label: "Run anyway",
              onClick: () => {
                setWaiting(null);
                waiting();
              },
            }}
            onConfirm={() => void saveAndRun(waiting)}
            confirmLabel={saving ? "Saving…" : "Save all and run"}
            busy={saving}
          />
        }
      >
        <p>{unsavedRunMessage(draftCount, rubricUnsaved)}</p>
      </Dialog>
    );
  return { guard, dialog };
}
