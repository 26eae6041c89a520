import { useCallback } from "react";
import { useSessionSlice } from "../session/index.js";
import { type WorkingBenchmark, workingBenchmarkSlice } from "../working-benchmark/index.js";
import { fetchCuration, patchCuration } from "./curation-api.js";
import { changesBody, loadedState, saveTemplates, setGlobalRubric } from "./curation-store.js";
import { type BenchmarkDrafts, curatorSessionSlice, draftsOf, withDrafts } from "./curator-session.js";

export interface UnsavedCuration {
  /** Questions of the working benchmark with an unsaved template draft. */
  readonly draftCount: number;
  /** Whether the global rubric has edits not saved with "Save Rubric". */
  readonly rubricUnsaved: boolean;
  /** Saves every draft and the global rubric draft of the working benchmark (the run screen's "Save all"). */
  readonly saveAll: () => Promise<void>;
}

/** Writes a benchmark's drafts to the server in one incremental save; resolves when stored. */
export async function saveDrafts(benchmark: WorkingBenchmark, drafts: BenchmarkDrafts): Promise<void> {
  let state = saveTemplates(loadedState(await fetchCuration(benchmark)), drafts.templates);
  if (drafts.globalRubric !== undefined) state = setGlobalRubric(state, drafts.globalRubric.rubric);
  await patchCuration(benchmark, changesBody(state, state.pending));
}

/**
 * What the curator holds unsaved for the working benchmark (drafts live in the session, so this works while
 * the curator is not shown): the tab's amber dot, the unload warning and the run screen read it.
 */
export function useUnsavedCuration(): UnsavedCuration {
  const [{ benchmark }] = useSessionSlice(workingBenchmarkSlice);
  const [session, setSession] = useSessionSlice(curatorSessionSlice);
  const drafts = draftsOf(session, benchmark);
  const saveAll = useCallback(async () => {
    if (benchmark === null) return;
    await saveDrafts(benchmark, drafts);
    setSession((current) =>
      withDrafts(current, benchmark, (now) => {
        const templates = { ...now.templates };
        for (const [id, text] of Object.entries(drafts.templates))
          if (templates[id] === text) delete templates[id];
        const { globalRubric: _saved, ...rest } = now;
        return { ...rest, templates };
      }),
    );
  }, [benchmark, drafts, setSession]);
  return {
    draftCount: Object.keys(drafts.templates).length,
    rubricUnsaved: drafts.globalRubric !== undefined,
    saveAll,
  };
}

/** The curator tab's notice ("2 question(s) with unsaved changes"), or undefined when nothing is unsaved. */
export function unsavedNotice({
  draftCount,
  rubricUnsaved,
}: Omit<UnsavedCuration, "saveAll">): string | undefined {
  if (draftCount === 0 && !rubricUnsaved) return undefined;
  const parts = [
    ...(draftCount > 0 ? [`${draftCount} question(s) with unsaved changes`] : []),
    ...(rubricUnsaved ? ["global rubric not saved"] : []),
  ];
  return parts.join("; ");
}
