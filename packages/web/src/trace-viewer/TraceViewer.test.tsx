// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { TRACE_HIGHLIGHTING_KEY } from "./highlight-patterns.js";
import { TraceHighlightSettings } from "./TraceHighlightSettings.js";
import { TraceViewer } from "./TraceViewer.js";
import { reloadTraceHighlighting } from "./use-trace-highlighting.js";

const TRACE =
  "--- AI Message ---\nLet me look for BCL2.\n--- Tool Message (call_id: c1) ---\nbcl2 found\n--- AI Message ---\nThe answer is BCL2.";

beforeEach(() => {
  localStorage.clear();
  reloadTraceHighlighting();
});
afterEach(cleanup);

function search(text: string) {
  fireEvent.change(screen.getByRole("searchbox", { name: "Search trace" }), { target: { value: text } });
}

describe("TraceViewer", () => {
  test("shows coloured message blocks and a jump list that moves focus to a message", () => {
    render(<TraceViewer text={TRACE} />);
    const headers = screen.getAllByRole("heading", { level: 4 });
    expect(headers.map((h) => [h.textContent, h.className])).toEqual([
      ["--- AI Message ---", "trace-header trace-colour-green"],
      ["--- Tool Message (call_id: c1) ---", "trace-header trace-colour-yellow"],
      ["--- AI Message ---", "trace-header trace-colour-green"],
    ]);
    const jump = screen.getByRole("navigation", { name: "Trace: messages" });
    fireEvent.click(within(jump).getByRole("button", { name: "2. --- Tool Message (call_id: c1) ---" }));
    expect(document.activeElement).toBe(headers[1]);
  });

  test("search counts matches; Enter and Shift+Enter step through them; case toggle narrows", () => {
    render(<TraceViewer text={TRACE} />);
    search("bcl2");
    const counter = screen.getByRole("status");
    expect(counter.textContent).toBe("1 of 3");
    const box = screen.getByRole("searchbox", { name: "Search trace" });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(counter.textContent).toBe("2 of 3");
    expect(document.querySelector("mark[data-current]")?.textContent).toBe("bcl2");
    fireEvent.keyDown(box, { key: "Enter", shiftKey: true });
    fireEvent.keyDown(box, { key: "Enter", shiftKey: true });
    expect(counter.textContent).toBe("3 of 3");
    fireEvent.click(screen.getByRole("checkbox", { name: "Case sensitive" }));
    expect(counter.textContent).toBe("1 of 1");
  });

  test("regex mode finds by pattern, and a bad regex is shown as an error instead of throwing", () => {
    render(<TraceViewer text={TRACE} />);
    fireEvent.click(screen.getByRole("checkbox", { name: "Regex" }));
    search("BCL\\d");
    expect(screen.getByRole("status").textContent).toBe("1 of 3");
    search("BCL(");
    expect(screen.getByText(/Invalid regex:/).textContent).toMatch(/Invalid regular expression/);
    expect(screen.getByRole("searchbox", { name: "Search trace" }).getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("status").textContent).toBe("");
  });

  test("final response only shows the last message", () => {
    render(<TraceViewer text={TRACE} />);
    fireEvent.click(screen.getByRole("checkbox", { name: "Final response only" }));
    expect(screen.getAllByRole("heading", { level: 4 }).map((h) => h.textContent)).toEqual([
      "--- AI Message ---",
    ]);
    expect(screen.getByText("The answer is BCL2.")).toBeTruthy();
    expect(screen.queryByText("bcl2 found")).toBeNull();
  });

  test("stored trace_messages drive the blocks when present", () => {
    render(
      <TraceViewer
        text="ignored raw text"
        messages={[
          { role: "user", content: "Target?", block_index: 0 },
          { role: "assistant", content: "BCL2", block_index: 1 },
        ]}
      />,
    );
    expect(screen.getAllByRole("heading", { level: 4 }).map((h) => h.textContent)).toEqual([
      "Human Message",
      "AI Message",
    ]);
    expect(screen.queryByText("ignored raw text")).toBeNull();
  });

  test("with the master switch off the trace is one block", () => {
    localStorage.setItem(
      TRACE_HIGHLIGHTING_KEY,
      JSON.stringify({ version: 1, enabled: false, patterns: [] }),
    );
    reloadTraceHighlighting();
    render(<TraceViewer text={TRACE} />);
    expect(screen.getAllByRole("heading", { level: 4 }).map((h) => h.textContent)).toEqual(["Trace"]);
  });
});

describe("TraceHighlightSettings", () => {
  test("adding a pattern stores it and the preview splits on it at once", () => {
    render(<TraceHighlightSettings />);
    fireEvent.change(screen.getByRole("textbox", { name: "Sample text" }), {
      target: { value: "intro\n=== Human ===\nhello" },
    });
    expect(screen.getAllByRole("heading", { level: 4 }).map((h) => h.textContent)).toEqual(["Trace"]);
    fireEvent.click(screen.getByRole("button", { name: "Add pattern" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Regex of Pattern 3" }), {
      target: { value: "^=== Human ===$" },
    });
    fireEvent.change(screen.getByRole("combobox", { name: "Colour of Pattern 3" }), {
      target: { value: "purple" },
    });
    const preview = screen.getByRole("region", { name: "Preview" });
    expect(
      within(preview)
        .getAllByRole("heading", { level: 4 })
        .map((h) => [h.textContent, h.className]),
    ).toEqual([
      ["Start", "trace-header trace-colour-none"],
      ["=== Human ===", "trace-header trace-colour-purple"],
    ]);
    const stored = JSON.parse(localStorage.getItem(TRACE_HIGHLIGHTING_KEY) ?? "null");
    expect(stored.patterns.at(-1)).toEqual({
      id: "pattern-3",
      name: "Pattern 3",
      regex: "^=== Human ===$",
      colour: "purple",
      enabled: true,
    });
  });

  test("a bad regex in a row is shown, not thrown; removing a row and the master switch are stored", () => {
    render(<TraceHighlightSettings />);
    fireEvent.change(screen.getByRole("textbox", { name: "Regex of AI Message" }), {
      target: { value: "(" },
    });
    expect(screen.getAllByText(/Invalid regular expression/).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole("button", { name: "Remove Tool Message" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Highlight messages in traces" }));
    const stored = JSON.parse(localStorage.getItem(TRACE_HIGHLIGHTING_KEY) ?? "null");
    expect(stored.enabled).toBe(false);
    expect(stored.patterns.map((p: { name: string }) => p.name)).toEqual(["AI Message"]);
  });
});
