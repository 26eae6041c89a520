import { describe, expect, it } from "vitest";
import {
  agenticExtractionPrompt,
  investigationPrompt,
  judgeContextShows,
  MAX_REPORT_CHARS,
  truncateReport,
  unansweredFields,
} from "./agentic-parsing.js";

const schema = { type: "object", properties: { passes: { type: "boolean" } }, required: ["passes"] };
const base = {
  question: "Fix the bug in sum.js so that its test passes.",
  judgeSchema: schema,
  trace: "--- AI Message ---\nI fixed sum.js.",
  workspacePath: "/tmp/ws/fix_run_1",
  tools: { fileTools: true, commandExecution: false },
};

describe("seed 002 §3 investigation prompt and the judge-context modes", () => {
  it("workspace_only shows the workspace and not the answering trace", () => {
    const prompt = investigationPrompt({ ...base, mode: "workspace_only" });
    expect(prompt.task).toBe("agentic_parsing_investigation");
    expect(prompt.user).toContain("Question: Fix the bug");
    expect(prompt.user).toContain("Workspace directory: /tmp/ws/fix_run_1");
    expect(prompt.user).not.toContain("I fixed sum.js");
  });

  it("trace_and_workspace shows both; trace_only shows the trace and no workspace", () => {
    const both = investigationPrompt({ ...base, mode: "trace_and_workspace" });
    expect(both.user).toContain("I fixed sum.js");
    expect(both.user).toContain("Workspace directory:");
    const traceOnly = investigationPrompt({ ...base, mode: "trace_only" });
    expect(traceOnly.user).toContain("I fixed sum.js");
    expect(traceOnly.user).not.toContain("Workspace directory:");
    expect(judgeContextShows("trace_only")).toEqual({ trace: true, workspace: false });
  });

  it("embeds the judge schema in the system text", () => {
    const prompt = investigationPrompt({ ...base, mode: "workspace_only" });
    expect(prompt.system).toContain('"passes"');
    expect(prompt.system).toContain("_unanswered_fields");
  });
});

describe("agentic extraction input", () => {
  it("keeps short reports whole and cuts long ones to the limit around a marker", () => {
    expect(truncateReport("short")).toBe("short");
    const long = `${"a".repeat(50_000)}${"b".repeat(50_000)}`;
    const cut = truncateReport(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_REPORT_CHARS);
    expect(cut.startsWith("a".repeat(20_000))).toBe(true);
    expect(cut.endsWith("b".repeat(30_000))).toBe(true);
    expect(cut).toMatch(/investigation report truncated; omitted \d+ characters/);
  });

  it("reads _unanswered_fields, keeping only the template's fields", () => {
    const report = '```json\n{"passes": null, "_unanswered_fields": ["passes", "bogus"]}\n```';
    expect([...unansweredFields(report, new Set(["passes"]))]).toEqual(["passes"]);
    expect(unansweredFields("no json here", new Set(["passes"])).size).toBe(0);
  });

  it("the extraction prompt carries the report and the schema", () => {
    const prompt = agenticExtractionPrompt({ judgeSchema: schema, report: "The test passes now." });
    expect(prompt.task).toBe("agentic_parsing_extraction");
    expect(prompt.user).toContain("The test passes now.");
  });
});
