import type { Rubric } from "../library-types/index.js";
import { defineSlice } from "../session/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";

/**
 * What the curator keeps across reloads for one benchmark: the per-question template drafts (spec 07 §1.3.4:
 * edits are drafts until Save), the global rubric being edited (until "Save Rubric") and the question shown.
 */
export interface BenchmarkDrafts {
  /** Question id → the edited template text (present only while it differs from the saved one). */
  readonly templates: Readonly<Record<string, string>>;
  /** The global rubric being edited, when it differs from the saved one (`rubric: null` removes it). */
  readonly globalRubric?: { readonly rubric: Rubric | null };
  readonly selectedId?: string;
}

export interface CuratorSessionState {
  /** Keyed by {@link draftsKey} of the benchmark, so drafts of another benchmark are kept apart. */
  readonly byBenchmark: Readonly<Record<string, BenchmarkDrafts>>;
}

export const EMPTY_DRAFTS: BenchmarkDrafts = { templates: {} };

/** The key of a benchmark's drafts: its connection and name (two connections may hold the same name). */
export function draftsKey(benchmark: WorkingBenchmark): string {
  return JSON.stringify([benchmark.db, benchmark.name]);
}

export function draftsOf(state: CuratorSessionState, benchmark: WorkingBenchmark | null): BenchmarkDrafts {
  if (benchmark === null) return EMPTY_DRAFTS;
  return state.byBenchmark[draftsKey(benchmark)] ?? EMPTY_DRAFTS;
}

/** The state with a benchmark's drafts replaced (dropped entirely when nothing is left in them). */
export function withDrafts(
  state: CuratorSessionState,
  benchmark: WorkingBenchmark,
  update: (drafts: BenchmarkDrafts) => BenchmarkDrafts,
): CuratorSessionState {
  const key = draftsKey(benchmark);
  const next = update(state.byBenchmark[key] ?? EMPTY_DRAFTS);
  const { [key]: _dropped, ...others } = state.byBenchmark;
  const empty =
    Object.keys(next.templates).length === 0 &&
    next.globalRubric === undefined &&
    next.selectedId === undefined;
  return { byBenchmark: empty ? others : { ...others, [key]: next } };
}

/**
 * A question's drafts after an edit: the text is kept as a draft when it differs from the saved template and
 * dropped when the edit brings it back to the saved text.
 */
export function withTemplateEdit(
  drafts: BenchmarkDrafts,
  questionId: string,
  text: string,
  saved: string,
): BenchmarkDrafts {
  const { [questionId]: _old, ...others } = drafts.templates;
  return { ...drafts, templates: text === saved ? others : { ...others, [questionId]: text } };
}

/** Drafts without those of the given questions (saved or deleted). */
export function withoutTemplateDrafts(
  drafts: BenchmarkDrafts,
  questionIds: Iterable<string>,
): BenchmarkDrafts {
  const templates = { ...drafts.templates };
  for (const id of questionIds) delete templates[id];
  return { ...drafts, templates };
}

function isRecordOfStrings(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((text) => typeof text === "string")
  );
}

function parseDrafts(value: unknown): BenchmarkDrafts | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { templates, globalRubric, selectedId } = value as Record<string, unknown>;
  if (!isRecordOfStrings(templates)) return undefined;
  const rubricOk =
    globalRubric === undefined ||
    (typeof globalRubric === "object" && globalRubric !== null && "rubric" in globalRubric);
  if (!rubricOk || (selectedId !== undefined && typeof selectedId !== "string")) return undefined;
  return {
    templates,
    ...(globalRubric === undefined
      ? {}
      : { globalRubric: globalRubric as BenchmarkDrafts["globalRubric"] & {} }),
    ...(selectedId === undefined ? {} : { selectedId }),
  };
}

export const curatorSessionSlice = defineSlice<CuratorSessionState>({
  key: "curator-drafts",
  version: 1,
  initial: { byBenchmark: {} },
  parse: (stored) => {
    if (typeof stored !== "object" || stored === null) return undefined;
    const { byBenchmark } = stored as Record<string, unknown>;
    if (typeof byBenchmark !== "object" || byBenchmark === null) return undefined;
    const parsed: Record<string, BenchmarkDrafts> = {};
    for (const [key, value] of Object.entries(byBenchmark)) {
      const drafts = parseDrafts(value);
      if (drafts !== undefined) parsed[key] = drafts;
    }
    return { byBenchmark: parsed };
  },
});
