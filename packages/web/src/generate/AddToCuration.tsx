import { useState } from "react";
import { Dialog } from "../dialog/index.js";
import type { CuratorQuestion } from "../library-types/index.js";
import { useSessionSlice } from "../session/index.js";
import { hashOf } from "../tabs/index.js";
import { useToast } from "../toast/index.js";
import { type WorkingBenchmark, workingBenchmarkSlice } from "../working-benchmark/index.js";
import {
  curationUpserts,
  type GeneratedQuestion,
  generatedQuestions,
  overwrittenIds,
} from "./curation-merge.js";
import { createBenchmark, loadCuration, saveCuration } from "./generate-api.js";
import { generateSlice } from "./generate-state.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Step =
  | { readonly kind: "idle" }
  | { readonly kind: "name" }
  | {
      readonly kind: "overwrite";
      readonly benchmark: WorkingBenchmark;
      readonly stored: readonly CuratorQuestion[];
      readonly conflicts: readonly string[];
    };

/**
 * "Add to Curation (n)": merges the successful templates into the working benchmark (spec 07 §1.2, Fix: merge,
 * never replace; ask before overwriting a real template), creating a benchmark first when none is loaded, then
 * opens the curator.
 */
export function AddToCuration({ disabled }: { readonly disabled: boolean }) {
  const [state] = useSessionSlice(generateSlice);
  const [working, setWorking] = useSessionSlice(workingBenchmarkSlice);
  const toast = useToast();
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const batch = generatedQuestions(state.questions, state.results);

  const save = async (
    benchmark: WorkingBenchmark,
    items: readonly GeneratedQuestion[],
    stored: readonly CuratorQuestion[],
    overwrite: boolean,
  ) => {
    const upsert = curationUpserts(items, stored, overwrite);
    const saved = await saveCuration(benchmark, { upsert });
    setStep({ kind: "idle" });
    toast({
      tone: "info",
      message:
        upsert.length === 0
          ? `Kept the existing templates of "${benchmark.name}"; nothing was added.`
          : `Added ${upsert.length} template(s) to "${benchmark.name}" (${saved.question_count} questions).`,
    });
    window.location.hash = hashOf("curate");
  };

  const mergeInto = async (benchmark: WorkingBenchmark) => {
    const { questions: stored } = await loadCuration(benchmark);
    const conflicts = overwrittenIds(batch, stored);
    if (conflicts.length > 0) setStep({ kind: "overwrite", benchmark, stored, conflicts });
    else await save(benchmark, batch, stored, false);
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toast({ tone: "error", message: `Adding to the curator failed: ${messageOf(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const begin = () => {
    if (working.benchmark === null) setStep({ kind: "name" });
    else {
      const benchmark = working.benchmark;
      void run(() => mergeInto(benchmark));
    }
  };

  const create = () =>
    run(async () => {
      const trimmed = name.trim();
      await createBenchmark(trimmed);
      const benchmark: WorkingBenchmark = { db: null, name: trimmed };
      setWorking({ benchmark });
      await mergeInto(benchmark);
    });

  return (
    <>
      <button
        type="button"
        className="primary-button"
        disabled={disabled || busy || batch.length === 0}
        onClick={begin}
      >
        Add to Curation ({batch.length})
      </button>
      {step.kind === "name" && (
        <Dialog
          title="New benchmark"
          onClose={() => setStep({ kind: "idle" })}
          footer={
            <>
              <button type="button" className="secondary-button" onClick={() => setStep({ kind: "idle" })}>
                Cancel
              </button>
              <button
                type="button"
                className="primary-button"
                disabled={busy || name.trim() === ""}
                onClick={() => void create()}
              >
                Create and add
              </button>
            </>
          }
        >
          <p>No benchmark is loaded. Name a new one to hold these questions.</p>
          <label className="generate-field">
            Benchmark name
            <input value={name} onChange={(event) => setName(event.target.value)} />
          </label>
        </Dialog>
      )}
      {step.kind === "overwrite" && (
        <Dialog
          title="Overwrite existing templates?"
          onClose={() => setStep({ kind: "idle" })}
          footer={
            <>
              <button
                type="button"
                className="secondary-button"
                disabled={busy}
                onClick={() => void run(() => save(step.benchmark, batch, step.stored, false))}
              >
                Keep existing
              </button>
              <button
                type="button"
                className="primary-button"
                disabled={busy}
                onClick={() => void run(() => save(step.benchmark, batch, step.stored, true))}
              >
                Overwrite
              </button>
            </>
          }
        >
          <p>
            {step.conflicts.length} question(s) already have a template in "{step.benchmark.name}". Overwrite
            them with the generated ones, or keep the existing templates (the other questions are added either
            way)?
          </p>
        </Dialog>
      )}
    </>
  );
}
