import { type Benchmark, type SkippedQuestion, selectQuestions } from "../benchmark/index.js";
import type { ReplayStore } from "../llm/index.js";
import {
  type DryRunPlan,
  finishedKeys,
  type PriceTable,
  planDryRun,
  readOutputTokenHistory,
  readRunLog,
  resultTaskKey,
  type VerificationConfig,
} from "../pipeline/index.js";
import { isVerificationResult, type VerificationResult } from "../results/index.js";
import type { CliIo } from "./cli-io.js";
import { type Column, table } from "./results-command.js";
import { type SkippedTextOptions, skippedText } from "./skipped-questions.js";

/** What `karenina verify --dry-run` estimates, and how it reports it. */
export interface DryRunRequest {
  benchmark: Benchmark;
  /** The checkpoint as the user named it, for the report's first line. */
  checkpoint: string;
  config: VerificationConfig;
  questionIds?: readonly string[];
  /** `--include-drafts`: unfinished questions are planned too. */
  includeDrafts?: boolean;
  /** `--cache DIR`: its entries give the mean output tokens per kind of call. */
  cacheDir?: string;
  /** `--prices FILE`, already read; the built-in table otherwise. */
  prices?: { table: PriceTable; file: string };
  /** `--resume`: the run log whose finished tasks the run would skip. */
  resumeLog?: string;
  json: boolean;
  /** `--workspace-root DIR`: tasks with agent answerers or agentic traits work in workspaces; else the benchmark's root. */
  workspaceRoot?: string;
  /** `--allow-commands`: answering tool-loop agents are offered `run_command`. */
  agentCommands?: boolean;
  /** Assumptions the CLI adds (e.g. that the bundled example is answered from recordings). */
  notes?: readonly string[];
  /** `--replay FILE`: its answers need no answering call. */
  replay?: ReplayStore | null;
}

/** What the report says while a very large plan is walked. */
export interface DryRunProgress {
  start(tasks: number): void;
  update(walked: number, tasks: number): void;
  stop(): void;
}

/** The plan as the report shows it: the planner's, with the questions left out and the run's model pairs. */
export interface DryRunReport extends DryRunPlan {
  /** Answering × parsing models of the config (the pairs table lists only those with tasks). */
  modelPairs: number;
  /** Questions the run would leave out, and why. */
  skippedQuestions: SkippedQuestion[];
}

/** Plans of at least this many tasks show progress while they are walked. */
export const DRY_RUN_PROGRESS_FROM = 100_000;

/** The note a dry run of the bundled example adds: its real run is served from recordings and costs nothing. */
export const RECORDED_DRY_RUN_NOTE =
  "The bundled example is answered and judged from its recorded example responses: running it calls no model and costs nothing. The numbers below are for the same config run live.";

const count = (value: number) => value.toLocaleString("en-US");
const usd = (value: number) => `$${value.toFixed(value === 0 || value >= 0.0001 ? 4 : 6)}`;
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

const tokenColumns: Column[] = [
  { header: "calls", right: true },
  { header: "input tokens", right: true },
  { header: "output tokens", right: true },
];

function headLines(plan: DryRunReport, checkpoint: string): string[] {
  const shape = [
    plural(plan.questions, "question"),
    plural(plan.modelPairs, "model pair"),
    plural(plan.replicates, "replicate"),
  ].join(" × ");
  const resumed = plan.questions * plan.modelPairs * plan.replicates - plan.tasks;
  return [
    `Dry run of ${checkpoint}: nothing was called and no file was written.`,
    `  tasks    ${count(plan.tasks)}  (${shape}${resumed > 0 ? `, ${count(resumed)} already in the run log` : ""})`,
    `  answers  ${count(plan.answersGenerated)} generated, each shared by the judges of its question${plan.answersSupplied > 0 ? `; ${count(plan.answersSupplied)} from manual traces or replays (no call)` : ""}`,
    `  calls    ${count(plan.totals.calls)}, ${count(plan.totals.inputTokens)} input and ${count(plan.totals.outputTokens)} output tokens (estimated)`,
  ];
}

function pairLines(plan: DryRunPlan): string[] {
  return [
    "",
    "Tasks per model pair",
    ...table(
      [{ header: "answering" }, { header: "parsing" }, { header: "tasks", right: true }],
      plan.pairs.map((pair) => [pair.answering, pair.parsing, count(pair.tasks)]),
    ),
  ];
}

function stageLines(plan: DryRunPlan): string[] {
  const rows = plan.stages.map((stage) => [
    stage.stage,
    count(stage.calls),
    count(stage.inputTokens),
    count(stage.outputTokens),
  ]);
  const { totals } = plan;
  rows.push(["total", count(totals.calls), count(totals.inputTokens), count(totals.outputTokens)]);
  return ["", "LLM calls per stage", ...table([{ header: "stage" }, ...tokenColumns], rows)];
}

function costLines(plan: DryRunPlan, pricesLabel: string): string[] {
  const rows = plan.models.map((model) => [
    model.model,
    model.roles.join(", "),
    count(model.calls),
    count(model.inputTokens),
    count(model.outputTokens),
    model.costUsd === null ? "unpriced" : usd(model.costUsd),
  ]);
  const { totals } = plan;
  const unpriced = totals.unpricedModels.length > 0 ? " + unpriced" : "";
  const total = totals.costUsd === null ? "unpriced" : `${usd(totals.costUsd)}${unpriced}`;
  rows.push(["total", "", count(totals.calls), count(totals.inputTokens), count(totals.outputTokens), total]);
  return [
    "",
    `Estimated cost per model (${pricesLabel})`,
    ...table(
      [{ header: "model" }, { header: "role" }, ...tokenColumns, { header: "cost", right: true }],
      rows,
    ),
  ];
}

