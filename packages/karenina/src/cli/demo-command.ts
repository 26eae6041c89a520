import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { Benchmark } from "../benchmark/index.js";
import { ReplayStore } from "../llm/index.js";
import {
  parseVerificationConfig,
  type RunVerificationOptions,
  type VerificationConfig,
  type VerificationConfigInput,
} from "../pipeline/index.js";
import { DEFAULT_DB_FILE, openStorage, type RunInfo } from "../storage/index.js";
import {
  AGENTIC_DEMO_CHECKPOINT,
  AGENTIC_DEMO_OFFLINE_CONFIG,
  AGENTIC_DEMO_OUTPUT,
  AGENTIC_DEMO_RECORDINGS,
  AGENTIC_DEMO_SETTINGS,
  recordedModel,
  withDemoWorkspaces,
} from "./agentic-demo.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { type CommandSession, commandSession } from "./command-session.js";
import { DbRunSink } from "./db-runs.js";
import { runInteractively, runResultsReport } from "./interactive-run.js";
import { startPythonSandboxEarly } from "./python-sandbox-start.js";
import { endRun, SystemFailures } from "./run-outcome.js";
import { clearRunLog, refuseToAppend, runOutput } from "./run-output.js";
import { shellCommand } from "./shell-words.js";
import { buildConfig, summaryLine } from "./verify-command.js";

const demoFile = (name: string) => fileURLToPath(new URL(`../../examples/demo/${name}`, import.meta.url));

/** The demo benchmark: 14 questions covering every template kind and every non-agentic trait kind. */
export const DEMO_CHECKPOINT = demoFile("demo.jsonld");

/** The demo's answers, in the replay store's format: written by hand, not by a model (the file says so). */
export const DEMO_ANSWERS = demoFile("demo-answers.replay.json");

/** The judge's replies of the offline demo, recorded by request: written by hand too (see its README). */
export const DEMO_RECORDINGS = demoFile("recordings");

/** Where `karenina demo` appends its results unless `-o` says otherwise (in the current directory). */
export const DEMO_OUTPUT = "karenina-demo.jsonl";

/** The placeholder endpoint of the offline demo's models: never contacted (`.invalid` does not resolve). */
const RECORDED_ENDPOINT = "http://recorded-demo.invalid/v1";

/** What every demo run evaluates: templates and rubrics, with the abstention check on. */
const DEMO_SETTINGS = { evaluation_mode: "template_and_rubric", abstention_enabled: true } as const;

/**
 * The offline demo run: answers from {@link DEMO_ANSWERS} (the answering model is never called) and judge
 * replies from {@link DEMO_RECORDINGS}. Both "models" are named for what they are: hand-written examples.
 */
export const DEMO_OFFLINE_CONFIG: VerificationConfigInput = {
  answering_models: [recordedModel("handwritten-demo-answers", RECORDED_ENDPOINT)],
  parsing_models: [recordedModel("handwritten-demo-judge", RECORDED_ENDPOINT)],
  ...DEMO_SETTINGS,
};

/** The model of a live demo when `--model` is not given. */
export const DEMO_LIVE_DEFAULTS = {
  ollama: "llama3.1",
  openai: "gpt-4.1-mini",
  anthropic: "claude-haiku-4-5",
} as const;

/** Options of `karenina demo`, as commander gives them. */
export interface DemoOptions {
  agentic?: boolean;
  db?: string;
  live?: boolean;
  offline?: boolean;
  ollama?: string;
  model?: string;
  output?: string;
  progress?: boolean;
  json?: boolean;
}

/** The model a live demo answers and judges with, and what made it live; null for the offline demo. */
export interface LiveModel {
  /** A model SPEC, e.g. `openai:gpt-4.1-mini`. */
  spec: string;
  /** Why this model: `--ollama http://…`, `OPENAI_API_KEY`, ... */
  source: string;
}

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== "";

/**
 * Picks the live model: `--ollama URL` (an OpenAI-compatible endpoint), else the first of `OPENAI_API_KEY`,
 * `ANTHROPIC_API_KEY` that is set; `--model` replaces the default model name. `--offline` (or no key at all)
 * gives the offline demo. For example `{}` with `OPENAI_API_KEY` set gives `openai:gpt-4.1-mini`, and
 * `{ ollama: "http://127.0.0.1:11434", model: "qwen3" }` gives `openai_endpoint:qwen3@http://127.0.0.1:11434`.
 * @throws {CliUsageError} for `--live` without a key or `--ollama`, for `--model` on an offline run, and for
 * `--offline` with `--live` or `--ollama`.
 */
