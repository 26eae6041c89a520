import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { runKarenina } from "../test-support/cli.js";
import { BUNDLED_EXAMPLE, EXIT } from "./cli-io.js";
import { QuestionSelectorError, type SelectableQuestion, selectQuestion } from "./question-selector.js";

const QUESTIONS: SelectableQuestion[] = [
  { id: "q-venetoclax", text: "What is the putative target of venetoclax?" },
  { id: "q-aspirin", text: "Which enzyme does aspirin irreversibly inhibit?" },
  { id: "q-metformin", text: "What is the  mechanism of action of metformin?" },
  { id: "1", text: "A question whose id looks like an index" },
  { id: "q-short", text: "What is X?" },
  { id: "q-long", text: "What is X? Explain." },
];

const select = (selector: string) => selectQuestion(QUESTIONS, selector, "bench.jsonld");

function selectorError(selector: string): QuestionSelectorError {
  try {
    select(selector);
  } catch (error) {
    if (error instanceof QuestionSelectorError) return error;
    throw error;
  }
  throw new Error(`${selector} selected a question`);
}

describe("selectQuestion", () => {
  test("an exact id wins, even over an index of the same digits", () => {
    expect(select("q-aspirin")).toBe(1);
    expect(select("1")).toBe(3);
  });

  test("a 0-based index names the question at that place", () => {
    expect(select("0")).toBe(0);
    expect(select("5")).toBe(5);
  });

  test("the start of the text names the one question that starts so, whatever the case and spacing", () => {
    expect(select("which enzyme")).toBe(1);
    expect(select("WHAT IS THE mechanism   of")).toBe(2);
  });

  test("a question's whole text names it even when another question's text starts with it", () => {
    expect(select("what is x?")).toBe(4);
  });

  test("a start shared by several questions is an error listing each of them with its index and id", () => {
    const error = selectorError("What is");
    expect(error.candidates).toEqual([0, 2, 4, 5]);
    expect(error.message).toContain(`bench.jsonld: "What is" is the start of 4 questions' text`);
    expect(error.message).toContain("  0  q-venetoclax  What is the putative target of venetoclax?");
    expect(error.message).toContain("  5  q-long  What is X? Explain.");
    expect(error.message).not.toContain("q-aspirin");
  });

  test("a selector naming nothing is an error listing the questions; an index past the end is not taken", () => {
    for (const selector of ["nope", "6", ""]) {
      const error = selectorError(selector);
      expect(error.candidates).toHaveLength(QUESTIONS.length);
    }
    expect(selectorError("6").message).toContain(
      `bench.jsonld: no question matches "6" by id, index (indexes 0 to 5) or the start of its text; its questions:`,
    );
  });

  test("control characters of a hostile selector or question are shown escaped, not sent to the terminal", () => {
    const hostile = [{ id: "q\u001b[2J", text: "Which\u001b]0;owned\u0007 drug?" }];
    const error = (() => {
      try {
        selectQuestion([...hostile, ...hostile], "which", "x");
      } catch (caught) {
        return caught as Error;
      }
      throw new Error("no error");
    })();
    expect(error.message).not.toContain("\u001b");
    expect(error.message).not.toContain("\u0007");
    expect(error.message).toContain("q\\x1b[2J");
  });
});

