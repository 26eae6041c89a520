import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { runKarenina } from "../test-support/cli.js";
import { EXIT } from "./cli-io.js";

// The spreadsheets below are hand-written test data.
const CSV =
  "Question,Answer,Tags,Author,Difficulty\n" +
  "What is the putative target of venetoclax?,BCL2,oncology; pharmacology,A. Curator,2\n" +
  "How many chromosomes are in a human somatic cell?,46,genetics,,1\n" +
  "Which drug inhibits BCL2?,,,,\n";

let dir: string;
let csv: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-import-"));
  csv = join(dir, "questions.csv");
  await writeFile(csv, CSV, "utf8");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MAPPING = [
  "-q",
  "Question",
  "-a",
  "Answer",
  "--keywords-column",
  "Tags:;",
  "--author-name-column",
  "Author",
];

describe("karenina import", () => {
  test("builds a new checkpoint of draft questions with their metadata, and counts the dropped rows", async () => {
    const out = join(dir, "bench.jsonld");
    const run = await runKarenina(
      "import",
      csv,
      ...MAPPING,
      "--metadata-column",
      "Difficulty",
      "-o",
      out,
      "--name",
      "Drugs",
    );
    expect(run.code).toBe(EXIT.ok);
    expect(run.out).toContain(`Imported 2 questions from ${csv} into ${out}`);
    expect(run.out).toContain("dropped 1 row with an empty question or answer (row 4)");
    expect(run.out).toContain("not finished (drafts)");
    expect(run.out).toContain(`karenina checkpoint finish ${out} --questions all`);

    const bench = await Benchmark.load(out);
    expect(bench.name).toBe("Drugs");
    expect(bench.finishedCount).toBe(0);
    const [first, second] = bench.getAllQuestions();
    expect(first).toMatchObject({
      question: "What is the putative target of venetoclax?",
      raw_answer: "BCL2",
      keywords: ["oncology", "pharmacology"],
      author: { "@type": "Person", name: "A. Curator" },
      custom_metadata: { Difficulty: 2 },
    });
    expect(second).toMatchObject({ raw_answer: "46", keywords: ["genetics"], author: null });
  });

  test("--finished marks the imported questions finished", async () => {
    const out = join(dir, "bench.jsonld");
    expect((await runKarenina("import", csv, ...MAPPING, "--finished", "-o", out)).code).toBe(EXIT.ok);
    const bench = await Benchmark.load(out);
    expect(bench.name).toBe("questions");
    expect(bench.finishedCount).toBe(2);
  });

  test("--into adds to an existing checkpoint, skipping questions already in it and repeats in the file", async () => {
    const existing = join(dir, "existing.jsonld");
    const bench = Benchmark.create({ name: "existing" });
    const kept = bench.addQuestion("How many chromosomes are in a human somatic cell?", "forty-six");
    await bench.save(existing);
    await writeFile(
      csv,
      `${CSV}What is the putative target of venetoclax?,BCL-2,,,\nWhat is the capital of France?,Paris,,,\n`,
    );

    const run = await runKarenina("import", csv, "-q", "Question", "-a", "Answer", "--into", existing);
    expect(run.code).toBe(EXIT.ok);
    expect(run.out).toContain(`Imported 2 questions from ${csv} into ${existing}`);
    expect(run.out).toContain("skipped 1 already in the checkpoint");
    expect(run.out).toContain("skipped 1 repeated in the file");

    const reloaded = await Benchmark.load(existing);
    expect(reloaded.name).toBe("existing");
    expect(reloaded.getQuestion(kept).raw_answer).toBe("forty-six");
    expect(reloaded.getAllQuestions().map((q) => [q.question, q.raw_answer])).toEqual([
      ["How many chromosomes are in a human somatic cell?", "forty-six"],
      ["What is the putative target of venetoclax?", "BCL2"],
      ["What is the capital of France?", "Paris"],
    ]);
    expect(reloaded.has("cb0b4aaf80c43c9973aefeda1bd72890")).toBe(true);

    const again = await runKarenina("import", csv, "-q", "Question", "-a", "Answer", "--into", existing);
    expect(again.out).toContain(`Imported no question from ${csv}: ${existing} is unchanged`);
    expect(again.out).toContain("skipped 4 already in the checkpoint");
  });

  test("--output refuses to replace an existing checkpoint", async () => {
    const out = join(dir, "bench.jsonld");
    await writeFile(out, "keep me", "utf8");
    const run = await runKarenina("import", csv, ...MAPPING, "-o", out);
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toContain(`${out} already exists; add to it with --into`);
    expect(await readFile(out, "utf8")).toBe("keep me");
  });

  test("a missing column is an error suggesting the closest header, and nothing is written", async () => {
    const run = await runKarenina(
      "import",
      csv,
      "-q",
      "question",
      "-a",
      "Answer",
      "-o",
      join(dir, "bench.jsonld"),
    );
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toContain('missing required column "question" (question; did you mean "Question"?)');
    expect(run.err).toContain('the file has columns "Question", "Answer", "Tags", "Author", "Difficulty"');
    expect(await readdir(dir)).toEqual(["questions.csv"]);
  });

  test("an absent optional column is a warning, not an error", async () => {
    const out = join(dir, "bench.jsonld");
    const run = await runKarenina(
      "import",
      csv,
      "-q",
      "Question",
      "-a",
      "Answer",
      "--notes-column",
      "Note",
      "-o",
      out,
    );
    expect(run.code).toBe(EXIT.ok);
    expect(run.err).toBe(`warning: ${csv}: no answer notes column "Note"; ignored\n`);
  });

  test("a file without any question exits 1 and writes nothing", async () => {
    await writeFile(csv, "Question,Answer\n,\nQ?,\n", "utf8");
    const run = await runKarenina(
      "import",
      csv,
      "-q",
      "Question",
      "-a",
      "Answer",
      "-o",
      join(dir, "bench.jsonld"),
    );
    expect(run.code).toBe(EXIT.checkFailed);
    expect(run.err).toContain("no questions in");
    expect(await readdir(dir)).toEqual(["questions.csv"]);
  });

  test("usage errors: no column options, no destination, both destinations", async () => {
    const noColumns = await runKarenina("import", csv, "-o", join(dir, "b.jsonld"));
    expect(noColumns.err).toContain("import needs --question-column and --answer-column");
    const nowhere = await runKarenina("import", csv, "-q", "Question", "-a", "Answer");
    expect(nowhere.err).toContain("--output NEW.jsonld or --into EXISTING.jsonld");
    const both = await runKarenina(
      "import",
      csv,
      "-q",
      "Question",
      "-a",
      "Answer",
      "-o",
      "a.jsonld",
      "--into",
      "b.jsonld",
    );
    expect(both.err).toContain("not both");
    expect([noColumns.code, nowhere.code, both.code]).toEqual([EXIT.usage, EXIT.usage, EXIT.usage]);
  });
});

