// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { richResult, timedOutResult } from "./__fixtures__/results.js";
import { ResultDetail } from "./ResultDetail.js";
import { hashWithoutResult, resultLinkHash, resultLinkOf, resultPath } from "./result-path.js";

afterEach(cleanup);

function sectionTitles(): string[] {
  return screen.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent ?? "");
}

function section(name: string) {
  return screen.getByRole("region", { name });
}

/** The text of a definition list entry in a region. */
function fact(region: HTMLElement, label: string): string | null | undefined {
  const term = within(region).getAllByText(label, { selector: "dt" })[0];
  return term?.nextElementSibling?.textContent;
}

describe("ResultDetail on a full result (hand-written test data)", () => {
  test("shows every section, in the spec's order", () => {
    render(<ResultDetail result={richResult()} />);
    expect(sectionTitles()).toEqual([
      "Status",
      "Raw Question",
      "Raw Answer (Expected)",
      "Raw LLM Response (Generated)",
      "Ground Truth vs LLM Extraction",
      "Regex Checks",
      "Verification",
      "Rubric Scores",
      "Embedding Check",
      "Abstention and Sufficiency",
      "Deep Judgment",
      "Rubric Deep Judgment",
      "System Prompts",
      "Metadata",
      "Caveats",
      "Retries",
      "LLM Usage",
    ]);
  });

  test("status shows the failure category with its group, stage and reason", () => {
    render(<ResultDetail result={richResult()} />);
    const status = section("Status");
    expect(fact(status, "Failure category")).toBe("content (content)");
    expect(fact(status, "Stage")).toBe("verify_template");
    expect(fact(status, "Reason")).toBe("target: expected BCL2, found MCL1");
    expect(within(status).getByText("answer trimmed to the final message")).toBeTruthy();
  });

  test("the raw response is in the trace viewer, split into messages", () => {
    render(<ResultDetail result={richResult()} />);
    const response = section("Raw LLM Response (Generated)");
    const viewer = within(response).getByRole("region", { name: "Answer trace" });
    expect(
      within(viewer)
        .getAllByRole("heading", { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(["--- AI Message ---", "--- Tool Message (call_id: call_1) ---", "--- AI Message ---"]);
    expect(
      within(response).getByText("Venetoclax inhibits MCL1.", { selector: "pre.detail-text" }),
    ).toBeTruthy();
  });

  test("ground truth and extraction per field, with field results and scores", () => {
    render(<ResultDetail result={richResult()} />);
    const rows = within(section("Ground Truth vs LLM Extraction")).getAllByRole("row");
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ["Field", "Ground truth", "LLM extraction", "Field result", "Field score"],
      ["target", "BCL2", "MCL1", "Failed", "0"],
      ["mechanism", "inhibitor", "inhibitor", "Passed", "1"],
    ]);
  });

  test("rubric: literal traits by label, metric values and confusion lists, agentic traces", () => {
    render(<ResultDetail result={richResult()} />);
    const rubric = section("Rubric Scores");
    const rows = within(rubric)
      .getAllByRole("row")
      .map((row) => Array.from(row.children, (cell) => cell.textContent));
    expect(rows).toContainEqual(["tone", "LLM", "neutral (2)", "question_specific"]);
    expect(rows).toContainEqual(["cites_pmid", "Regex", "false", "—"]);
    expect(within(rubric).getByText("precision: 1, recall: 0.5")).toBeTruthy();
    expect(fact(rubric, "TP")).toBe("BCL2");
    expect(fact(rubric, "FN")).toBe("BAX");
    expect(fact(rubric, "looked_up_sources")).toBe("searched PubMed twice (extraction: local_json)");
  });

  test("verification, regex, embedding, abstention and sufficiency", () => {
    render(<ResultDetail result={richResult()} />);
    expect(fact(section("Verification"), "Granular result")).toBe("0.5");
    expect(fact(section("Verification"), "Composition")).toBe("all_of");
    const regex = section("Regex Checks");
    expect(within(regex).getAllByRole("row")[1]?.textContent).toMatch(/^gene_symbolPassed/);
    expect(
      within(regex).getByRole("heading", { name: "Regex extraction" }).nextElementSibling?.textContent,
    ).toBe('{\n  "gene_symbol": [\n    "MCL1"\n  ]\n}');
    expect(fact(section("Embedding Check"), "Similarity score")).toBe("0.875");
    const checks = section("Abstention and Sufficiency");
    expect(within(checks).getByText("Did not abstain")).toBeTruthy();
    expect(within(checks).getByText("Sufficient")).toBeTruthy();
    expect(within(checks).getByText("Names one protein.")).toBeTruthy();
  });

  test("deep judgment: excerpts with confidence, similarity, search results, risk and justification", () => {
    render(<ResultDetail result={richResult()} />);
    const judgment = section("Deep Judgment");
    expect(within(judgment).getByText("Venetoclax inhibits MCL1", { selector: "blockquote" })).toBeTruthy();
    expect(fact(judgment, "Confidence")).toBe("high");
    expect(fact(judgment, "Similarity")).toBe("0.98");
    expect(fact(judgment, "Justification")).toBe("the label says BCL2");
    expect(within(judgment).getByText(/example\.org\/bcl2/)).toBeTruthy();
    expect(fact(judgment, "Attributes without excerpts")).toBe("mechanism");
    expect(fact(judgment, "Stages completed")).toBe("excerpts, reasoning, parameters");
    const rubricJudgment = section("Rubric Deep Judgment");
    expect(fact(rubricJudgment, "Deep-judgment score")).toBe("4");
    expect(fact(rubricJudgment, "Hallucination risk")).toBe("low");
  });

  test("metadata, caveats, retries and usage per stage with totals and agent metrics", () => {
    render(<ResultDetail result={richResult()} />);
    expect(fact(section("Metadata"), "Answering model")).toBe(
      "openai_endpoint:gpt-4.1-mini (agent) +[pubmed]",
    );
    expect(fact(section("Metadata"), "Execution time")).toBe("2.75 s");
    expect(within(section("Caveats")).getByText("retries_used")).toBeTruthy();
    const retries = within(section("Retries"))
      .getAllByRole("row")
      .map((row) => Array.from(row.children, (c) => c.textContent));
    expect(retries).toContainEqual(["rate_limit", "1", "3"]);
    const usage = section("LLM Usage");
    const usageRows = within(usage)
      .getAllByRole("row")
      .map((row) => Array.from(row.children, (c) => c.textContent));
    expect(usageRows).toEqual([
      ["Stage", "Model", "Input", "Output", "Total"],
      ["answer_generation", "gpt-4.1-mini", "120", "40", "160"],
      ["parsing", "judge-mini", "300", "20", "320"],
      ["Total", "", "420", "60", "480"],
    ]);
    expect(fact(usage, "Calls per tool")).toBe("pubmed_search: 2");
  });
});

describe("ResultDetail on a timed-out result (hand-written test data)", () => {
  test("shows only the sections with data", () => {
    render(<ResultDetail result={timedOutResult()} />);
    expect(sectionTitles()).toEqual(["Status", "Raw Question", "Metadata"]);
    expect(fact(section("Status"), "Failure category")).toBe("timeout (retry)");
    expect(fact(section("Status"), "Details")).toBe('{"after_s":60}');
  });
});

describe("resultPath", () => {
  test("escapes the id and adds the database when given", () => {
    expect(resultPath("main db", "a/b")).toBe("/api/v2/results/a%2Fb?db=main+db");
    expect(resultPath(null, "ccb35805790e357a")).toBe("/api/v2/results/ccb35805790e357a");
    expect(resultPath(null, "x", "run 1")).toBe("/api/v2/results/x?run_id=run+1");
  });
});

describe("result links in the hash", () => {
  test("a hash with ?result= names the result, its database and run; without one, none", () => {
    expect(resultLinkOf("#/benchmark?result=ccb35805790e357a&db=main&run_id=r1")).toEqual({
      resultId: "ccb35805790e357a",
      db: "main",
      runId: "r1",
    });
    expect(resultLinkOf("#/benchmark?result=abc")).toEqual({ resultId: "abc", db: null });
    expect(resultLinkOf("#/benchmark")).toBeNull();
    expect(resultLinkOf("#/benchmark?result=")).toBeNull();
    expect(hashWithoutResult("#/benchmark?result=abc")).toBe("#/benchmark");
    expect(resultLinkOf(resultLinkHash("#/benchmark", { resultId: "a b", db: "x&y", runId: "r" }))).toEqual({
      resultId: "a b",
      db: "x&y",
      runId: "r",
    });
  });
});
