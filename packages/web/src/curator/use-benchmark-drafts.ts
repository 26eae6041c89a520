import { useEffect } from "react";
import type { CuratorQuestion } from "../library-types/index.js";
import { useSessionSlice } from "../session/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import {
  type BenchmarkDrafts,
  curatorSessionSlice,
  draftsOf,
  withDrafts,
  withoutTemplateDrafts,
} from "./curator-session.js";

export interface BenchmarkDraftsControls {
  /** The benchmark's drafts (none while no benchmark is loaded). */
  readonly drafts: BenchmarkDrafts;
  /** Changes the benchmark's drafts in the session (nothing while no benchmark is loaded). */
  readonly editDrafts: (update: (drafts: BenchmarkDrafts) => BenchmarkDrafts) => void;
}

/**
 * The working benchmark's drafts, kept in the session slice. Drafts equal to the saved template are dropped
 * once the questions are loaded or saved (a reload may come before their removal was stored).
 */
export function useBenchmarkDrafts(
  benchmark: WorkingBenchmark | null,
  loadedQuestions: readonly CuratorQuestion[] | undefined,
): BenchmarkDraftsControls {
  const [session, setSession] = useSessionSlice(curatorSessionSlice);
  const drafts = draftsOf(session, benchmark);
  const editDrafts = (update: (drafts: BenchmarkDrafts) => BenchmarkDrafts) => {
    if (benchmark !== null) setSession((current) => withDrafts(current, benchmark, update));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: prunes once per loaded or saved question list
  useEffect(() => {
    if (loadedQuestions === undefined) return;
    const stale = loadedQuestions
      .filter((q) => drafts.templates[q.id] === q.answer_template)
      .map((q) => q.id);
    if (stale.length > 0) editDrafts((current) => withoutTemplateDrafts(current, stale));
  }, [loadedQuestions]);
  return { drafts, editDrafts };
}
