// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { twoModelSummary } from "./__fixtures__/summaries.js";
import { SummaryView } from "./SummaryView.js";
import { comparedModelOfCombo, modelOptionsOf, parsingModelsOf } from "./summary-figures.js";

afterEach(cleanup);

function cardTexts(region: string): string[] {
  return within(screen.getByRole("region", { name: region }))
    .getAllByRole("listitem")
    .map((item) => item.textContent ?? "");
}

describe("SummaryView", () => {
  test("overview and completion figures of the summary", () => {
    render(<SummaryView summary={twoModelSummary()} />);
    expect(cardTexts("Overview")).toEqual([
      "4Total results",
      "2Questions",
      "2 answering × 1 parsingModels",
      "1Replicates",
      "12.5 sTotal execution time",
      "1,234Tokens",
    ]);
    expect(cardTexts("Completion Status")).toEqual([
      "3Completed",
      "1Errors",
      "2Passed",
      "2Failed",
      "1Abstained",
      "50 %Pass rate",
    ]);
    // without onFilter the cards are not buttons
    expect(
      within(screen.getByRole("region", { name: "Completion Status" })).queryAllByRole("button"),
    ).toEqual([]);
    expect(screen.queryByRole("region", { name: "Replicate Statistics" })).toBeNull();
  });

  test("the completion cards are buttons that filter the table", () => {
    const onFilter = vi.fn();
    render(<SummaryView summary={twoModelSummary()} onFilter={onFilter} />);
    const buttons = within(screen.getByRole("region", { name: "Completion Status" })).getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual([
      "3Completed",
      "1Errors",
      "2Passed",
      "2Failed",
      "1Abstained",
    ]);
    for (const button of buttons) fireEvent.click(button);
    expect(onFilter.mock.calls).toEqual([["completed"], ["errors"], ["passed"], ["failed"], ["abstained"]]);
  });
});

describe("model options from the summary's combinations", () => {
  test("distinct answering models with their MCP servers, and the parsing models", () => {
    expect(modelOptionsOf(twoModelSummary())).toEqual([
      { key: "openai:gpt-4.1", model: { answering_model: "gpt-4.1", interface: "openai", mcp_config: "[]" } },
      {
        key: "openai:mini +[files]",
        model: { answering_model: "mini", interface: "openai", mcp_config: '["files"]' },
      },
    ]);
    expect(parsingModelsOf(twoModelSummary())).toEqual(["openai:judge"]);
  });

  test("a config id is dropped; a model name may hold colons; a key without an interface is no model", () => {
    expect(comparedModelOfCombo("langchain:org:model-1 (agent) +[a, b] | openai:judge | a, b")).toEqual({
      answering_model: "org:model-1",
      interface: "langchain",
      mcp_config: '["a","b"]',
    });
    expect(comparedModelOfCombo("no-interface | openai:judge")).toBeUndefined();
  });
});