describe("-q / --question through the CLI", () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-cli-selector-"));
    file = join(dir, "bench.jsonld");
    await (await Benchmark.load(BUNDLED_EXAMPLE)).save(file);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("checkpoint inspect shows each question's 0-based # and its whole id", async () => {
    const bench = await Benchmark.load(file);
    const { code, out } = await runKarenina("checkpoint", "inspect", file);
    expect(code).toBe(EXIT.ok);
    const lines = out.split("\n");
    bench.getQuestionIds().forEach((id, index) => {
      const row = lines.findIndex((line) => line.trimStart().startsWith(`${index}  yes`));
      expect(row, `row of question #${index}`).toBeGreaterThan(0);
      expect(lines[row]).toContain(bench.getQuestion(id).question);
      expect(lines[row + 1]?.trim()).toBe(id);
    });
    expect(out).toContain("-q/--question (verify, template check, rubric check) takes a question's #");
  });

  test("inspect shows a hostile checkpoint's escape sequences escaped, not sent to the terminal", async () => {
    const hostile = Benchmark.create({ name: "hostile" });
    hostile.addQuestion("Which drug?\u001b]0;owned\u0007\u001b[2J", "venetoclax", {
      questionId: "q\u001b[31m",
    });
    const path = join(dir, "hostile.jsonld");
    await hostile.save(path);
    const { code, out } = await runKarenina("checkpoint", "inspect", path);
    expect(code).toBe(EXIT.ok);
    for (const control of ["\u001b", "\u0007"]) expect(out).not.toContain(control);
    expect(out).toContain("Which drug?\\x1b]0;owned\\x07\\x1b[2J");
    expect(out).toContain("q\\x1b[31m");
  });

  test("template check takes the # of inspect, the id or the start of the text, with the same verdict", async () => {
    const id = (await Benchmark.load(file)).getQuestionIds()[0] as string;
    const check = (selector: string) =>
      runKarenina("template", "check", file, "-q", selector, "--answer", '{"target": "BCL2"}', "--json");
    const byId = await check(id);
    expect(byId.code).toBe(EXIT.ok);
    for (const selector of ["0", "what is the PUTATIVE target"]) {
      const other = await check(selector);
      expect(other.code, selector).toBe(EXIT.ok);
      expect(other.out).toBe(byId.out);
    }
  });

  test("rubric check takes the start of the text", async () => {
    const { code, out } = await runKarenina(
      "rubric",
      "check",
      file,
      "-q",
      "Which enzyme",
      "--response",
      "Aspirin inhibits COX.",
    );
    expect(code).toBe(EXIT.ok);
    expect(out).toContain(
      "question urn:uuid:question-which-enzyme-does-aspirin-irreversibly-inhibit-616603af",
    );
  });

  test("verify --dry-run plans exactly the questions named by index and by text", async () => {
    const plan = async (...selectors: string[]) => {
      const { code, out, err } = await runKarenina(
        "verify",
        file,
        ...selectors.flatMap((selector) => ["-q", selector]),
        "-a",
        "openai_endpoint:answerer@http://127.0.0.1:9/v1",
        "-p",
        "openai_endpoint:judge@http://127.0.0.1:9/v1",
        "--dry-run",
        "--json",
      );
      expect(code, err).toBe(EXIT.ok);
      return JSON.parse(out) as { tasks: number };
    };
    expect((await plan("1", "Is imatinib")).tasks).toBe(2);
    expect((await plan("1", "which enzyme does")).tasks).toBe(1);
  });

  test("an ambiguous or unknown selector is a usage error (exit 2) listing the candidates", async () => {
    const ambiguous = await runKarenina("template", "check", file, "-q", "What is", "--answer", "{}");
    expect(ambiguous.code).toBe(EXIT.usage);
    expect(ambiguous.err).toContain(`"What is" is the start of 2 questions' text`);
    expect(ambiguous.err).toContain(
      "  0  urn:uuid:question-what-is-the-putative-target-of-venetoclax-1be9d9af  What is the putative target of venetoclax?",
    );
    const unknown = await runKarenina(
      "verify",
      file,
      "-q",
      "7",
      "-a",
      "openai_endpoint:answerer@http://127.0.0.1:9/v1",
      "-p",
      "openai_endpoint:judge@http://127.0.0.1:9/v1",
      "--dry-run",
    );
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.err).toContain(`no question matches "7" by id, index (indexes 0 to 4)`);
    expect(unknown.err).toContain(
      "  4  urn:uuid:question-what-is-the-mechanism-of-action-of-metformin-d0698329",
    );
  });
});