describe("karenina import --preview", () => {
  test("prints the columns and first rows, and with -q/-a what would be imported, writing nothing", async () => {
    const plain = await runKarenina("import", csv, "--preview");
    expect(plain.code).toBe(EXIT.ok);
    expect(plain.out).toContain('columns: "Question", "Answer", "Tags", "Author", "Difficulty"');
    expect(plain.out).toContain("rows: 3");
    expect(plain.out).toContain("  Question: What is the putative target of venetoclax?\n  Answer: BCL2\n");

    const mapped = await runKarenina("import", csv, "--preview", ...MAPPING, "-o", join(dir, "bench.jsonld"));
    expect(mapped.out).toContain(
      "would import 2 questions; dropped 1 row with an empty question or answer (row 4)",
    );
    expect(await readdir(dir)).toEqual(["questions.csv"]);
  });

  test("names the sheet shown and lists the workbook's sheets", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Drafts").addRow(["Q", "A"]);
    const final = book.addWorksheet("Final");
    final.addRow(["Question", "Answer"]);
    final.addRow(["What is 2+2?", 4]);
    const xlsx = join(dir, "questions.xlsx");
    await book.xlsx.writeFile(xlsx);
    const run = await runKarenina("import", xlsx, "--preview", "--sheet", "Final");
    expect(run.out).toContain('sheet: "Final" (sheets: "Drafts", "Final")');
    expect(run.out).toContain("  Answer: 4\n");
    const missing = await runKarenina("import", xlsx, "--preview", "--sheet", "Last");
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain('no sheet named "Last" (sheets: "Drafts", "Final")');
  });
});
