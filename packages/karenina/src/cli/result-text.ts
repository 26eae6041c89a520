import { displayString, rowOutcome, type VerificationResult } from "../results/index.js";
import { type Palette, printable, type Tone } from "./colour.js";
import { failureDigest } from "./failure-reasons.js";
import type { SelectableQuestion } from "./question-selector.js";
import { type Cell, table, toned } from "./text-table.js";

/** The longest value shown in a table cell of fields or traits; `--json` has them whole. */
const MAX_VALUE = 60;

function clipped(text: string, max = MAX_VALUE): string {
  const characters = Array.from(text.replace(/\s+/g, " "));
  return characters.length > max ? `${characters.slice(0, max - 1).join("")}…` : characters.join("");
}

/** A value as JSON (strings quoted, so `"5"` and `5` differ), on one line. */
const valueText = (value: unknown) => clipped(value === undefined ? "-" : JSON.stringify(value));

const scoreText = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/** Text from the run, indented under its label, with its control characters escaped. */
function block(text: string, palette: Palette, empty: string): string[] {
  if (text.trim() === "") return [`    ${palette.paint(empty, "dim")}`];
  return printable(text.replace(/\r\n?/g, "\n").trimEnd())
    .split("\n")
    .map((line) => `    ${line}`.trimEnd());
}

const VERDICTS: Record<ReturnType<typeof rowOutcome>, [label: string, tone: Tone]> = {
  passed: ["PASSED", "pass"],
  failed: ["FAILED", "fail"],
  not_evaluated: ["NOT VERIFIED", "warn"],
};

function verdictLines(result: VerificationResult, palette: Palette): string[] {
  const [label, tone] = VERDICTS[rowOutcome(result)];
  const template = result.template;
  const lines = [`  verdict   ${palette.paint(label, tone)}${verdictDetail(result)}`];
  const granular = template?.verify_granular_result;
  if (typeof granular === "number") lines.push(`  granular score  ${scoreText(granular)}`);
  const regex = template?.regex_validation_results;
  if (regex !== null && regex !== undefined && Object.keys(regex).length > 0) {
    const checks = Object.entries(regex).map(
      ([name, ok]) => `${printable(name)} ${palette.paint(ok ? "passed" : "failed", ok ? "pass" : "fail")}`,
    );
    lines.push(`  regex checks  ${checks.join(", ")}`);
  }
  if (template?.abstention_check_performed && template.abstention_detected)
    lines.push(`  abstained  ${printable(template.abstention_reasoning ?? "")}`.trimEnd());
  if (template?.sufficiency_check_performed && template.sufficiency_detected === false)
    lines.push(`  insufficient  ${printable(template.sufficiency_reasoning ?? "")}`.trimEnd());
  return lines;
}

function verdictDetail(result: VerificationResult): string {
  const failure = result.metadata.failure;
  if (failure !== null) return `  ${failure.category}: ${printable(failureDigest(failure))}`;
  if (rowOutcome(result) === "not_evaluated") return "  (no template verification ran, and no failure)";
  return "";
}

/** The judge's parsed fields against the ground truth, with the per-field verdict when the template gives one. */
function fieldLines(result: VerificationResult, palette: Palette): string[] {
  const template = result.template;
  const parsed = template?.parsed_llm_response ?? null;
  const truth = template?.parsed_gt_response ?? null;
  if (parsed === null && truth === null) return ["  parsed fields  none (the answer was not parsed)"];
  const fieldResults = template?.field_results ?? null;
  const scores = template?.field_scores ?? null;
  const names = [
    ...new Set([
      ...Object.keys(parsed ?? {}),
      ...Object.keys(truth ?? {}),
      ...Object.keys(fieldResults ?? {}),
    ]),
  ];
  if (names.length === 0) return ["  parsed fields  none (the template has no field for the judge)"];
  const match = (name: string): Cell => {
    const verdict = fieldResults?.[name];
    const score = scores?.[name];
    const scored = typeof score === "number" ? ` (${scoreText(score)})` : "";
    if (verdict === true) return toned(`yes${scored}`, "pass");
    if (verdict === false) return toned(`no${scored}`, "fail");
    return verdict === null ? toned("no value", "warn") : "-";
  };
  const columns = [{ header: "field" }, { header: "parsed (judge)" }, { header: "ground truth" }];
  const rows = names.map((name): Cell[] => [
    name,
    valueText(parsed?.[name]),
    valueText(truth?.[name]),
    ...(fieldResults === null ? [] : [match(name)]),
  ]);
  const title = "  parsed fields (the judge's reply) against the ground truth";
  const composition = template?.composition_strategy ? `, combined by ${template.composition_strategy}` : "";
  return [
    `${title}${composition}`,
    ...table(fieldResults === null ? columns : [...columns, { header: "match" }], rows, palette).map(
      (line) => `  ${line}`,
    ),
  ];
}

function traitValue(value: unknown, label?: string): Cell {
  if (typeof value === "boolean") return toned(String(value), value ? "pass" : "fail");
  if (typeof value === "number") return label === undefined ? scoreText(value) : `${label} (${value})`;
  return value === null ? toned("no value", "warn") : valueText(value);
}

