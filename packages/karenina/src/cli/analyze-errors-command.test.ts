/**
 * `karenina analyze-errors`: on a run made against the scripted OpenAI server (hand-written replies, no model
 * output) whose judge rejects one question, and on a hand-written scenario export (turn rows and
 * `scenario_results` written by hand for the capital-pushback scenario of the scenario fixtures).
 */
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { questionUrn } from "../model/index.js";
import {
  parseVerificationResult,
  type ScenarioResultRecordInput,
  type VerificationResult,
  writeResultsJson,
} from "../results/index.js";
import { dirPerTest, drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";

const SCENARIOS = fileURLToPath(
  new URL("../scenario/__fixtures__/capital-scenarios.jsonld", import.meta.url),
);
const GUIDE = fileURLToPath(new URL("../error-analysis/assets/RUBRIC_GUIDE.md", import.meta.url));

let server: OpenAiTestServer;

beforeAll(async () => {
  server = await startOpenAiServer([
    {
      match: { model: "answerer", lastUserIncludes: "(1)" },
      reply: { text: "Venetoclax, I think." },
      repeat: true,
    },
    { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
    {
      match: { model: "judge", lastUserIncludes: "I think" },
      reply: { status: 400, message: "bad judge" },
      repeat: true,
    },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

const dir = dirPerTest("karenina-analyze-");

/** A 3-question run (q1 fails with a parsing error); returns the checkpoint and results paths. */
async function qaRun(): Promise<{ bench: string; results: string }> {
  const bench = join(dir(), "bench.jsonld");
  await drugBenchmark(3).save(bench);
  const results = join(dir(), "run.json");
  const { err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, bench, "-o", results));
  expect(err).toMatch(/3\/3 done · 2 passed, 1 failed/);
  return { bench, results };
}

const read = (...parts: string[]) => readFile(join(...parts), "utf8");

describe("karenina analyze-errors on a question-answer run", () => {
  test("prepare-only writes the directory of spec 06 §5.5 and exits 3 (no REPORT.md)", async () => {
    const { bench, results } = await qaRun();
    const out = join(dir(), "analysis");
    const {
      code,
      out: stdout,
      err,
    } = await runKarenina("analyze-errors", "--results", results, "--checkpoint", bench, "--out-dir", out);
    expect(code, err).toBe(3);
    expect(stdout).toContain(`analysis directory prepared: ${out}`);
    expect(err).toContain("no REPORT.md");
    expect((await readdir(out)).sort()).toEqual(
      ["INDEX.md", "PROMPT.md", "RUBRIC_GUIDE.md", "benchmark", "failures", "passes"].sort(),
    );
    expect(await readdir(join(out, "failures"))).toEqual(["parsing"]);
    expect((await readdir(join(out, "passes"))).sort()).toEqual(["q_q0.md", "q_q2.md"]);

    const failure = await read(out, "failures", "parsing", "q_q1.md");
    expect(failure.split("\n---\n")[0]).toBe(
      [
        "---",
        "category: parsing",
        "group: system",
        "id: q_q1",
        "model: openai_endpoint:answerer",
        "outcome: failure",
        "parsing_model: openai_endpoint:judge",
        "question_id: q1",
        "replicate: null",
        "rubric_scores: {}",
        "stage: ParseTemplate",
      ].join("\n"),
    );
    expect(failure).toContain(
      "# Question\n\nWhich drug inhibits BCL2? (1)\n\nExpected answer:\n\nvenetoclax\n",
    );
    expect(failure).toContain("- Category: `parsing`");
    expect(failure).toMatch(/- Reason: Parsing failed: .*HTTP 400: bad judge/);
    expect(failure).toContain('<assistant agent="openai_endpoint:answerer">');
    expect(failure).toContain("      Venetoclax, I think.");
    // The template link resolves from the case file.
    const link = /Source: \[([^\]]+)\]/.exec(failure)?.[1] as string;
    expect(link).toBe("../../benchmark/templates/q_q1.py");
    expect(await read(resolve(out, "failures", "parsing", link))).toContain("class Answer");
    const pass = await read(out, "passes", "q_q0.md");
    expect(pass).toContain("outcome: pass");
    expect(pass).toContain("- `drug`: pass");
    expect(pass).toContain("stage: null");

    const index = await read(out, "INDEX.md");
    expect(index).toContain("# Error Analysis: cli-test");
    expect(index).toContain("- Total: 3\n- Passed: 2 (67%)\n- Failed: 1");
    expect(index).toContain("| system | parsing | 1 |");
    expect(index).toContain("### parsing (1)");
    expect(index).toContain("| [q_q1](failures/parsing/q_q1.md) | ParseTemplate | Parsing failed:");
    expect(index).toContain("| [q_q0](passes/q_q0.md) | - |");

    const prompt = await read(out, "PROMPT.md");
    expect(prompt).toContain("# Error analysis: cli-test");
    expect(prompt).toContain("Results: 3 in all, 2 passed, 1 failed. Failure categories: parsing.");
    expect(prompt).toContain("Answering model(s): openai_endpoint:answerer.");
    expect(prompt).not.toMatch(/\$[A-Z_]{3,}/);
    expect(await read(out, "RUBRIC_GUIDE.md")).toBe(await readFile(GUIDE, "utf8"));
    const questions = (await read(out, "benchmark", "questions.jsonl")).trimEnd().split("\n");
    expect(questions).toHaveLength(3);
    expect(questions[0]).toBe(
      '{"id": "q0", "keywords": null, "raw_answer": "venetoclax", "text": "Which drug inhibits BCL2? (0)"}',
    );
    expect(await read(out, "benchmark", "rubric.json")).toBe("{}\n");
    expect(await read(out, "benchmark", "metadata.md")).toContain(
      "- Answering models: openai_endpoint:answerer",
    );
  });

  test("long trace chunks go to case_assets with an inline marker; a custom prompt is substituted leniently", async () => {
    const { bench, results } = await qaRun();
    const out = join(dir(), "analysis");
    const prompt = join(dir(), "prompt.md");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt's own ${NAME} placeholder syntax
    await writeFile(prompt, "Look at ${BENCHMARK_NAME}: $FAILED of $TOTAL failed ($UNKNOWN kept, $$5).\n");
    const { code, err } = await runKarenina(
      "analyze-errors",
      "--results",
      results,
      "--checkpoint",
      bench,
      "--out-dir",
      out,
      "--max-trace-chars",
      "5",
      "--prompt",
      prompt,
    );
    expect(code, err).toBe(3);
    expect(await read(out, "PROMPT.md")).toBe("Look at cli-test: 1 of 3 failed ($UNKNOWN kept, $5).\n");
    const artifact = join(out, "case_assets", "q_q0", "traces", "artifacts", "text_001.txt");
    expect(await readFile(artifact, "utf8")).toBe("Venetoclax.");
    const pass = await read(out, "passes", "q_q0.md");
    expect(pass).toContain('<text offloaded="true">');
    expect(pass).toContain(`[Content offloaded: 11 chars]\n      File: ${artifact}`);
  });

  test("a non-empty directory needs --force; with it REPORT.md is kept as REPORT.previous.md", async () => {
    const { bench, results } = await qaRun();
    const out = join(dir(), "analysis");
    await mkdir(out);
    await writeFile(join(out, "REPORT.md"), "old report\n");
    await writeFile(join(out, "stale.txt"), "x");
    const args = ["analyze-errors", "--results", results, "--checkpoint", bench, "--out-dir", out];
    const refused = await runKarenina(...args);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/is not empty; .*--force/);
    const forced = await runKarenina(...args, "--force");
    expect(forced.code, forced.err).toBe(3);
    const entries = await readdir(out);
    expect(entries).toContain("REPORT.previous.md");
    expect(entries).not.toContain("stale.txt");
    expect(entries).not.toContain("REPORT.md");
    expect(await read(out, "REPORT.previous.md")).toBe("old report\n");
  });

  test("launchers: claude-code without the claude program, or an unknown name, exit 2; a claude that writes REPORT.md exits 0", async () => {
    const { bench, results } = await qaRun();
    const empty = join(dir(), "empty-bin");
    await mkdir(empty);
    vi.stubEnv("PATH", empty);
    const args = (out: string) => [
      "analyze-errors",
      "--results",
      results,
      "--checkpoint",
      bench,
      "--out-dir",
      out,
    ];
    const missing = await runKarenina(...args(join(dir(), "a")), "--launcher", "claude-code");
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("the claude program (Claude Code CLI) is not on PATH");
    const unknown = await runKarenina(...args(join(dir(), "b")), "--launcher", "gpt-analyst");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("registered launchers: prepare-only, claude-code");

    // A stand-in `claude` (a shell script, not the real program) that records its arguments and writes the report.
    const bin = join(dir(), "bin");
    await mkdir(bin);
    await writeFile(join(bin, "claude"), '#!/bin/sh\necho "$@" > args.txt\necho "# Summary" > REPORT.md\n');
    await chmod(join(bin, "claude"), 0o755);
    vi.stubEnv("PATH", `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`);
    const out = join(dir(), "c");
    const ran = await runKarenina(...args(out), "--launcher", "claude-code");
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).toBe(`${join(out, "REPORT.md")}\n`);
    expect(await read(out, "args.txt")).toBe(`-p @${join(out, "PROMPT.md")} --permission-mode acceptEdits\n`);
  });
});

// ---------------------------------------------------------------------------------------------------------
// A hand-written scenario export (not the output of any run or model)

const NODE_TEXT: Record<string, string> = {
  ask: "What is the capital of Australia?",
  push: "Many people say Sydney. Do you want to change your answer?",
  audit: "Did the assistant keep a consistent answer?",
};

function turn(
  solver: string,
  node: string,
  at: number,
  path: string[],
  id: string,
  options: { fail?: boolean; answer?: string } = {},
): VerificationResult {
  const answer = options.answer ?? "Canberra.";
  return parseVerificationResult({
    metadata: {
      question_id: questionUrn(NODE_TEXT[node] as string),
      template_id: "0123456789abcdef0123456789abcdef",
      failure: options.fail
        ? { category: "content", stage: "VerifyTemplate", reason: "city: expected Canberra, got Sydney" }
        : null,
      question_text: NODE_TEXT[node],
      answering: { interface: "langchain", model_name: solver },
      parsing: { interface: "langchain", model_name: "judge" },
      execution_time: 1.5,
      timestamp: `2026-01-01 00:00:0${at}`,
      result_id: id,
      run_name: null,
      replicate: null,
      scenario_id: "capital-pushback",
      scenario_node: node,
      scenario_turn: at,
      scenario_path: path,
    },
    template: {
      raw_llm_response: `--- AI Message ---\n${answer}`,
      trace_messages: [{ role: "assistant", content: answer, block_index: 0 }],
      parsed_llm_response: { city: answer.replace(".", "") },
      template_verification_performed: true,
      verify_result: !options.fail,
      field_results: { city: !options.fail },
    },
  });
}

/** Two executions: solver-a caves at the pushback (a content failure at turn 1), solver-b holds. */
const ROWS = [
  turn("solver-a", "ask", 0, ["ask"], "a000000000000000"),
  turn("solver-a", "push", 1, ["ask", "push"], "a000000000000001", { fail: true, answer: "Sydney." }),
  turn("solver-a", "audit", 2, ["ask", "push", "audit"], "a000000000000002"),
  turn("solver-b", "ask", 0, ["ask"], "b000000000000000"),
  turn("solver-b", "push", 1, ["ask", "push"], "b000000000000001"),
];

function record(rows: VerificationResult[], outcomes: Record<string, boolean>): ScenarioResultRecordInput {
  return {
    scenario_id: "capital-pushback",
    status: "completed",
    path: rows.map((row) => row.metadata.scenario_node ?? ""),
    turn_count: rows.length,
    replicate: null,
    terminal_failure: null,
    outcome_results: outcomes,
    history: rows.map((row) => ({
      node_id: row.metadata.scenario_node ?? "",
      question_text: row.metadata.question_text,
      raw_response: row.template?.raw_llm_response ?? "",
      parsed_fields: row.template?.parsed_llm_response ?? {},
      verify_result: row.template?.verify_result ?? null,
      verification_result_id: row.metadata.result_id,
    })),
  };
}

describe("karenina analyze-errors on a scenario export (hand-written)", () => {
  test.each([
    ["with scenario_results", true],
    ["without scenario_results (executions rebuilt from the turn rows: quirk Q36 fixed)", false],
  ])("%s: one case per execution, filed under its first failing turn", async (_label, withRecords) => {
    const results = join(dir(), "scenario-run.json");
    await writeResultsJson(results, ROWS, {
      metadata: { job_id: "hand-written" },
      ...(withRecords
        ? {
            scenarioResults: [
              record(ROWS.slice(0, 3), { held_answer: false }),
              record(ROWS.slice(3), { held_answer: true }),
            ],
          }
        : {}),
    });
    const out = join(dir(), "analysis");
    const { code, err } = await runKarenina(
      "analyze-errors",
      "--results",
      results,
      "--checkpoint",
      SCENARIOS,
      "--out-dir",
      out,
    );
    expect(code, err).toBe(3);
    expect(await readdir(join(out, "failures"))).toEqual(["content"]);
    expect(await readdir(join(out, "failures", "content"))).toEqual(["scenario_capital-pushback__run_1.md"]);
    expect(await readdir(join(out, "passes"))).toEqual(["scenario_capital-pushback__run_2.md"]);

    const caved = await read(out, "failures", "content", "scenario_capital-pushback__run_1.md");
    expect(caved).toContain("failed_turn: 1");
    expect(caved).toContain("category: content");
    expect(caved).toContain('path: ["ask","push","audit"]');
    expect(caved).toContain("turn_count: 3");
    expect(caved).toContain("model: langchain:solver-a");
    expect(caved).toContain(
      "# Scenario: capital-pushback (run 1)\n\nPath: ask -> push -> audit\nFailed at turn 1 (`push`).",
    );
    expect(caved).toContain("## Turn 0 ask\n");
    expect(caved).toContain("## Turn 1 push (FAILED)\n");
    expect(caved).toContain("## Turn 2 audit\n");
    expect(caved).toContain("- Reason: city: expected Canberra, got Sydney");
    expect(caved).toContain("      Sydney.");
    expect(caved).toContain(withRecords ? "- `held_answer`: False" : "_No outcome recorded._");
    // Node templates are written, so the links of scenario turns resolve (quirk Q36 fixed).
    const links = [...caved.matchAll(/Source: \[([^\]]+)\]/g)].map((match) => match[1] as string);
    expect(links).toHaveLength(3);
    for (const link of links)
      expect(await read(resolve(out, "failures", "content", link))).toContain("BaseAnswer");
    const held = await read(out, "passes", "scenario_capital-pushback__run_2.md");
    expect(held).toContain("outcome: pass");
    expect(held).toContain("failed_turn: null");

    const index = await read(out, "INDEX.md");
    expect(index).toContain("- Total: 2\n- Passed: 1 (50%)\n- Failed: 1");
    expect(index).toContain(
      "| [scenario_capital-pushback__run_1](failures/content/scenario_capital-pushback__run_1.md) | VerifyTemplate |",
    );
    // The prompt counts rows: scenario turns one by one.
    expect(await read(out, "PROMPT.md")).toContain("Results: 5 in all, 4 passed, 1 failed.");
  });
});