export function liveDemoModel(options: DemoOptions, env: NodeJS.ProcessEnv): LiveModel | null {
  if (options.offline) {
    if (options.live || options.ollama !== undefined || options.model !== undefined) {
      throw new CliUsageError(
        "--offline runs from the hand-written example responses: drop --live, --ollama and --model",
      );
    }
    return null;
  }
  if (options.ollama !== undefined) {
    if (!/^https?:\/\//.test(options.ollama)) {
      throw new CliUsageError(
        `--ollama: expected the server's URL, e.g. http://127.0.0.1:11434, found ${JSON.stringify(options.ollama)}`,
      );
    }
    const model = options.model ?? DEMO_LIVE_DEFAULTS.ollama;
    return { spec: `openai_endpoint:${model}@${options.ollama}`, source: `--ollama ${options.ollama}` };
  }
  if (isSet(env.OPENAI_API_KEY)) {
    return { spec: `openai:${options.model ?? DEMO_LIVE_DEFAULTS.openai}`, source: "OPENAI_API_KEY" };
  }
  if (isSet(env.ANTHROPIC_API_KEY)) {
    return {
      spec: `anthropic:${options.model ?? DEMO_LIVE_DEFAULTS.anthropic}`,
      source: "ANTHROPIC_API_KEY",
    };
  }
  if (options.live) {
    throw new CliUsageError(
      "--live needs a model: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or give --ollama URL (e.g. --ollama http://127.0.0.1:11434)",
    );
  }
  if (options.model !== undefined) {
    throw new CliUsageError(
      "--model applies to live runs: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or give --ollama URL",
    );
  }
  return null;
}

/** How a demo run gets its answers and judgments. */
interface DemoPlan {
  config: VerificationConfig;
  /** What the banner says about where answers and judgments come from. */
  banner: string;
  runOptions: Pick<RunVerificationOptions, "replay" | "recording">;
}

const shown = (path: string) => {
  const near = relative(process.cwd(), path);
  return near.startsWith("..") ? path : near;
};

/** The last line of an offline banner: how to run the demo live. */
function liveHint(env: NodeJS.ProcessEnv): string {
  const keys = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"].filter((name) => isSet(env[name]));
  return keys.length > 0
    ? `${keys[0]} is set, but --offline was given: drop it to answer and judge with a real model.`
    : "To run it live: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or give --ollama http://127.0.0.1:11434.";
}

function agenticOfflinePlan(env: NodeJS.ProcessEnv): DemoPlan {
  return {
    config: parseVerificationConfig(AGENTIC_DEMO_OFFLINE_CONFIG),
    banner: [
      "Mode: offline. The answering agent's runs (handwritten-agent: its turns, tool calls and tool results) and",
      "the agentic judge's (handwritten-judge) are example responses WRITTEN BY HAND for this demo, not produced",
      `by any model, replayed from ${shown(AGENTIC_DEMO_RECORDINGS)}. No tool is run again.`,
      "No API key or network is used.",
      liveHint(env),
    ].join("\n"),
    runOptions: { recording: { dir: AGENTIC_DEMO_RECORDINGS, mode: "replay" } },
  };
}

async function offlinePlan(env: NodeJS.ProcessEnv, agentic: boolean): Promise<DemoPlan> {
  if (agentic) return agenticOfflinePlan(env);
  const hint = liveHint(env);
  return {
    config: parseVerificationConfig(DEMO_OFFLINE_CONFIG),
    banner: [
      "Mode: offline. The answers (handwritten-demo-answers) and the judge's replies (handwritten-demo-judge) are",
      "example responses WRITTEN BY HAND for this demo, not produced by any model: answers from",
      `${shown(DEMO_ANSWERS)}, judge replies from ${shown(DEMO_RECORDINGS)}.`,
      "No API key or network is used.",
      hint,
    ].join("\n"),
    runOptions: {
      replay: await ReplayStore.load(DEMO_ANSWERS),
      recording: { dir: DEMO_RECORDINGS, mode: "replay" },
    },
  };
}

