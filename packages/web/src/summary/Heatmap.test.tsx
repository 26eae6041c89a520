// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { heatmapQuestions } from "./__fixtures__/summaries.js";
import { Heatmap } from "./Heatmap.js";

afterEach(cleanup);

const MODELS = ["openai:gpt-4.1", "openai:mini +[files]"];

function cellNamed(name: string): HTMLElement {
  return screen.getByRole("gridcell", { name });
}

describe("Heatmap", () => {
  test("each cell is named by its text equivalent: question / model: status, tokens", () => {
    render(<Heatmap questions={heatmapQuestions()} models={MODELS} />);
    expect(screen.getByRole("grid").getAttribute("aria-label")).toBe(
      "Per-question results by model and replicate",
    );
    expect(screen.getAllByRole("gridcell").map((cell) => cell.getAttribute("aria-label"))).toEqual([
      "q1 / openai:gpt-4.1: passed, 1,234 tokens",
      "q1 / openai:mini +[files]: abstained, 1,234 tokens",
      "q2 / openai:gpt-4.1: error, 1,234 tokens",
      "q2 / openai:mini +[files]: not run",
    ]);
    expect(cellNamed("q1 / openai:gpt-4.1: passed, 1,234 tokens").className).toContain("heatmap-passed");
    expect(cellNamed("q2 / openai:mini +[files]: not run").className).toContain("heatmap-not-run");
  });

  test("one tab stop; arrow keys, Home and End move the focus, which shows the cell's text", () => {
    render(<Heatmap questions={heatmapQuestions()} models={MODELS} />);
    const tabStops = screen.getAllByRole("gridcell").filter((cell) => cell.tabIndex === 0);
    expect(tabStops.map((cell) => cell.getAttribute("aria-label"))).toEqual([
      "q1 / openai:gpt-4.1: passed, 1,234 tokens",
    ]);
    const first = tabStops[0] as HTMLElement;
    first.focus();
    fireEvent.keyDown(first, { key: "ArrowRight" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe(
      "q1 / openai:mini +[files]: abstained, 1,234 tokens",
    );
    expect(screen.getByTestId("heatmap-shown").textContent).toBe(
      "q1 / openai:mini +[files]: abstained, 1,234 tokens",
    );
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowRight" }); // the edge: stays
    expect(document.activeElement?.getAttribute("aria-label")).toBe(
      "q1 / openai:mini +[files]: abstained, 1,234 tokens",
    );
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowDown" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("q2 / openai:mini +[files]: not run");
    fireEvent.keyDown(document.activeElement as Element, { key: "Home" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe(
      "q2 / openai:gpt-4.1: error, 1,234 tokens",
    );
    // the focused cell is the only tab stop now
    expect(screen.getAllByRole("gridcell").filter((cell) => cell.tabIndex === 0)).toEqual([
      document.activeElement,
    ]);
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowUp" });
    fireEvent.keyDown(document.activeElement as Element, { key: "End", ctrlKey: true });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("q2 / openai:mini +[files]: not run");
  });

  test("Enter, Space and a click open the cell's result; a cell without a row opens nothing", () => {
    const onOpenDetail = vi.fn();
    render(<Heatmap questions={heatmapQuestions()} models={MODELS} onOpenDetail={onOpenDetail} />);
    fireEvent.keyDown(cellNamed("q1 / openai:gpt-4.1: passed, 1,234 tokens"), { key: "Enter" });
    fireEvent.keyDown(cellNamed("q2 / openai:gpt-4.1: error, 1,234 tokens"), { key: " " });
    fireEvent.click(cellNamed("q1 / openai:mini +[files]: abstained, 1,234 tokens"));
    fireEvent.keyDown(cellNamed("q2 / openai:mini +[files]: not run"), { key: "Enter" });
    expect(onOpenDetail.mock.calls).toEqual([["r-a1"], ["r-a2"], ["r-b1"]]);
  });

  test("columns per replicate when a model ran a question more than once", () => {
    const questions = heatmapQuestions();
    const q1 = questions[0]?.results_by_model["openai:gpt-4.1"];
    q1?.replicates.push({
      ...(q1.replicates[0] as NonNullable<(typeof q1.replicates)[0]>),
      result_id: "r-a1-2",
      passed: false,
    });
    render(<Heatmap questions={questions} models={MODELS} />);
    expect(screen.getAllByRole("columnheader").map((th) => th.textContent)).toEqual([
      "Question",
      "openai:gpt-4.1 rep 1",
      "openai:gpt-4.1 rep 2",
      "openai:mini +[files] rep 1",
    ]);
    expect(cellNamed("q1 / openai:gpt-4.1 rep 2: failed, 1,234 tokens")).toBeTruthy();
    expect(cellNamed("q2 / openai:gpt-4.1 rep 2: not run")).toBeTruthy();
  });
});
