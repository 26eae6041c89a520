import type { Command } from "commander";
import { Benchmark } from "../benchmark/index.js";
import { TemplateError } from "../templates/index.js";
import { CliExit, type CliIo, CliUsageError, EXIT } from "./cli-io.js";
import { QUESTION_SELECTOR_HELP, selectBenchmarkQuestion } from "./question-selector.js";

/** What `karenina template check --json` prints. */
export interface TemplateCheckReport {
  schema: unknown;
  verify: boolean | null;
  verifyGranular: number | null;
  regex: unknown;
  error: string | null;
}

function parseAnswer(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`--answer: not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CliUsageError('--answer: expected a JSON object of field values, e.g. \'{"target": "BCL2"}\'');
  }
  return value as Record<string, unknown>;
}

async function checkTemplate(
  bench: Benchmark,
  id: string,
  answer: Record<string, unknown>,
  rawResponse: string | undefined,
): Promise<TemplateCheckReport> {
  try {
    const template = await bench.getAnswerTemplate(id);
    const result = await template.evaluate(answer, {
      questionId: id,
      ...(rawResponse === undefined ? {} : { rawResponse }),
    });
    return {
      schema: template.judgeSchema,
      verify: result.verify,
      verifyGranular: result.verifyGranular,
      regex: result.regex,
      error: result.error,
    };
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { schema: null, verify: null, verifyGranular: null, regex: null, error: error.message };
  }
}

function reportText(report: TemplateCheckReport, id: string): string {
  const lines = [`question ${id}`];
  if (report.error !== null) lines.push(`error: ${report.error}`);
  if (report.verify !== null) lines.push(`verify: ${report.verify}`);
  if (report.verifyGranular !== null) lines.push(`verifyGranular: ${report.verifyGranular}`);
  const regex = report.regex as { results?: Record<string, boolean> } | null;
  for (const [name, passed] of Object.entries(regex?.results ?? {}))
    lines.push(`regex ${name}: ${passed ? "passed" : "failed"}`);
  if (report.schema !== null) lines.push("judge schema:", JSON.stringify(report.schema, null, 2));
  return lines.join("\n");
}

/** `karenina template check`. */
export function registerTemplateCommands(program: Command, io: CliIo): void {
  const template = program.command("template").description("Work with answer templates");

  template
    .command("check")
    .description(
      "Verify a parsed answer against a question's template, without any LLM; exit 0 when it passes, 1 when not",
    )
    .argument("<file>", "checkpoint holding the question")
    .requiredOption(
      "-q, --question <question>",
      `the question whose template to run: ${QUESTION_SELECTOR_HELP}`,
    )
    .requiredOption(
      "--answer <json>",
      'the parsed answer the judge would return, e.g. \'{"target": "BCL2"}\'',
    )
    .option("--response <text>", "the answering model's raw response, for regex checks and trace primitives")
    .option("--json", 'print {"schema","verify","verifyGranular","regex","error"} as JSON')
    .action(
      async (
        file: string,
        options: { question: string; answer: string; response?: string; json?: boolean },
      ) => {
        const answer = parseAnswer(options.answer);
        const bench = await Benchmark.load(file);
        const id = selectBenchmarkQuestion(bench, options.question, file);
        const report = await checkTemplate(bench, id, answer, options.response);
        io.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${reportText(report, id)}\n`);
        if (report.verify !== true) throw new CliExit(EXIT.checkFailed);
      },
    );
}