/** Every rubric trait's value: LLM (labels of literal traits), regex, callable, metric and agentic. */
function rubricLines(result: VerificationResult, palette: Palette): string[] {
  const rubric = result.rubric;
  if (rubric === null || !rubric.rubric_evaluation_performed) return [];
  const rows: Cell[][] = [];
  for (const [name, value] of Object.entries(rubric.llm_trait_scores ?? {}))
    rows.push([name, "llm", traitValue(value, rubric.llm_trait_labels?.[name])]);
  for (const [name, value] of Object.entries(rubric.regex_trait_scores ?? {}))
    rows.push([name, "regex", traitValue(value)]);
  for (const [name, value] of Object.entries(rubric.callable_trait_scores ?? {}))
    rows.push([name, "callable", traitValue(value)]);
  for (const [name, metrics] of Object.entries(rubric.metric_trait_scores ?? {})) {
    const values = Object.entries(metrics).map(([metric, value]) => `${metric} ${scoreText(value)}`);
    const lists = rubric.metric_trait_confusion_lists?.[name];
    const confusion =
      lists === undefined
        ? ""
        : ` (${(["tp", "fn", "fp"] as const)
            .filter((kind) => lists[kind].length > 0)
            .map((kind) => `${kind} ${lists[kind].join(", ")}`)
            .join("; ")})`;
    rows.push([name, "metric", clipped(`${values.join(", ")}${confusion}`, 100)]);
  }
  for (const [name, value] of Object.entries(rubric.agentic_trait_scores ?? {}))
    rows.push([name, "agentic", traitValue(value)]);
  if (rows.length === 0) return ["  rubric  no trait has a value"];
  return [
    "  rubric scores",
    ...table([{ header: "trait" }, { header: "type" }, { header: "value" }], rows, palette).map(
      (line) => `  ${line}`,
    ),
  ];
}

function failureLines(result: VerificationResult, palette: Palette): string[] {
  const failure = result.metadata.failure;
  if (failure === null) return [];
  const lines = [
    `  failure   ${palette.paint(failure.group === failure.category ? failure.category : `${failure.category} (${failure.group})`, "fail")} at ${printable(failure.stage)}: ${printable(failure.reason)}`,
  ];
  const message = failure.details?.error_message;
  if (typeof message === "string" && message.trim() !== "" && message.trim() !== failure.reason)
    lines.push("  error", ...block(message, palette, ""));
  return lines;
}

/** `120 in / 30 out`, then each stage's tokens and model. */
function tokenLines(result: VerificationResult): string[] {
  const usage = result.template?.usage_metadata ?? null;
  if (usage === null) return ["  tokens    no usage recorded"];
  const total = usage.total;
  const stages = Object.entries(usage)
    .filter(([stage]) => stage !== "total")
    .map(([stage, entry]) => {
      const model = entry.model ? ` ${printable(entry.model)}` : "";
      return `${stage} ${entry.input_tokens}/${entry.output_tokens}${model}`;
    });
  const sum = total === undefined ? "" : `${total.input_tokens} in / ${total.output_tokens} out`;
  const lines = [`  tokens    ${sum}${stages.length > 0 ? `  (${stages.join(", ")})` : ""}`.trimEnd()];
  const agent = result.template?.agent_metrics;
  if (agent && (agent.tool_calls ?? 0) > 0)
    lines.push(
      `  agent     ${agent.iterations} iterations, ${agent.tool_calls} tool calls${agent.limit_reached ? ", limit reached" : ""}`,
    );
  return lines;
}

/** Where a result comes from: its models, replicate, time and id. */
function resultHeading(result: VerificationResult, at: number, of: number, palette: Palette): string {
  const { metadata } = result;
  const models = `${displayString(metadata.answering)} | ${displayString(metadata.parsing)}`;
  const replicate = metadata.replicate === null ? "" : ` · replicate ${metadata.replicate}`;
  return palette.paint(printable(`result ${at} of ${of}: ${models}${replicate}`), "heading");
}

/** The question a result answers: its index in the run, id, text, expected answer and keywords. */
export function questionText(
  question: SelectableQuestion,
  index: number,
  count: number,
  result: VerificationResult,
  palette: Palette,
): string[] {
  const { metadata } = result;
  const lines = [
    palette.paint(`question #${index} of ${count}: ${printable(question.id)}`, "heading"),
    ...block(question.text, palette, "(no text)").map((line) => line.slice(2)),
  ];
  if (metadata.raw_answer !== null) lines.push(`  expected answer: ${printable(metadata.raw_answer)}`);
  if (metadata.keywords !== null && metadata.keywords.length > 0)
    lines.push(`  keywords: ${printable(metadata.keywords.join(", "))}`);
  return lines;
}

/**
 * One result in full, for `karenina show`: verdict, the response, the judge's parsed fields against the ground
 * truth, rubric scores, the failure and its reason, token use, and where it comes from. Everything taken from
 * the run (written by models, or by a checkpoint's author) is printed with its control characters escaped.
 */
export function resultText(result: VerificationResult, at: number, of: number, palette: Palette): string[] {
  const { metadata } = result;
  const caveats = metadata.caveats.length > 0 ? [`  caveats   ${metadata.caveats.join(", ")}`] : [];
  const warnings = metadata.warnings.map((warning) => `  warning   ${printable(warning)}`);
  const time = `${metadata.execution_time.toFixed(1)} s`;
  return [
    resultHeading(result, at, of, palette),
    ...verdictLines(result, palette),
    "  response",
    ...block(result.template?.raw_llm_response ?? "", palette, "(none: no answer was generated)"),
    ...fieldLines(result, palette),
    ...rubricLines(result, palette),
    ...failureLines(result, palette),
    ...caveats,
    ...warnings,
    ...tokenLines(result),
    palette.paint(
      `  ${time} · ${printable(metadata.timestamp)} · result id ${printable(metadata.result_id)}`,
      "dim",
    ),
  ];
}
