// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { type SessionBackend, SessionContext, SessionStore } from "../session/index.js";
import { StatusRegion } from "../status/index.js";
import { ToastProvider } from "../toast/index.js";
import { workingBenchmarkSlice } from "../working-benchmark/index.js";
import { curatorSessionSlice, withDrafts } from "./curator-session.js";
import { unsavedRunMessage, useRunGuard } from "./use-run-guard.js";
import { unsavedNotice } from "./use-unsaved-curation.js";

afterEach(cleanup);

const memory = (): SessionBackend => {
  const values = new Map<string, unknown>();
  return { get: async (key) => values.get(key), set: async (key, value) => void values.set(key, value) };
};

function RunButton({ onStart }: { readonly onStart: () => void }) {
  const { guard, dialog } = useRunGuard();
  return (
    <>
      <button type="button" onClick={() => guard(onStart)}>
        Run Selected
      </button>
      {dialog}
    </>
  );
}

function renderWith(store: SessionStore, onStart: () => void) {
  const overlays = document.createElement("div");
  overlays.id = "overlays";
  document.body.append(overlays);
  render(
    <SessionContext value={store}>
      <StatusRegion>
        <ToastProvider>
          <RunButton onStart={onStart} />
        </ToastProvider>
      </StatusRegion>
    </SessionContext>,
  );
}

const bench = { db: null, name: "bench" };

describe("the run screen's warning about unsaved curator edits", () => {
  test("with nothing unsaved the run starts at once", () => {
    const store = new SessionStore(memory());
    store.set(workingBenchmarkSlice, { benchmark: bench });
    let started = 0;
    renderWith(store, () => started++);
    fireEvent.click(screen.getByRole("button", { name: "Run Selected" }));
    expect(started).toBe(1);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  test("with drafts it asks first: Cancel does not run, Run anyway does", () => {
    const store = new SessionStore(memory());
    store.set(workingBenchmarkSlice, { benchmark: bench });
    store.set(curatorSessionSlice, (state) =>
      withDrafts(state, bench, () => ({ templates: { q1: "a", q2: "b" }, globalRubric: { rubric: null } })),
    );
    let started = 0;
    renderWith(store, () => started++);
    fireEvent.click(screen.getByRole("button", { name: "Run Selected" }));
    expect(screen.getByRole("dialog").textContent).toContain(
      "The run uses the saved benchmark: 2 template drafts and the global rubric are unsaved.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(started).toBe(0);
    fireEvent.click(screen.getByRole("button", { name: "Run Selected" }));
    fireEvent.click(screen.getByRole("button", { name: "Run anyway" }));
    expect(started).toBe(1);
  });

  test("drafts of another benchmark do not count", () => {
    const store = new SessionStore(memory());
    store.set(workingBenchmarkSlice, { benchmark: bench });
    store.set(curatorSessionSlice, (state) =>
      withDrafts(state, { db: "lab", name: "bench" }, () => ({ templates: { q1: "a" } })),
    );
    let started = 0;
    renderWith(store, () => started++);
    fireEvent.click(screen.getByRole("button", { name: "Run Selected" }));
    expect(started).toBe(1);
  });
});

describe("the unsaved texts", () => {
  test("the run warning names what is unsaved", () => {
    expect(unsavedRunMessage(1, false)).toBe(
      "The run uses the saved benchmark: 1 template draft is unsaved.",
    );
    expect(unsavedRunMessage(0, true)).toBe(
      "The run uses the saved benchmark: the global rubric is unsaved.",
    );
  });

  test("the tab's tooltip counts questions with drafts; nothing unsaved means no dot", () => {
    expect(unsavedNotice({ draftCount: 2, rubricUnsaved: false })).toBe("2 question(s) with unsaved changes");
    expect(unsavedNotice({ draftCount: 0, rubricUnsaved: true })).toBe("global rubric not saved");
    expect(unsavedNotice({ draftCount: 0, rubricUnsaved: false })).toBeUndefined();
  });
});
