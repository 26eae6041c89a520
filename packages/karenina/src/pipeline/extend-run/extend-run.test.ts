/**
 * The extension helpers (spec 04 §17, 08 §10.1) against a scripted OpenAI-compatible server on 127.0.0.1, with
 * real Python templates: a prior run is made live, then extended, and the requests the server received prove
 * which answers were replayed. Every scripted reply is hand-written test data, not output of any model.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { ReplayStore } from "../../llm/index.js";
import { parseRubric, type Rubric } from "../../model/index.js";
import type { VerificationResult } from "../../results/index.js";
import { END, Scenario } from "../../scenario/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { endpointConfig } from "../../test-support/pipeline-context.js";
import type { VerificationConfig } from "../config/index.js";
import { runVerification } from "../run-verification.js";
import type { PipelineQuestion } from "../task.js";
import { ExtendRunError, type ExtendSource, extendRubric, extendTemplate } from "./index.js";

const DRUG_TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

const Q1 = "Which drug inhibits BCL2?";
const Q2 = "Which drug was approved first?";

function question(id: string, text: string, rubric: Rubric | null = null): PipelineQuestion {
  return {
    id,
    text,
    rawAnswer: "venetoclax",
    template: { code: DRUG_TEMPLATE, language: "Python" },
    keywords: null,
    fewShotExamples: [],
    rubric,
    dynamicRubric: null,
    workspacePath: null,
  };
}

/** An `ExtendSource` over questions held in memory, as a benchmark of them provides it. */
function source(questions: readonly PipelineQuestion[], globalRubric: Rubric | null = null): ExtendSource {
  return {
    isScenarioBenchmark: false,
    globalRubric,
    questions: async (ids) => questions.filter((q) => ids.includes(q.id)),
  };
}

function config(
  answerers: readonly string[],
  judges: readonly string[],
  extra: Record<string, unknown> = {},
): VerificationConfig {
  return endpointConfig(server.baseURL, { answerers, judges }, extra);
}

