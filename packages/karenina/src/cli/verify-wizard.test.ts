import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { DRUG_REPLIES, dirPerTest, drugBenchmark, runKarenina } from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";
import { runCli } from "./program.js";

const ENTER = "\r";
const DOWN = "\u001b[B";

/**
 * A terminal a test drives: each step waits until the prompt's text has been written since the step before,
 * then types its keys. Resolves `done` when every step has typed.
 */
function scriptedTerminal(steps: readonly [prompt: string, keys: string][]) {
  const input = new PassThrough();
  let screen = "";
  let next = 0;
  const typeWhenAsked = () => {
    const step = steps[next];
    if (step === undefined || !screen.includes(step[0])) return;
    screen = "";
    next++;
    setImmediate(() => {
      input.write(step[1]);
      typeWhenAsked();
    });
  };
  const output = new Writable({
    write(chunk, _encoding, callback) {
      screen += String(chunk);
      typeWhenAsked();
      callback();
    },
  });
  return { input, output, typed: () => next };
}

const server = serverPerTest(() => startOpenAiServer(DRUG_REPLIES));
const dir = dirPerTest("karenina-wizard-");

/** The answers that describe one openai_endpoint model of the scripted server. */
const modelSteps = (role: string, name: string, url: string, temperature: string): [string, string][] => [
  [`${role} model 1: interface`, ENTER],
  [`${role} model 1: model name`, `${name}${ENTER}`],
  [`${role} model 1: base URL`, `${url}${ENTER}`],
  [`${role} model 1: temperature`, `${temperature}${ENTER}`],
  [`${role} model 1: system prompt`, ENTER],
  [`Add another ${role} model?`, ENTER],
];

async function runWizard(args: string[], steps: [string, string][]) {
  const terminal = scriptedTerminal(steps);
  let out = "";
  let err = "";
  const code = await runCli(args, {
    out: (text) => (out += text),
    err: (text) => (err += text),
    prompts: { input: terminal.input, output: terminal.output },
  });
  return { code, out, err, typed: terminal.typed() };
}

describe("verify --interactive", () => {
  test("basic: asks for the questions, checks, models and output, then runs what was answered", async () => {
    const file = join(dir(), "bench.jsonld");
    await drugBenchmark(3, "wizard").save(file);
    const output = join(dir(), "answers.json");
    const steps: [string, string][] = [
      // Untick the second question.
      ["Questions to verify", `${DOWN} ${ENTER}`],
      ["Replicates per question", `2${ENTER}`],
      ["Evaluation mode", ENTER],
      ["Detect refusals", `y${ENTER}`],
      ["Check that answers are sufficient", ENTER],
      ["Embedding check", ENTER],
      ["Template deep judgment", ENTER],
      ...modelSteps("answering", "answerer", server.baseURL, "0.3"),
      ...modelSteps("parsing", "judge", server.baseURL, "0"),
      ["Save these settings as a preset?", ENTER],
      ["Show a progress bar?", `n${ENTER}`],
      ["Save the results to a file?", ENTER],
      ["Results format", ENTER],
      ["Results file", `${output}${ENTER}`],
    ];
    const { code, err, typed } = await runWizard(["verify", file, "--interactive"], steps);
    expect(typed).toBe(steps.length);
    expect(code, err).toBe(EXIT.ok);
    const results = JSON.parse(await readFile(output, "utf8")).results;
    const ids = results.map((row: { metadata: { question_id: string } }) => row.metadata.question_id);
    expect(ids.sort()).toEqual(["q0", "q0", "q2", "q2"]);
    const chats = server.requests.filter((request) => request.path.endsWith("/chat/completions"));
    const temperatures = new Map(chats.map((request) => [request.body.model, request.body.temperature]));
    expect(temperatures.get("answerer")).toBe(0.3);
    expect(temperatures.get("judge")).toBe(0);
    // Abstention was switched on: the judge is asked about refusals too.
    expect(chats.filter((request) => request.body.model === "judge").length).toBeGreaterThan(4);
  });

  test("advanced: also asks for deep judgment, few-shot, async and MCP settings, and can save a preset", async () => {
    const file = join(dir(), "bench.jsonld");
    await drugBenchmark(1, "wizard").save(file);
    const root = join(dir(), "runs");
    const presets = join(dir(), "presets");
    const steps: [string, string][] = [
      ["Questions to verify", ENTER],
      ["Replicates per question", ENTER],
      ["Evaluation mode", ENTER],
      ["Detect refusals", ENTER],
      ["Check that answers are sufficient", ENTER],
      ["Embedding check", ENTER],
      ["Template deep judgment", `${DOWN}${ENTER}`],
      ["Deep judgment: excerpts per attribute", `5${ENTER}`],
      ["Deep judgment: fuzzy match threshold", ENTER],
      ["Deep judgment: excerpt retries", ENTER],
      ["Few-shot examples", ENTER],
      ["Run tasks in parallel?", `n${ENTER}`],
      ...modelSteps("answering", "answerer", server.baseURL, "0.1"),
      ...modelSteps("parsing", "judge", server.baseURL, "0.1"),
      ["MCP server for the answering models", ENTER],
      ["Save these settings as a preset?", `y${ENTER}`],
      ["Preset name", `From Wizard${ENTER}`],
      ["Show a progress bar?", `n${ENTER}`],
      ["Save the results to a file?", ENTER],
      ["Results format", ENTER],
      ["Results file", ENTER],
    ];
    process.env.KARENINA_PRESETS_DIR = presets;
    let result: Awaited<ReturnType<typeof runWizard>>;
    try {
      result = await runWizard(
        ["verify", file, "--interactive", "--mode", "advanced", "--run-root", root, "--dry-run"],
        steps,
      );
    } finally {
      delete process.env.KARENINA_PRESETS_DIR;
    }
    expect(result.typed).toBe(steps.length);
    expect(result.code, result.err).toBe(EXIT.ok);
    const preset = JSON.parse(await readFile(join(presets, "from-wizard.json"), "utf8")).config;
    expect(preset).toMatchObject({
      deep_judgment_mode: "reasoning_only",
      deep_judgment_max_excerpts_per_attribute: 5,
      async_enabled: false,
      answering_models: [{ model_name: "answerer", interface: "openai_endpoint" }],
    });
    // A dry run writes nothing: no run directory either.
    expect(await readdir(dir())).not.toContain("runs");
  });

  test("Ctrl-C in a prompt stops with exit 130 and runs nothing", async () => {
    const file = join(dir(), "bench.jsonld");
    await drugBenchmark(1, "wizard").save(file);
    const steps: [string, string][] = [
      ["Questions to verify", ENTER],
      ["Replicates per question", "\u0003"],
    ];
    const { code, err, typed } = await runWizard(["verify", file, "--interactive"], steps);
    expect(typed).toBe(steps.length);
    expect(code).toBe(EXIT.interrupted);
    expect(err).toContain("interrupted: nothing was run");
    expect(server.requests).toHaveLength(0);
  });

  test("without a terminal to ask on it says to use flags or a preset", async () => {
    const file = join(dir(), "bench.jsonld");
    await drugBenchmark(1, "wizard").save(file);
    const { code, err } = await runKarenina("verify", file, "--interactive");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("--interactive needs a terminal");
  });
});