async function livePlan(model: LiveModel, env: NodeJS.ProcessEnv, agentic: boolean): Promise<DemoPlan> {
  const settings = agentic
    ? { mode: AGENTIC_DEMO_SETTINGS.evaluation_mode, agenticParsing: AGENTIC_DEMO_SETTINGS.agentic_parsing }
    : { mode: DEMO_SETTINGS.evaluation_mode, abstention: DEMO_SETTINGS.abstention_enabled };
  const config = await buildConfig(
    { answering: [model.spec], parsing: [model.spec], ...settings },
    env,
    false,
  );
  const work = agentic
    ? "works on every task as an agent in a copy of its workspace, and judges what it left"
    : "answers every question and judges the answers";
  return {
    config,
    banner:
      `Mode: live (${model.source}). ${model.spec} ${work}.\n` +
      `This calls the model and may cost money; \`karenina demo${agentic ? " --agentic" : ""} --offline\` replays the hand-written example responses instead.`,
    runOptions: {},
  };
}

/** Which demo benchmark runs: the classic one, or the agentic one (`--agentic`). */
interface DemoBenchmark {
  checkpoint: string;
  output: string;
  /** How the summary groups results. */
  by: "keyword" | "question";
  /** What the report header calls the run. */
  name: string;
}

const CLASSIC_DEMO: DemoBenchmark = {
  checkpoint: DEMO_CHECKPOINT,
  output: DEMO_OUTPUT,
  by: "keyword",
  name: "demo",
};
const AGENTIC_DEMO: DemoBenchmark = {
  checkpoint: AGENTIC_DEMO_CHECKPOINT,
  output: AGENTIC_DEMO_OUTPUT,
  by: "question",
  name: "agentic demo",
};

/** `karenina demo`. */
export function registerDemoCommand(
  program: Command,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
  session: CommandSession = commandSession().session,
): void {
  program
    .command("demo")
    .description(
      "Run the bundled demo benchmark end to end: offline from hand-written example responses, or live",
    )
    .option(
      "--live",
      "insist on a live run: fail unless OPENAI_API_KEY or ANTHROPIC_API_KEY is set (or --ollama)",
    )
    .option("--offline", "replay the hand-written example responses even when an API key is set")
    .option(
      "--agentic",
      `run the agentic demo instead (examples/agentic/): an agent fixes a bug in each of two small projects, an agentic judge and an agentic trait inspect what it left; results in ${AGENTIC_DEMO_OUTPUT}`,
    )
    .option(
      "--ollama <url>",
      "answer and judge live with a model served by Ollama (or any OpenAI-compatible server)",
    )
    .option(
      "--model <name>",
      `the live model (default ${DEMO_LIVE_DEFAULTS.openai} with OpenAI, ${DEMO_LIVE_DEFAULTS.anthropic} with Anthropic, ${DEMO_LIVE_DEFAULTS.ollama} with --ollama)`,
    )
    .option(
      "-o, --output <file>",
      `results file (default ${DEMO_OUTPUT}, which each demo run replaces): .jsonl is appended to as results finish, .json or .csv written at the end; a file that already holds results is refused`,
    )
    .option(
      "--db <path>",
      `database the run is saved to: a SQLite file (default ${DEFAULT_DB_FILE} in the current directory) or a postgres:// URL`,
    )
    .option("--no-progress", "no progress bar")
    .option("--json", "print the summary as JSON (as `karenina results FILE --json` does) instead of tables")
    .addHelpText(
      "after",
      `
The demo benchmark (examples/demo/demo.jsonld) has 14 everyday-pharmacology questions covering every
answer-template kind (Python verify / verify_granular / regex checks, declarative VerifiedField primitives with
composition and conditional ground truth, a TypeScript template) and every rubric trait kind that needs no agent.

With no API key it runs offline, with no network: the answers and the judge's replies are example responses
written by hand for the demo, not produced by any model. With OPENAI_API_KEY or ANTHROPIC_API_KEY set, or
--ollama URL, the same command runs live (answering and judging with that model); --offline forces the replay. Some answers are wrong, two decline to answer and two
are partly right, so the summary shows failures as well as passes.

--agentic runs the agentic demo (examples/agentic/agentic.jsonld): two small JavaScript projects with a bug
each, in workspaces. The answering model works as an agent in a copy of each (listing, reading and rewriting
files), an agentic judge reads what it left to say whether the tests pass, and the agentic trait fix_quality
rates the fix. Offline, every agent run (turns, tool calls, tool results) is replayed from recordings written
by hand; one fix is right and one is not, so one task passes and one fails. The same run from the command
line: karenina verify ... --replay-recordings DIR (see karenina verify --help).

Examples:
  karenina demo                                        # offline without a key: the hand-written example responses
  OPENAI_API_KEY=sk-... karenina demo                   # live with ${DEMO_LIVE_DEFAULTS.openai} (answering and judging)
  ANTHROPIC_API_KEY=sk-ant-... karenina demo            # live with ${DEMO_LIVE_DEFAULTS.anthropic}
  karenina demo --offline                               # offline even with a key set
  karenina demo --agentic                               # the agentic demo, offline without a key
  karenina demo --ollama http://127.0.0.1:11434 --model qwen3     # live with a local model
  karenina results ${DEMO_OUTPUT} --by question         # the results again, per question
  karenina show ${DEMO_OUTPUT} "Do antibiotics"         # one result in full: response, fields, verdict, rubric

Exit code: 0 when the run completed (whatever the verdicts), 1 when tasks failed for a system cause
(connection, timeout, missing key, ...), 2 on bad usage, 130 when interrupted.`,
    )
    .action(async (options: DemoOptions) => {
      const agentic = options.agentic === true;
      const model = liveDemoModel(options, env);
      const plan = model === null ? await offlinePlan(env, agentic) : await livePlan(model, env, agentic);
      const context = { io, session, model };
      if (!agentic) return runDemo(CLASSIC_DEMO, plan, options, context);
      // Agents work in copies of the workspaces: made in a scratch root, never in the package's examples.
      return withDemoWorkspaces((workspaceRoot) =>
        runDemo(AGENTIC_DEMO, plan, options, context, workspaceRoot),
      );
    });
}