let server: OpenAiTestServer;
let dir: string;
beforeEach(async () => {
  server = await startOpenAiServer();
  dir = await mkdtemp(join(tmpdir(), "karenina-extend-"));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const chatRequests = (model: string) =>
  server.requests.filter((r) => r.path.endsWith("/chat/completions") && r.body.model === model).length;

const QUESTIONS = [question("q1", Q1), question("q2", Q2)];

/** The judge's template replies: it reads the drug each answer names (one rule per call, so later rules apply). */
function scriptJudge(model: string, calls: number): void {
  for (let i = 0; i < calls; i++)
    server.script(
      { match: { model, lastUserIncludes: "Venetoclax inhibits" }, reply: { json: { drug: "venetoclax" } } },
      { match: { model, lastUserIncludes: "Navitoclax was" }, reply: { json: { drug: "navitoclax" } } },
    );
}

/** A live prior run: `answerer` answers both questions, `judge` reads the drug it names. */
async function priorRun(
  extra: { replicate_count?: number; evaluation_mode?: string } = {},
  questions: readonly PipelineQuestion[] = QUESTIONS,
): Promise<VerificationResult[]> {
  server.script(
    {
      match: { model: "answerer", lastUserIncludes: "BCL2" },
      reply: { text: "Venetoclax inhibits BCL2." },
      repeat: true,
    },
    {
      match: { model: "answerer", lastUserIncludes: "approved" },
      reply: { text: "Navitoclax was." },
      repeat: true,
    },
  );
  scriptJudge("judge", extra.replicate_count ?? 1);
  const run = await runVerification(questions, config(["answerer"], ["judge"], extra), {
    runName: "prior-run",
  });
  return run.results;
}

const key = (r: VerificationResult) =>
  `${r.metadata.question_id}/${r.metadata.answering.model_name}/${r.metadata.parsing.model_name}/${r.metadata.replicate}`;

describe("extendTemplate", () => {
  test("a new judge on a prior run: rows for the new judge only, zero answering requests, prior rows verbatim", async () => {
    const prior = await priorRun();
    const before = structuredClone(prior);
    const answered = chatRequests("answerer");
    // judge2 reads every answer as venetoclax: its verdicts differ from judge's on q2, so it really parsed.
    server.script({ match: { model: "judge2" }, reply: { json: { drug: "venetoclax" } }, repeat: true });
    const output = join(dir, "extended.jsonl");
    const run = await extendTemplate(source(QUESTIONS), prior, config(["answerer"], ["judge", "judge2"]), {
      output,
    });
    expect(chatRequests("answerer")).toBe(answered);
    expect(chatRequests("judge2")).toBe(2);
    expect(run.runName).toBe("prior-run");
    expect(run.results).toHaveLength(4);
    expect(run.results.slice(0, 2)).toEqual(before);
    expect(prior).toEqual(before);
    expect(run.newResults.map(key).sort()).toEqual(["q1/answerer/judge2/null", "q2/answerer/judge2/null"]);
    const byQuestion = Object.fromEntries(run.newResults.map((r) => [r.metadata.question_id, r]));
    expect(byQuestion.q1?.template?.verify_result).toBe(true);
    expect(byQuestion.q2?.template?.verify_result).toBe(true);
    expect(byQuestion.q2?.template?.raw_llm_response).toContain("Navitoclax was.");
    expect(run.results.every((r) => r.metadata.run_name === "prior-run")).toBe(true);
    const logged = (await readFile(output, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(logged.map((r) => r.metadata.result_id)).toEqual(run.results.map((r) => r.metadata.result_id));
  });

  test("a new replicate count: only the new replicates are answered, live", async () => {
    const prior = await priorRun();
    const answered = chatRequests("answerer");
    const judged = chatRequests("judge");
    scriptJudge("judge", 2);
    const run = await extendTemplate(
      source(QUESTIONS),
      prior,
      config(["answerer"], ["judge"], { replicate_count: 3 }),
    );
    expect(chatRequests("answerer") - answered).toBe(4);
    expect(chatRequests("judge") - judged).toBe(4);
    expect(run.results).toHaveLength(6);
    expect(run.newResults.map(key).sort()).toEqual([
      "q1/answerer/judge/2",
      "q1/answerer/judge/3",
      "q2/answerer/judge/2",
      "q2/answerer/judge/3",
    ]);
    // The prior rows (replicate null) stand for replicate 1 and pass through unchanged.
    expect(run.results.slice(0, 2)).toEqual(prior);
  });

  test("a new answering model is answered live; the prior answerer's answers are replayed to the new judge", async () => {
    const prior = await priorRun();
    const answered = chatRequests("answerer");
    server.script(
      { match: { model: "answerer2" }, reply: { text: "Venetoclax." }, repeat: true },
      {
        match: { model: "judge", lastUserIncludes: "Venetoclax." },
        reply: { json: { drug: "venetoclax" } },
        repeat: true,
      },
    );
    const run = await extendTemplate(source(QUESTIONS), prior, config(["answerer", "answerer2"], ["judge"]));
    expect(chatRequests("answerer")).toBe(answered);
    expect(chatRequests("answerer2")).toBe(2);
    expect(run.newResults.map(key).sort()).toEqual(["q1/answerer2/judge/null", "q2/answerer2/judge/null"]);
  });

  test("each check of spec 08 §10.1 fails with its message before any request", async () => {
    const prior = await priorRun({ replicate_count: 2 });
    const requests = server.requests.length;
    const base = config(["answerer"], ["judge", "judge2"], { replicate_count: 2 });
    const src = source(QUESTIONS);
    const cases: [string, () => Promise<unknown>, RegExp][] = [
      [
        "empty prior",
        () => extendTemplate(src, [], base),
        /prior_results must contain at least one VerificationResult/,
      ],
      [
        "no judges",
        () => extendTemplate(src, prior, { ...base, parsing_models: [] }),
        /parsing_models is empty \(supply the new judges\)/,
      ],
      [
        "no answerers",
        () => extendTemplate(src, prior, { ...base, answering_models: [] }),
        /answering_models is empty/,
      ],
      [
        "a replay store",
        () => extendTemplate(src, prior, base, { replay: new ReplayStore() }),
        /the helper owns the replay store/,
      ],
      [
        "a dropped answerer",
        () => extendTemplate(src, prior, config(["other"], ["judge"], { replicate_count: 2 })),
        /Missing keys: \[.*answerer.*\]\. Configured keys: \[.*other.*\]/,
      ],
      [
        "fewer replicates",
        () => extendTemplate(src, prior, config(["answerer"], ["judge"])),
        /replicate_count \(1\) is lower than the replicate fan-out observed in the prior results \(=2\)/,
      ],
      [
        "no run name",
        () =>
          extendTemplate(
            src,
            prior.map((r) => ({ ...r, metadata: { ...r.metadata, run_name: null } })),
            base,
          ),
        /the prior rows have no run_name; pass runName/,
      ],
      [
        "two run names",
        () =>
          extendTemplate(
            src,
            prior.map((r, i) => ({ ...r, metadata: { ...r.metadata, run_name: `run-${i % 2}` } })),
            base,
          ),
        /inconsistent run_names \(\[run-0, run-1\]\); pass runName/,
      ],
      [
        "scenario rows (Q37)",
        () =>
          extendTemplate(
            src,
            prior.map((r) => ({ ...r, metadata: { ...r.metadata, scenario_id: "s" } })),
            base,
          ),
        /scenario benchmarks and scenario results cannot be extended yet/,
      ],
    ];
    for (const [name, call, message] of cases) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ExtendRunError);
      expect((error as Error).message, name).toMatch(message);
    }
    expect(server.requests.length).toBe(requests);
    // An explicit run name resolves the missing/inconsistent names.
  });
});

const CLARITY: Rubric = parseRubric({
  llm_traits: [{ name: "clarity", kind: "score", description: "How clear the answer is" }],
  regex_traits: [{ name: "names_bcl2", pattern: "BCL2" }],
});

describe("extendRubric", () => {
  test("a new rubric trait: same rows and result_ids, new scores merged, zero answering requests", async () => {
    const prior = await priorRun();
    const answered = chatRequests("answerer");
    const judged = chatRequests("judge");
    server.script({ match: { model: "judge" }, reply: { json: { scores: { clarity: 4 } } }, repeat: true });
    const withRubric = QUESTIONS.map((q) => ({ ...q, rubric: CLARITY }));
    const output = join(dir, "rubric.jsonl");
    const run = await extendRubric(source(withRubric), prior, config(["answerer"], ["judge"]), { output });
    expect(chatRequests("answerer")).toBe(answered);
    expect(chatRequests("judge") - judged).toBe(2);
    expect(run.results).toHaveLength(prior.length);
    expect(run.results.map((r) => r.metadata.result_id)).toEqual(prior.map((r) => r.metadata.result_id));
    for (const [i, row] of run.results.entries()) {
      expect(row.rubric?.llm_trait_scores).toEqual({ clarity: 4 });
      expect(row.rubric?.rubric_evaluation_performed).toBe(true);
      expect(row.template).toEqual(prior[i]?.template);
      expect(row.metadata.failure).toEqual(prior[i]?.metadata.failure);
    }
    const q1 = run.results.find((r) => r.metadata.question_id === "q1");
    const q2 = run.results.find((r) => r.metadata.question_id === "q2");
    expect(q1?.rubric?.regex_trait_scores).toEqual({ names_bcl2: true });
    expect(q2?.rubric?.regex_trait_scores).toEqual({ names_bcl2: false });
    expect(prior.every((r) => r.rubric === null)).toBe(true);
    const logged = (await readFile(output, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(logged.map((r) => r.rubric.llm_trait_scores)).toEqual([{ clarity: 4 }, { clarity: 4 }]);
  });

  test("a trait the prior rows already score is a name collision", async () => {
    const regexOnly = parseRubric({ regex_traits: [{ name: "names_bcl2", pattern: "BCL2" }] });
    const withRubric = QUESTIONS.map((q) => ({ ...q, rubric: regexOnly }));
    const prior = await priorRun({ evaluation_mode: "template_and_rubric" }, withRubric);
    expect(prior[0]?.rubric?.regex_trait_scores).not.toBeNull();
    const answered = chatRequests("answerer");
    const error = await extendRubric(source(withRubric), prior, config(["answerer"], ["judge"])).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ExtendRunError);
    expect(error.message).toBe(
      "extendRubric: trait name collision in regex_trait_scores for traits [names_bcl2]; rename or remove the colliding trait (or leave the prior run's traits out of the run with rubric_trait_names)",
    );
    expect(chatRequests("answerer")).toBe(answered);
  });

  test("each check of spec 08 §10.1 fails with its message before any request", async () => {
    const prior = await priorRun();
    const requests = server.requests.length;
    const withRubric = source(QUESTIONS.map((q) => ({ ...q, rubric: CLARITY })));
    const base = config(["answerer"], ["judge"]);
    const metric = parseRubric({
      metric_traits: [{ name: "coverage", metrics: ["recall"], tp_instructions: ["venetoclax"] }],
    });
    const cases: [string, () => Promise<unknown>, RegExp][] = [
      ["empty prior", () => extendRubric(withRubric, [], base), /prior_results must contain at least one/],
      [
        "mode",
        () => extendRubric(withRubric, prior, { ...base, evaluation_mode: "template_and_rubric" }),
        /must be 'template_only' or 'rubric_only' for extendRubric \(got 'template_and_rubric'\)/,
      ],
      [
        "other judges",
        () => extendRubric(withRubric, prior, config(["answerer"], ["judge", "judge2"])),
        /does not match the parsing identities .*Configured: \[.*judge2.*\]\. Observed in prior: \[[^,]*\]\./,
      ],
      [
        "other replicate count",
        () => extendRubric(withRubric, prior, config(["answerer"], ["judge"], { replicate_count: 2 })),
        /replicate_count \(2\) must equal the replicate fan-out observed in the prior results \(=1\)/,
      ],
      [
        "no rubric",
        () => extendRubric(source(QUESTIONS), prior, base),
        /no rubric is attached for any prior question/,
      ],
      [
        "metric trait",
        () => extendRubric(source(QUESTIONS, metric), prior, base),
        /metric traits are not supported by extendRubric \(\[coverage\]\)/,
      ],
      ["resume", () => extendRubric(withRubric, prior, base, { resume: true }), /resume is not supported/],
    ];
    for (const [name, call, message] of cases) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ExtendRunError);
      expect((error as Error).message, name).toMatch(message);
    }
    expect(server.requests.length).toBe(requests);
  });
});

describe("Benchmark.extendTemplate / extendRubric", () => {
  test("extend a benchmark's prior run with a new judge; a scenario benchmark is refused (Q37)", async () => {
    const bench = Benchmark.create({ name: "drugs" });
    bench.addQuestion(Q1, "venetoclax", { questionId: "q1", finished: true });
    await bench.updateTemplate("q1", DRUG_TEMPLATE);
    const prior = await priorRun({}, [question("q1", Q1)]);
    const answered = chatRequests("answerer");
    server.script({ match: { model: "judge2" }, reply: { json: { drug: "venetoclax" } }, repeat: true });
    const run = await bench.extendTemplate(prior, config(["answerer"], ["judge", "judge2"]));
    expect(run.newResults.map(key)).toEqual(["q1/answerer/judge2/null"]);
    expect(chatRequests("answerer")).toBe(answered);

    const scenarios = Benchmark.create({ name: "pushback" });
    scenarios.addScenario(
      new Scenario("one-turn")
        .addNode("ask", { question: { question: Q1, raw_answer: "venetoclax" } })
        .addEdge("ask", END)
        .setEntry("ask"),
    );
    await expect(scenarios.extendRubric(prior, config(["answerer"], ["judge"]))).rejects.toThrow(
      /scenario benchmarks and scenario results cannot be extended yet/,
    );
  });
});
