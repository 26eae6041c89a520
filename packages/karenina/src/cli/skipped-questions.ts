/**
 * What `verify` (and its dry run) says about the questions it leaves out: how many, why, and the command that
 * brings them in. A run never verifies zero questions in silence.
 */
import type { SkippedQuestion, SkipReason } from "../benchmark/index.js";
import { CliUsageError } from "./cli-io.js";
import { shellWord } from "./shell-words.js";

const SHOWN_IDS = 3;

function idList(ids: readonly string[]): string {
  const shown = ids.slice(0, SHOWN_IDS).join(", ");
  return ids.length > SHOWN_IDS ? `${shown} and ${ids.length - SHOWN_IDS} more` : shown;
}

/** How the run chose its questions, which decides the commands suggested. */
export interface SkippedTextOptions {
  /**
   * The run named its questions (`-q`): the commands name the same ids. Otherwise every question of the file
   * was wanted, so `finish --questions all` and `generate-templates` without `--questions` do what is needed.
   */
  questionsGiven?: boolean;
}

const idsWord = (ids: readonly string[]) => shellWord(ids.join(","));

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function reasonLines(
  reason: SkipReason,
  skipped: readonly SkippedQuestion[],
  file: string,
  options: SkippedTextOptions,
): string[] {
  const ids = skipped.map((s) => s.id);
  const checkpoint = shellWord(file);
  const given = options.questionsGiven === true;
  switch (reason) {
    case "draft":
      return [
        `  ${plural(ids.length, "draft", "drafts")} (not finished): ${idList(ids)}`,
        `    to verify them: karenina checkpoint finish ${checkpoint} --questions ${given ? idsWord(ids) : "all"}   (or verify with --include-drafts)`,
      ];
    case "no_template": {
      const placeholders = skipped.filter((s) => s.detail !== undefined).length;
      const note =
        placeholders === 0 ? "" : ` (${placeholders} on the default placeholder, which always fails)`;
      return [
        `  ${plural(ids.length, "question", "questions")} without a template${note}: ${idList(ids)}`,
        `    to write them: karenina generate-templates ${checkpoint} -m SPEC${given ? ` --questions ${idsWord(ids)}` : ""}`,
      ];
    }
    case "invalid_template":
      return [
        `  ${plural(ids.length, "question", "questions")} whose template does not load:`,
        ...skipped.slice(0, SHOWN_IDS).map((s) => `    ${s.id}: ${clip(s.detail ?? "", 200)}`),
        ...(ids.length > SHOWN_IDS ? [`    and ${ids.length - SHOWN_IDS} more`] : []),
        `    fix them (karenina template check ${checkpoint} --question ID --answer JSON shows the error), or leave them out: karenina checkpoint unfinish ${checkpoint} --questions ${idsWord(ids)}`,
      ];
  }
}

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

const REASONS: readonly SkipReason[] = ["draft", "no_template", "invalid_template"];

/**
 * The lines saying which questions a run leaves out and how to bring them in; none when it leaves out none.
 * A draft `q1` of `bench.jsonld` gives `1 question skipped:`, `  1 draft (not finished): q1` and the line
 * `    to verify them: karenina checkpoint finish bench.jsonld --questions all   (or verify with --include-drafts)`.
 */
export function skippedText(
  skipped: readonly SkippedQuestion[],
  checkpoint: string,
  options: SkippedTextOptions = {},
): string[] {
  if (skipped.length === 0) return [];
  return [
    `${plural(skipped.length, "question", "questions")} skipped:`,
    ...REASONS.flatMap((reason) => {
      const these = skipped.filter((s) => s.reason === reason);
      return these.length === 0 ? [] : reasonLines(reason, these, checkpoint, options);
    }),
  ];
}

/** `2 questions skipped (1 draft, 1 without a template)`, for the run's summary line. */
export function skippedSummary(skipped: readonly SkippedQuestion[]): string {
  const counts = REASONS.map((reason) => [reason, skipped.filter((s) => s.reason === reason).length] as const)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) =>
      reason === "draft"
        ? plural(n, "draft", "drafts")
        : reason === "no_template"
          ? `${n} without a template`
          : `${n} with an invalid template`,
    );
  return `${plural(skipped.length, "question", "questions")} skipped (${counts.join(", ")})`;
}

/** A run that would verify no question (exit code 2): the file is empty, or every question it names is left out. */
export class NothingToVerifyError extends CliUsageError {
  constructor(checkpoint: string, skipped: readonly SkippedQuestion[], options: SkippedTextOptions = {}) {
    super(
      skipped.length === 0
        ? `nothing to verify: ${checkpoint} has no questions`
        : [
            `nothing to verify in ${checkpoint}: every question is left out.`,
            ...skippedText(skipped, checkpoint, options),
          ].join("\n"),
    );
  }
}
