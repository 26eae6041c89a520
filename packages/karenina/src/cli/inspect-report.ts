import type { Benchmark, ReadinessReport } from "../benchmark/index.js";
import { type Rubric, rubricTraits, traitKindLabel } from "../model/index.js";
import { type Palette, PLAIN, printable } from "./colour.js";
import { type ScenarioSummary, scenarioBlocks, scenarioSummary } from "./scenario-text.js";

/** A trait as `inspect --json` lists it. */
export interface TraitSummary {
  name: string;
  kind: string;
}

/** The exact shape `karenina checkpoint inspect --json` prints. */
export interface InspectSummary {
  name: string;
  version: string;
  description: string;
  creator: string;
  questionCount: number;
  globalRubric: TraitSummary[];
  questions: {
    id: string;
    question: string;
    rawAnswer: string;
    finished: boolean;
    hasTemplate: boolean;
    templateLanguage: string;
    keywords: string[];
    rubric: TraitSummary[];
  }[];
  /** Only on a scenario benchmark (its `questions` are then empty): each scenario, in the file's order. */
  scenarios?: ScenarioSummary[];
}

function traitSummaries(rubric: Rubric | null): TraitSummary[] {
  return rubricTraits(rubric).map((trait) => ({ name: trait.name, kind: traitKindLabel(trait) }));
}

export function inspectSummary(bench: Benchmark): InspectSummary {
  const scenarios = bench.isScenarioBenchmark ? { scenarios: bench.getScenarios().map(scenarioSummary) } : {};
  return {
    name: bench.name,
    version: bench.version,
    description: bench.description,
    creator: bench.creator,
    questionCount: bench.questionCount,
    globalRubric: traitSummaries(bench.getGlobalRubric()),
    questions: bench.getQuestionIds().map((id) => {
      const record = bench.getQuestion(id);
      return {
        id,
        question: record.question,
        rawAnswer: record.raw_answer,
        finished: bench.isFinished(id),
        hasTemplate: bench.hasTemplate(id),
        templateLanguage: bench.getTemplateLanguage(id),
        keywords: record.keywords ?? [],
        rubric: traitSummaries(record.question_rubric),
      };
    }),
    ...scenarios,
  };
}

const rubricLine = (summary: InspectSummary) =>
  `global rubric: ${summary.globalRubric.length === 0 ? "none" : summary.globalRubric.map((t) => `${t.name} [${t.kind}]`).join(", ")}`;

function clip(text: string, width: number): string {
  const chars = Array.from(text.replace(/\s+/g, " "));
  return chars.length > width ? `${chars.slice(0, width - 1).join("")}…` : chars.join("");
}

/**
 * The readable form of {@link inspectSummary}: one row per question with its 0-based index, then its id
 * under its text, in full (what `--question` / `-q` accept, as does the start of the text). Text from the
 * checkpoint is printed with its control characters escaped; `palette` colours the flags on a terminal.
 */
export function inspectText(summary: InspectSummary, file: string, palette: Palette = PLAIN): string {
  const lines = [`${summary.name} (version ${summary.version}) by ${summary.creator}`, `file: ${file}`];
  if (summary.description) lines.push(`description: ${summary.description}`);
  if (summary.scenarios !== undefined) return [...lines, ...scenarioLines(summary, file, palette)].join("\n");
  const finished = summary.questions.filter((q) => q.finished).length;
  const templated = summary.questions.filter((q) => q.hasTemplate).length;
  const withRubric = summary.questions.filter((q) => q.rubric.length > 0).length;
  lines.push(
    "",
    `questions: ${summary.questionCount} (${finished} finished, ${templated} with a template, ${withRubric} with their own rubric)`,
  );
  lines.push(rubricLine(summary));
  if (summary.questions.length > 0) {
    const width = Math.max(3, String(summary.questions.length - 1).length);
    const indent = " ".repeat(width + 2 + 8 + 2 + 10 + 2 + 6 + 2);
    lines.push(
      "",
      palette.paint(`${"#".padStart(width)}  finished  template    traits  question, then its id`, "heading"),
    );
    summary.questions.forEach((q, i) => {
      const finished = palette.paint((q.finished ? "yes" : "no").padEnd(8), q.finished ? "pass" : "warn");
      const template = q.hasTemplate
        ? printable(q.templateLanguage).padEnd(10)
        : palette.paint("none".padEnd(10), "warn");
      lines.push(
        `${String(i).padStart(width)}  ${finished}  ${template}  ${String(q.rubric.length).padStart(6)}  ${printable(clip(q.question, 70))}`,
        `${indent}${palette.paint(printable(q.id), "dim")}`,
      );
    });
    lines.push(
      "",
      "-q/--question (verify, template check, rubric check) takes a question's # (0-based), its id or the start of its text.",
    );
  }
  return lines.join("\n");
}

/** The body of `inspect` on a scenario benchmark: one block per scenario instead of the question table. */
function scenarioLines(summary: InspectSummary, file: string, palette: Palette): string[] {
  const scenarios = summary.scenarios ?? [];
  return [
    "",
    `scenarios: ${scenarios.length}`,
    rubricLine(summary),
    "",
    ...scenarioBlocks(scenarios, palette, "  "),
    "",
    `To see a scenario's nodes, edges and outcome checks: karenina scenario show ${file} NAME`,
  ];
}

/** The readable readiness report of `karenina checkpoint validate`. */
export function readinessText(report: ReadinessReport, file: string): string {
  const check = (ok: boolean, label: string, detail = "") =>
    `  [${ok ? "ok" : "!!"}] ${label}${detail ? `: ${detail}` : ""}`;
  const ids = (list: readonly string[]) =>
    list.length > 5 ? `${list.slice(0, 5).join(", ")}, … (${list.length} in all)` : list.join(", ");
  const lines = [
    `${file}: ${report.ready_for_verification ? "ready for verification" : "NOT ready for verification"}`,
    check(report.has_questions, "has questions"),
    check(
      report.all_have_templates,
      "every question has a real template",
      report.all_have_templates ? "" : `missing for ${ids(report.missing_templates)}`,
    ),
    check(
      report.all_finished,
      "every question is finished",
      report.all_finished ? "" : `unfinished: ${ids(report.unfinished_questions)}`,
    ),
    check(
      report.templates_valid,
      "templates parse",
      report.templates_valid ? "" : `${report.template_errors_count} with errors`,
    ),
    check(
      report.rubrics_valid,
      "rubric traits are complete",
      report.rubrics_valid ? "" : `${report.rubric_errors_count} problems`,
    ),
  ];
  for (const problem of report.template_errors) lines.push(`      ${problem.question_id}: ${problem.error}`);
  for (const problem of report.rubric_errors) lines.push(`      ${problem.source}: ${problem.error}`);
  return lines.join("\n");
}
