import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import {
  defaultBackupPath,
  generateTemplates,
  type TemplateGenerationEvent,
  type TemplateOutcome,
} from "../authoring/index.js";
import { Benchmark } from "../benchmark/index.js";
import { describeValue } from "../errors/index.js";
import { CallScheduler } from "../llm/index.js";
import {
  CachingPortProvider,
  type CallServices,
  languageModelFor,
  type ModelConfig,
  ModelConfigSchema,
  RunStats,
} from "../pipeline/index.js";
import { CliExit, type CliIo, CliUsageError, EXIT } from "./cli-io.js";
import { shellWord } from "./shell-words.js";
import { integer, modelFromSpec } from "./verify-command.js";

/** Options of `karenina generate-templates`, as commander gives them. */
interface GenerateTemplatesCliOptions {
  model: string;
  output?: string;
  questions?: string;
  force?: boolean;
  plan: boolean;
  backup?: string;
  concurrency?: number;
  endpointKeyEnv?: string;
  progress: boolean;
}

/** The generator model from `-m SPEC`, at temperature 0 as the original's generator. */
function generatorModel(spec: string, env: NodeJS.ProcessEnv, keyEnv: string | undefined): ModelConfig {
  if (spec === "manual" || spec.startsWith("manual:")) {
    throw new CliUsageError("--model: the manual interface replays answers; templates need an LLM");
  }
  const parsed = ModelConfigSchema.safeParse({ ...modelFromSpec(spec, env, keyEnv), temperature: 0 });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliUsageError(`--model ${JSON.stringify(spec)}: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  languageModelFor(parsed.data); // fails now, not per question, when the key or adapter is missing
  return parsed.data;
}

function questionList(value: string): string[] {
  const ids = value
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  if (ids.length === 0)
    throw new CliUsageError(`--questions: expected ID,ID,..., found ${describeValue(value)}`);
  return ids;
}

/** A live bar of generated / total on an interactive stderr; nothing otherwise. */
function progressBar(enabled: boolean, stream: NodeJS.WriteStream = process.stderr) {
  if (!enabled || !stream.isTTY) return { update: (_event: TemplateGenerationEvent) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: "{bar} {value}/{total} · {successful} generated · {failed} failed · ETA {eta_formatted}",
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(event: TemplateGenerationEvent) {
      const counts = { successful: event.successful_count, failed: event.failed_count };
      if (event.event === "job_started" && event.total_count > 0) {
        bar.start(event.total_count, 0, counts);
        started = true;
      } else if (started && (event.event === "task_completed" || event.event === "task_failed")) {
        bar.update(event.processed_count, counts);
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

type Status = "generated" | "restored" | "skipped" | "failed" | "not run";

function status(outcome: TemplateOutcome | undefined): Status {
  if (outcome === undefined) return "not run";
  if (!outcome.success) return "failed";
  if (outcome.restored) return "restored";
  return outcome.skipped ? "skipped" : "generated";
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function note(outcome: TemplateOutcome | undefined): string {
  switch (status(outcome)) {
    case "not run":
      return "interrupted";
    case "failed":
      return clip(outcome?.error ?? "", 120);
    case "restored":
      return "from the backup";
    case "skipped":
      return "already has a template";
    default: {
      const count = outcome?.warnings?.length ?? 0;
      return count === 0 ? "" : `${count} warning${count === 1 ? "" : "s"}`;
    }
  }
}

/** The per-question outcome table, then every failure reason and every warning in full. */
export function outcomeText(
  ids: readonly string[],
  outcomes: Readonly<Record<string, TemplateOutcome>>,
): string {
  const rows = ids.map((id) => [clip(id, 48), status(outcomes[id]), note(outcomes[id])]);
  const widths = [0, 1].map((at) => Math.max(at === 0 ? 8 : 7, ...rows.map((row) => row[at]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    `  ${(cells[0] ?? "").padEnd(widths[0] ?? 0)}  ${(cells[1] ?? "").padEnd(widths[1] ?? 0)}  ${cells[2] ?? ""}`.trimEnd();
  const lines = [line(["question", "outcome", "note"]), ...rows.map(line)];
  const failed = ids.filter((id) => status(outcomes[id]) === "failed");
  if (failed.length > 0) {
    lines.push("", "failures:");
    for (const id of failed) lines.push(`  ${id}: ${outcomes[id]?.error ?? "(no reason given)"}`);
  }
  const warned = ids.filter((id) => (outcomes[id]?.warnings?.length ?? 0) > 0);
  if (warned.length > 0) {
    lines.push("", "warnings:");
    for (const id of warned)
      for (const warning of outcomes[id]?.warnings ?? []) lines.push(`  ${id}: ${warning}`);
  }
  return `${lines.join("\n")}\n`;
}

function summaryLine(
  ids: readonly string[],
  outcomes: Readonly<Record<string, TemplateOutcome>>,
  stats: RunStats,
): string {
  const counts = new Map<Status, number>();
  for (const id of ids) counts.set(status(outcomes[id]), (counts.get(status(outcomes[id])) ?? 0) + 1);
  const parts = (["generated", "restored", "skipped", "failed", "not run"] as const)
    .filter((s) => s === "generated" || s === "failed" || (counts.get(s) ?? 0) > 0)
    .map((s) => `${counts.get(s) ?? 0} ${s}`);
  return `${parts.join(", ")} · ${stats.calls} LLM calls · ${stats.inputTokens} in / ${stats.outputTokens} out tokens`;
}

/** `karenina generate-templates`. */
export function registerGenerateTemplatesCommand(
  program: Command,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): void {
  program
    .command("generate-templates")
    .description(
      "Write answer templates with an LLM from each question's reference answer (declarative VerifiedField templates, for review)",
    )
    .argument("<checkpoint>", "benchmark checkpoint (.jsonld)")
    .requiredOption("-m, --model <spec>", "model that writes the templates: interface:model[@base_url]")
    .option("-o, --output <file>", "write the checkpoint here instead of in place")
    .option("--questions <ids>", "only these questions, comma-separated ids")
    .option("--force", "regenerate every selected question: ignore existing templates and the backup")
    .option("--no-plan", "skip the free-text planning call (phase 0)")
    .option(
      "--backup <file>",
      "progress file, restored first and rewritten after each template (default: <benchmark name>_templates_backup.json beside the output)",
    )
    .option("-c, --concurrency <n>", "questions generated at once (default 1)", integer("--concurrency", 1))
    .option(
      "--endpoint-key-env <var>",
      "environment variable holding the API key of an openai_endpoint model",
    )
    .option("--no-progress", "no progress bar")
    .addHelpText(
      "after",
      `
Each template is written in three calls: a plan, the attributes with their types and ground truths
(taken from the reference answer and the answer notes), and the judge's instruction for each attribute.
The result is VerifiedField Python that the original framework loads too. Questions that already have a
template are skipped unless --force. Generated templates do not mark questions finished: review them
(karenina template check), then mark the questions finished (karenina checkpoint finish FILE).

Examples:
  karenina generate-templates bench.jsonld -m openai:gpt-4.1-mini
  karenina generate-templates bench.jsonld -m anthropic:claude-haiku-4-5 -o bench.templated.jsonld -c 4
  karenina generate-templates bench.jsonld -m openai_endpoint:llama3.1@http://127.0.0.1:11434/v1 --no-plan
  karenina generate-templates bench.jsonld -m openai:gpt-4.1-mini --questions q1,q7 --force

An interrupted or partly failed run keeps its backup: run the same command again to resume.
Exit code: 0 when every selected question has a template, 1 when some failed or the run was interrupted,
2 on bad usage.`,
    )
    .action(async (checkpoint: string, options: GenerateTemplatesCliOptions) => {
      const model = generatorModel(options.model, env, options.endpointKeyEnv);
      const questionIds = options.questions === undefined ? undefined : questionList(options.questions);
      const bench = await Benchmark.load(checkpoint);
      const output = options.output ?? checkpoint;
      const backupPath = options.backup ?? join(dirname(output), defaultBackupPath(bench.name));
      const services: CallServices = {
        ports: new CachingPortProvider(),
        scheduler: new CallScheduler(),
        cache: null,
        stats: new RunStats(),
      };
      const controller = new AbortController();
      const onSigint = () => controller.abort(new Error("interrupted"));
      process.once("SIGINT", onSigint);
      const bar = progressBar(options.progress);
      let outcomes: Record<string, TemplateOutcome>;
      try {
        outcomes = await generateTemplates(bench, {
          model,
          plan: options.plan,
          force: options.force === true,
          backupPath,
          concurrency: options.concurrency ?? 1,
          services,
          signal: controller.signal,
          onProgress: (event) => bar.update(event),
          ...(questionIds === undefined ? {} : { questionIds }),
        });
      } finally {
        bar.stop();
        process.off("SIGINT", onSigint);
        await services.ports.close();
      }
      const changed = Object.values(outcomes).some((outcome) => outcome.success && outcome.skipped !== true);
      const restored = Object.values(outcomes).some((outcome) => outcome.restored === true);
      const saved =
        changed || restored || options.output !== undefined
          ? `wrote ${await bench.save(output)}`
          : "checkpoint unchanged";
      const ids = questionIds ?? bench.getQuestionIds();
      io.out(outcomeText(ids, outcomes));
      io.err(`${summaryLine(ids, outcomes, services.stats)} · ${saved}\n`);
      const complete = ids.every((id) => outcomes[id]?.success === true);
      if (complete) {
        await rm(backupPath, { force: true });
        const which = questionIds === undefined ? "all" : shellWord(questionIds.join(","));
        io.err(
          "Generated templates are not marked finished: review them (karenina template check), then mark the questions\n" +
            `finished: karenina checkpoint finish ${shellWord(output)} --questions ${which}\n`,
        );
        return;
      }
      io.err(
        existsSync(backupPath)
          ? `Progress is kept in ${backupPath}: run the same command again to resume.\n`
          : "No template was generated, so there is no progress to keep: run the same command again to retry.\n",
      );
      throw new CliExit(EXIT.checkFailed);
    });
}
