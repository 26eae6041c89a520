/** `INDEX.md` of an analysis (spec 08 §10.4): statistics, the failure breakdown, the cases by category. */
import type { Failure } from "../results/index.js";

/** One case as the index lists it. */
export interface CaseEntry {
  /** The frontmatter id. */
  id: string;
  /** The case file, relative to the analysis directory. */
  link: string;
  failure: Failure | null;
}

/** Python's `f"{x:.0f}"`: ties to even. */
function percent(part: number, whole: number): string {
  if (whole === 0) return "0";
  const value = (100 * part) / whole;
  const floor = Math.floor(value);
  const rounded = value - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(value);
  return String(rounded);
}

const cell = (text: string) => text.replaceAll("|", "\\|");

const DIRECTORY = [
  "- `INDEX.md`: this file",
  "- `PROMPT.md`: the analyst's instructions",
  "- `RUBRIC_GUIDE.md`: how rubric traits work",
  "- `REPORT.md`: the analysis (written by the analyst)",
  "- `benchmark/`: metadata.md, questions.jsonl, rubric.json, templates/",
  "- `failures/<category>/`: one file per failed case",
  "- `passes/`: one file per passing case",
  "- `case_assets/<case>/traces/artifacts/`: long trace chunks the case files point to",
];

/** The text of INDEX.md. Totals count cases: one per QA row, one per scenario execution. */
export function indexMarkdown(input: {
  benchmark: string;
  model: string;
  timestamp: string;
  entries: readonly CaseEntry[];
  oneLine: (text: string) => string;
}): string {
  const { entries } = input;
  const failures = entries.filter((entry) => entry.failure !== null);
  const passes = entries.filter((entry) => entry.failure === null);
  const lines = [
    `# Error Analysis: ${input.benchmark}`,
    "",
    `- Model: ${input.model}`,
    `- Run timestamp: ${input.timestamp || "-"}`,
    `- Total: ${entries.length}`,
    `- Passed: ${passes.length} (${percent(passes.length, entries.length)}%)`,
    `- Failed: ${failures.length}`,
    "",
    "## Failure breakdown",
    "",
  ];
  const counts = new Map<string, number>();
  for (const { failure } of failures) {
    const key = `${failure?.group}\t${failure?.category}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  if (counts.size === 0) lines.push("_No failures._");
  else {
    lines.push("| Group | Category | Count |", "|---|---|---|");
    for (const key of [...counts.keys()].sort()) {
      const [group, category] = key.split("\t");
      lines.push(`| ${group} | ${category} | ${counts.get(key)} |`);
    }
  }
  lines.push("", "## Directory", "", ...DIRECTORY, "", "## Failures by category", "");
  const categories = [...new Set(failures.map((entry) => entry.failure?.category as string))].sort();
  if (categories.length === 0) lines.push("_No failures._", "");
  for (const category of categories) {
    const own = failures.filter((entry) => entry.failure?.category === category);
    lines.push(`### ${category} (${own.length})`, "", "| ID | Stage | One-line reason |", "|---|---|---|");
    for (const entry of own)
      lines.push(
        `| [${cell(entry.id)}](${entry.link}) | ${cell(entry.failure?.stage ?? "-")} | ${cell(input.oneLine(entry.failure?.reason ?? ""))} |`,
      );
    lines.push("");
  }
  lines.push("## Passes", "");
  if (passes.length === 0) lines.push("_No passing cases._");
  else {
    lines.push("| ID | Stage |", "|---|---|");
    for (const entry of passes.slice(0, 50)) lines.push(`| [${cell(entry.id)}](${entry.link}) | - |`);
    if (passes.length > 50) lines.push("", `_(... and ${passes.length - 50} more)_`);
  }
  lines.push("");
  return lines.join("\n");
}
