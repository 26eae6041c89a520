import { stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { Command } from "commander";
import {
  extractQuestionsFromFile,
  type FileExtraction,
  previewSpreadsheet,
  type SpreadsheetMappingInput,
} from "../authoring/index.js";
import { Benchmark } from "../benchmark/index.js";
import { checkpointPath } from "../checkpoint/index.js";
import type { Question } from "../model/index.js";
import { CliExit, type CliIo, CliUsageError, EXIT } from "./cli-io.js";
import { shellWord } from "./shell-words.js";
import { collect } from "./verify-command.js";

/** Options of `karenina import`, as commander gives them. */
interface ImportOptions {
  questionColumn?: string;
  answerColumn?: string;
  sheet?: string;
  authorNameColumn?: string;
  authorEmailColumn?: string;
  authorAffiliationColumn?: string;
  urlColumn?: string;
  keywordsColumn?: string[];
  notesColumn?: string;
  metadataColumn?: string[];
  finished?: boolean;
  output?: string;
  name?: string;
  into?: string;
  preview?: boolean;
}

/** Rows `--preview` shows. */
const PREVIEW_ROWS = 5;
/** Longest cell text `--preview` shows before cutting it. */
const PREVIEW_WIDTH = 100;

/** A `--keywords-column` value: `COL` (comma-separated keywords) or `COL:SEP`, split at the last colon. */
function keywordsColumn(value: string): { column: string; separator?: string } {
  const at = value.lastIndexOf(":");
  if (at <= 0 || at === value.length - 1) return { column: value };
  return { column: value.slice(0, at), separator: value.slice(at + 1) };
}

function mappingOf(options: ImportOptions): SpreadsheetMappingInput {
  if (options.questionColumn === undefined || options.answerColumn === undefined) {
    throw new CliUsageError(
      "import needs --question-column and --answer-column (run with --preview to see the file's columns)",
    );
  }
  const optional = {
    sheet: options.sheet,
    authorNameColumn: options.authorNameColumn,
    authorEmailColumn: options.authorEmailColumn,
    authorAffiliationColumn: options.authorAffiliationColumn,
    urlColumn: options.urlColumn,
    answerNotesColumn: options.notesColumn,
  };
  return {
    questionColumn: options.questionColumn,
    answerColumn: options.answerColumn,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    keywordsColumns: (options.keywordsColumn ?? []).map(keywordsColumn),
    customMetadataColumns: options.metadataColumn ?? [],
  };
}

/** Where the questions go: a new checkpoint (`-o`) or an existing one (`--into`). */
type Target = { kind: "new"; path: string; name: string | undefined } | { kind: "existing"; path: string };

function targetOf(options: ImportOptions): Target {
  if (options.output !== undefined && options.into !== undefined)
    throw new CliUsageError("give either --output (a new checkpoint) or --into (an existing one), not both");
  if (options.into !== undefined) {
    if (options.name !== undefined)
      throw new CliUsageError("--name names a new checkpoint: use it with --output");
    return { kind: "existing", path: options.into };
  }
  if (options.output === undefined)
    throw new CliUsageError("say where the questions go: --output NEW.jsonld or --into EXISTING.jsonld");
  return { kind: "new", path: options.output, name: options.name };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The questions not in the benchmark yet (by id or by text), and how many were left out and why. */
function newQuestions(
  bench: Benchmark,
  questions: readonly Question[],
): { fresh: Question[]; present: number; repeated: number } {
  const texts = new Set(bench.getAllQuestions().map((record) => record.question));
  const seen = new Set<string>();
  const fresh: Question[] = [];
  let present = 0;
  let repeated = 0;
  for (const question of questions) {
    if (bench.has(question.id) || texts.has(question.question)) present++;
    else if (seen.has(question.id)) repeated++;
    else fresh.push(question);
    seen.add(question.id);
  }
  return { fresh, present, repeated };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function droppedLine(extraction: FileExtraction): string | null {
  const rows = extraction.dropped_rows;
  if (rows.length === 0) return null;
  const shown = rows.slice(0, 10).join(", ") + (rows.length > 10 ? ", …" : "");
  return `dropped ${plural(rows.length, "row")} with an empty question or answer (row${rows.length === 1 ? "" : "s"} ${shown})`;
}

function source(extraction: FileExtraction): string {
  return extraction.sheet === null
    ? extraction.file
    : `${extraction.file}, sheet ${JSON.stringify(extraction.sheet)}`;
}

function cut(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > PREVIEW_WIDTH ? `${oneLine.slice(0, PREVIEW_WIDTH - 1)}…` : oneLine;
}

async function printPreview(file: string, options: ImportOptions, io: CliIo): Promise<void> {
  const preview = await previewSpreadsheet(file, {
    rows: PREVIEW_ROWS,
    ...(options.sheet === undefined ? {} : { sheet: options.sheet }),
  });
  if (!preview.success) throw new CliUsageError(preview.error);
  const lines: string[] = [];
  if (preview.sheet !== null) {
    const sheets = (preview.sheets ?? []).map((name) => JSON.stringify(name)).join(", ");
    lines.push(`sheet: ${JSON.stringify(preview.sheet)} (sheets: ${sheets})`);
  }
  lines.push(`columns: ${preview.columns.map((column) => JSON.stringify(column)).join(", ") || "(none)"}`);
  lines.push(
    `rows: ${preview.total_rows}${preview.total_rows > 0 ? ` (first ${preview.preview_rows} below)` : ""}`,
  );
  preview.data.forEach((row, index) => {
    lines.push("", `#${index + 1}`);
    for (const [column, value] of Object.entries(row))
      lines.push(`  ${column}:${value === "" ? "" : ` ${cut(value)}`}`);
  });
  io.out(`${lines.join("\n")}\n`);
  if (options.questionColumn === undefined && options.answerColumn === undefined) return;
  const extraction = await extractQuestionsFromFile(file, mappingOf(options));
  for (const warning of extraction.warnings) io.err(`warning: ${warning}\n`);
  const dropped = droppedLine(extraction);
  io.out(
    `\nwould import ${plural(extraction.questions.length, "question")}${dropped === null ? "" : `; ${dropped}`}\n` +
      "(preview: nothing was written)\n",
  );
}

async function importFile(file: string, options: ImportOptions, io: CliIo): Promise<void> {
  const mapping = mappingOf(options);
  const target = targetOf(options);
  if (target.kind === "new" && (await exists(checkpointPath(target.path)))) {
    throw new CliUsageError(
      `${checkpointPath(target.path)} already exists; add to it with --into, or choose another --output`,
    );
  }
  const extraction = await extractQuestionsFromFile(file, mapping);
  for (const warning of extraction.warnings) io.err(`warning: ${warning}\n`);
  const dropped = droppedLine(extraction);
  if (extraction.questions.length === 0) {
    io.err(
      `no questions in ${source(extraction)} (${plural(extraction.total_rows, "data row")}${dropped === null ? "" : `; ${dropped}`}); nothing was written\n`,
    );
    throw new CliExit(EXIT.checkFailed);
  }
  const bench =
    target.kind === "existing"
      ? await Benchmark.load(target.path)
      : Benchmark.create({
          name: target.name ?? basename(file, extname(file)),
          description: `Questions imported from ${basename(file)}`,
        });
  const { fresh, present, repeated } = newQuestions(bench, extraction.questions);
  const finished = options.finished === true;
  const lines: string[] = [];
  if (fresh.length === 0 && target.kind === "existing") {
    lines.push(`Imported no question from ${source(extraction)}: ${target.path} is unchanged`);
  } else {
    bench.addQuestions(fresh, { finished });
    const written = await bench.save(target.path);
    lines.push(`Imported ${plural(fresh.length, "question")} from ${source(extraction)} into ${written}`);
  }
  if (present > 0) lines.push(`  skipped ${present} already in the checkpoint`);
  if (repeated > 0) lines.push(`  skipped ${repeated} repeated in the file`);
  if (dropped !== null) lines.push(`  ${dropped}`);
  if (fresh.length > 0) {
    lines.push(
      finished
        ? "  marked finished: they will be verified"
        : `  not finished (drafts): verify leaves them out until they have templates and are marked finished:\n    karenina checkpoint finish ${shellWord(target.path)} --questions all   (or import with --finished)`,
    );
  }
  io.out(`${lines.join("\n")}\n`);
}

/** `karenina import`: questions from a spreadsheet into a new or an existing checkpoint. */
export function registerImportCommand(program: Command, io: CliIo): void {
  program
    .command("import")
    .description("Import questions from a spreadsheet (.xlsx, .csv, .tsv/.txt) into a checkpoint")
    .argument("<file>", "the spreadsheet: the first non-blank row names the columns")
    .option("-q, --question-column <column>", "column of the question texts (required)")
    .option("-a, --answer-column <column>", "column of the reference answers (required)")
    .option("--sheet <name>", "the .xlsx sheet to read (default: the first)")
    .option("--author-name-column <column>", "column of the author's name")
    .option("--author-email-column <column>", "column of the author's email")
    .option("--author-affiliation-column <column>", "column of the author's affiliation")
    .option("--url-column <column>", "column of a source URL (stored as custom_metadata.url)")
    .option(
      "--keywords-column <column[:sep]>",
      "column of keywords separated by sep (default ','); repeatable, keywords are merged and sorted",
      collect,
    )
    .option("--notes-column <column>", "column of answer notes")
    .option(
      "--metadata-column <column>",
      "column stored in custom_metadata under its header, numbers kept as numbers (repeatable)",
      collect,
    )
    .option(
      "--finished",
      "mark the imported questions finished (default: drafts, not verified until finished)",
    )
    .option("-o, --output <checkpoint>", "write a new checkpoint (.jsonld); refused if it exists")
    .option("--name <name>", "with --output: the benchmark's name (default: the spreadsheet's file name)")
    .option(
      "--into <checkpoint>",
      "add to this existing checkpoint (saved atomically); questions already in it are skipped",
    )
    .option(
      "--preview",
      "print the columns and first rows (and, with -q/-a, what would be imported); write nothing",
    )
    .addHelpText(
      "after",
      `
Examples:
  karenina import questions.xlsx --preview
  karenina import questions.csv -q Question -a Answer -o bench.jsonld --name "Drug targets"
  karenina import questions.xlsx --sheet Final -q Question -a Answer --keywords-column "Tags:;" \\
      --author-name-column Author --notes-column Notes --metadata-column Difficulty --into bench.jsonld

Column names are matched exactly (the closest header is suggested on a miss). Rows with an empty question or
answer are dropped and counted. A question already in the checkpoint (same id or same text) is skipped.
Exit code: 0 when imported, 1 when the file holds no question, 2 on bad usage or an unusable file.`,
    )
    .action(async (file: string, options: ImportOptions) => {
      if (options.preview) await printPreview(file, options, io);
      else await importFile(file, options, io);
    });
}