function outputLines(plan: DryRunPlan): string[] {
  const rows = plan.outputTokens.map((estimate) => [
    estimate.kind,
    count(estimate.calls),
    count(Math.round(estimate.outputTokens / Math.max(1, estimate.calls))),
    estimate.source === "cache" ? `cache (mean of ${plural(estimate.cacheSamples, "call")})` : "default",
  ]);
  return [
    "",
    "Output tokens per call",
    ...table(
      [
        { header: "kind" },
        { header: "calls", right: true },
        { header: "tokens/call", right: true },
        { header: "from" },
      ],
      rows,
    ),
  ];
}

function skippedLines(plan: DryRunReport, checkpoint: string, options: SkippedTextOptions): string[] {
  const skipped = skippedText(plan.skippedQuestions, checkpoint, options);
  const nothing =
    plan.tasks > 0
      ? []
      : [
          plan.questions === 0
            ? "Nothing to verify: no question would run, so the real run would stop with exit code 2."
            : "Nothing to verify: every task is already in the run log.",
        ];
  return skipped.length === 0 && nothing.length === 0 ? [] : ["", ...nothing, ...skipped];
}

/** The dry-run report as text: the plan's tables, the questions left out, then what the estimate assumes. */
export function dryRunText(
  plan: DryRunReport,
  checkpoint: string,
  pricesLabel: string,
  options: SkippedTextOptions = {},
): string {
  const lines = [
    ...headLines(plan, checkpoint),
    ...skippedLines(plan, checkpoint, options),
    ...(plan.pairs.length > 0 ? pairLines(plan) : []),
    ...(plan.stages.length > 0
      ? [...stageLines(plan), ...costLines(plan, pricesLabel), ...outputLines(plan)]
      : []),
    "",
    "Assumptions",
    ...plan.assumptions.map((assumption) => `  - ${assumption}`),
  ];
  return `${lines.join("\n")}\n`;
}

async function finishedTaskKeys(runLog: string): Promise<Set<string>> {
  const log = await readRunLog<VerificationResult>(runLog, { accept: isVerificationResult });
  return finishedKeys(log.results, resultTaskKey).keys;
}

/**
 * Progress of a very large plan on stderr: a line updated in place on a terminal, else a line at the start and
 * one every tenth of the way.
 */
export function stderrDryRunProgress(io: CliIo): DryRunProgress {
  const tty = io.errIsTerminal === true;
  let shownTenth = 0;
  let drawn = false;
  return {
    start(tasks) {
      io.err(
        `Planning ${count(tasks)} tasks: every task's prompts are built and counted, which takes a while.\n`,
      );
    },
    update(walked, tasks) {
      if (tty) {
        io.err(`\r  ${count(walked)} of ${count(tasks)} tasks planned`);
        drawn = true;
        return;
      }
      const tenth = Math.floor((10 * walked) / tasks);
      if (tenth > shownTenth) {
        shownTenth = tenth;
        io.err(`  ${count(walked)} of ${count(tasks)} tasks planned\n`);
      }
    },
    stop() {
      if (drawn) io.err("\n");
    },
  };
}

/**
 * `karenina verify --dry-run`: estimates the run the other options describe and prints the plan (text tables,
 * or the plan as JSON) with the questions the run would leave out and why. Calls no model and writes nothing;
 * it reads the checkpoint, the `--cache` directory's entries, the price file and, with `--resume`, the run log.
 * Plans of {@link DRY_RUN_PROGRESS_FROM} tasks or more show their progress on stderr.
 */
export async function runDryRun(io: CliIo, request: DryRunRequest): Promise<void> {
  const { benchmark, config } = request;
  const selection = await selectQuestions(benchmark, config, {
    unusable: "skip",
    includeDrafts: request.includeDrafts === true,
    ...(request.questionIds === undefined ? {} : { questionIds: request.questionIds }),
  });
  const modelPairs = config.answering_models.length * config.parsing_models.length;
  const tasks = selection.questions.length * modelPairs * config.replicate_count;
  const progress = tasks >= DRY_RUN_PROGRESS_FROM ? stderrDryRunProgress(io) : null;
  progress?.start(tasks);
  let plan: DryRunPlan;
  try {
    plan = await planDryRun(selection.questions, config, {
      globalRubric: benchmark.getGlobalRubric(),
      workspaceRoot: request.workspaceRoot ?? benchmark.workspaceRoot,
      agentCommands: request.agentCommands === true,
      pythonSandbox: benchmark.pythonSandbox,
      ...(progress === null ? {} : { onProgress: (walked: number) => progress.update(walked, tasks) }),
      ...(request.prices === undefined ? {} : { priceTable: request.prices.table }),
      ...(request.cacheDir === undefined
        ? {}
        : { outputTokenHistory: await readOutputTokenHistory(request.cacheDir) }),
      ...(request.resumeLog === undefined ? {} : { skipKeys: await finishedTaskKeys(request.resumeLog) }),
      ...(request.replay == null ? {} : { replay: request.replay }),
    });
  } finally {
    progress?.stop();
  }
  const report: DryRunReport = {
    ...plan,
    assumptions: [...(request.notes ?? []), ...plan.assumptions],
    modelPairs,
    skippedQuestions: selection.skipped,
  };
  if (request.json) {
    io.out(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const pricesLabel =
    request.prices === undefined
      ? "prices: built-in table"
      : `prices: ${request.prices.file} over the built-in table`;
  io.out(
    dryRunText(report, request.checkpoint, pricesLabel, {
      questionsGiven: request.questionIds !== undefined,
    }),
  );
}
