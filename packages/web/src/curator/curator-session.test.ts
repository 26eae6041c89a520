import { describe, expect, test } from "vitest";
import {
  curatorSessionSlice,
  draftsOf,
  withDrafts,
  withoutTemplateDrafts,
  withTemplateEdit,
} from "./curator-session.js";

const bench = { db: null, name: "bench" };
const other = { db: "lab", name: "bench" };

describe("the curator's drafts", () => {
  test("an edit is a draft while it differs from the saved text and is dropped when it comes back", () => {
    let drafts = withTemplateEdit({ templates: {} }, "q1", "edited", "saved");
    expect(drafts.templates).toEqual({ q1: "edited" });
    drafts = withTemplateEdit(drafts, "q1", "saved", "saved");
    expect(drafts.templates).toEqual({});
  });

  test("drafts are kept per benchmark and connection; an empty entry is removed", () => {
    let state = withDrafts({ byBenchmark: {} }, bench, (d) => withTemplateEdit(d, "q1", "x", "y"));
    state = withDrafts(state, other, (d) => ({ ...d, globalRubric: { rubric: null } }));
    expect(draftsOf(state, bench).templates).toEqual({ q1: "x" });
    expect(draftsOf(state, other).templates).toEqual({});
    expect(draftsOf(state, other).globalRubric).toEqual({ rubric: null });
    state = withDrafts(state, bench, (d) => withoutTemplateDrafts(d, ["q1"]));
    expect(Object.keys(state.byBenchmark)).toHaveLength(1);
    expect(draftsOf(state, null).templates).toEqual({});
  });

  test("a stored value that is not the slice's shape falls back, and bad entries are dropped", () => {
    expect(curatorSessionSlice.parse("nonsense")).toBeUndefined();
    const parsed = curatorSessionSlice.parse({
      byBenchmark: { good: { templates: { q: "t" }, selectedId: "q" }, bad: { templates: { q: 3 } } },
    });
    expect(parsed).toEqual({ byBenchmark: { good: { templates: { q: "t" }, selectedId: "q" } } });
  });
});