/** Runs a demo plan on its benchmark: results to the run log and the database, then the summary tables. */
async function runDemo(
  demo: DemoBenchmark,
  plan: DemoPlan,
  options: DemoOptions,
  context: { io: CliIo; session: CommandSession; model: LiveModel | null },
  workspaceRoot?: string,
): Promise<void> {
  const { io, session, model } = context;
  const benchmark = await Benchmark.load(demo.checkpoint);
  startPythonSandboxEarly(benchmark, plan.config, io, session);
  const output = runOutput(options.output ?? demo.output);
  if (options.output !== undefined) await refuseToAppend(output, false);
  // Opened first, so a database that cannot be used stops the demo before any model is called.
  const storage = await openStorage(options.db ?? DEFAULT_DB_FILE);
  try {
    io.err(`karenina demo: ${benchmark.name}, ${benchmark.size} questions (${shown(demo.checkpoint)})\n`);
    io.err(`${plan.banner}\n\n`);
    // Each demo is a run of its own: the default log holds the latest one (all of them stay in the database).
    const replaced = options.output === undefined ? await clearRunLog(output) : 0;
    if (replaced > 0)
      io.err(
        `${output.runLog} held the ${replaced} results of an earlier ${demo.name} run: replaced by this run's (earlier runs stay in ${storage.database})\n\n`,
      );
    const sink = await DbRunSink.open(storage, benchmark, plan.config);
    const systemFailures = new SystemFailures();
    const run = await runInteractively(benchmark, plan.config, io, {
      output,
      progress: options.progress !== false,
      sink,
      run: {
        ...plan.runOptions,
        startedAt: session.startedAt,
        ...(workspaceRoot === undefined ? {} : { workspaceRoot }),
      },
      onResult: (result) => systemFailures.add(result),
    });
    const written = run.summary.aborted || output.export === null ? output.runLog : output.export.path;
    io.err(`${summaryLine(run.summary, written)}\n`);
    for (const failure of run.failures.slice(0, 5))
      io.err(`task ${failure.task.key.replace(/\t/g, " | ")} failed: ${String(failure.error)}\n`);
    const kind = `${demo.name} run (${model === null ? "offline, hand-written example responses" : `live, ${model.spec}`})`;
    io.out(
      await runResultsReport(run, benchmark, {
        source: written,
        kind,
        by: demo.by,
        json: options.json ?? false,
        colour: io.colour,
        showCommand: shellCommand(["karenina", "show", written, "QUESTION"]),
      }),
    );
    const stored = await sink.finish(run.summary);
    io.err(
      `\nResults: ${written}, and run ${stored?.runName} in the database ${storage.database}.\n` +
        `See them again with: karenina results ${written} --by ${demo.by}\n` +
        `Open them in the web app: ${viewCommand(stored, options.db ?? DEFAULT_DB_FILE, written)}\n`,
    );
    endRun(io.err, run, { systemFailures });
  } finally {
    await storage.close();
  }
}

/** The `karenina view` command that opens a demo run: its stored run, else its results file. */
function viewCommand(stored: RunInfo | null | undefined, db: string, written: string): string {
  return stored === null || stored === undefined
    ? shellCommand(["karenina", "view", written])
    : shellCommand(["karenina", "view", "--db", db, stored.runName]);
}
