/**
 * AnswerBuilder (spec 06 §7): the compiled template loads in our loader and gives the verdicts its attributes
 * and regex checks call for. Parsed answers and raw responses are written for these tests.
 */
import { afterAll, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { loadTemplate } from "../../templates/index.js";
import { AnswerBuilder, AnswerBuilderError } from "./index.js";

const bench = Benchmark.create({ name: "builder" });
afterAll(() => bench.close());

const load = (code: string) => loadTemplate(code, "Python", { pythonSandbox: bench.pythonSandbox });

describe("attributes only", () => {
  const template = new AnswerBuilder()
    .addAttribute("mentions_drug", "bool", "Whether the response names the drug", true)
    .addAttribute("target", "str", "The protein the drug targets", "BCL2")
    .addAttribute("dose_mg", "int", "Daily dose in mg", 400)
    .addAttribute("half_life", "float", "Half-life in hours", 26)
    .addAttribute("phase", "Literal['I', 'II', 'III']", "Trial phase", "III")
    .addAttribute("genes", "List[str]", "Genes named", ["BCL2", "MCL1"])
    .compile();

  test("compiles to VerifiedField Python that runs natively, with the generator's primitives", async () => {
    expect(template.language).toBe("Python");
    expect(template.code).toContain("verify_with=ExactMatch(normalize=['lowercase', 'strip'])");
    expect(template.code).toContain("ground_truth=26.0");
    expect(template.code).toContain("phase: Literal['I', 'II', 'III'] = VerifiedField(");
    const loaded = await load(template.code);
    expect(loaded.runtime).toBe("declarative");
    expect(loaded.groundTruth).toMatchObject({ target: "BCL2", dose_mg: 400, genes: ["BCL2", "MCL1"] });
  });

  test("right, wrong and edge answers", async () => {
    const loaded = await load(template.code);
    const right = {
      mentions_drug: true,
      target: " bcl2 ",
      dose_mg: 400,
      half_life: 26.02,
      phase: "III",
      genes: ["MCL1", "BCL2"],
    };
    expect((await loaded.evaluate(right)).verify).toBe(true);
    expect((await loaded.evaluate({ ...right, half_life: 26.1 })).verify).toBe(false); // beyond 0.1 % relative
    expect((await loaded.evaluate({ ...right, target: "BCL-XL" })).verify).toBe(false);
    expect((await loaded.evaluate({ ...right, genes: ["BCL2"] })).verify).toBe(false);
  });
});

describe("regex checks", () => {
  test("fields and regex checks must both pass", async () => {
    const template = new AnswerBuilder()
      .addAttribute("target", "str", "The protein the drug targets", "BCL2")
      .addRegex("citations", String.raw`\[\d+\]`, { expected: 2, matchType: "count" })
      .compile();
    expect(template.code).toContain(
      "self.regex = {'citations': {'pattern': '\\\\[\\\\d+\\\\]', 'expected': 2, 'match_type': 'count'}}",
    );
    const loaded = await load(template.code);
    const cited = await loaded.evaluate({ target: "BCL2" }, { rawResponse: "BCL2 [1], as in [2]." });
    expect(cited.verify).toBe(true);
    expect(cited.regex.details.citations?.match_count).toBe(2);
    const uncited = await loaded.evaluate({ target: "BCL2" }, { rawResponse: "BCL2 [1]." });
    expect([uncited.fieldVerify, uncited.verify]).toEqual([true, false]);
  });

  test("a template of regex checks only needs no judge", async () => {
    const template = new AnswerBuilder()
      .addRegex("trial", String.raw`NCT\d{8}`, { expected: "NCT01234567" })
      .addRegex("genes", "BCL2|MCL1", { expected: ["BCL2", "MCL1"], matchType: "all" })
      .compile("TrialAnswer");
    const loaded = await load(template.code);
    expect(loaded.className).toBe("TrialAnswer");
    expect(loaded.needsNoJudge).toBe(true);
    const pass = await loaded.evaluate({}, { rawResponse: "NCT01234567 studies BCL2 and MCL1" });
    expect(pass.verify).toBe(true);
    const fail = await loaded.evaluate({}, { rawResponse: "NCT01234567 and NCT07654321 study BCL2" });
    expect(fail.regex.results).toEqual({ trial: false, genes: false });
  });

  test("the compiled template is accepted wherever a template is", async () => {
    const template = new AnswerBuilder().addAttribute("target", "str", "Target", "BCL2").compile();
    const id = bench.addQuestion("What does venetoclax target?", "BCL2", { answerTemplate: template });
    expect(bench.hasTemplate(id)).toBe(true);
    await bench.addAnswerTemplate(id, template);
    expect(bench.getTemplate(id)).toBe(template.code);
  });
});

describe("refused input", () => {
  test.each([
    [
      "a name that is not an identifier",
      (b: AnswerBuilder) => b.addAttribute("2x", "int", "d", 1),
      "Invalid attribute name '2x'",
    ],
    [
      "a taken name",
      (b: AnswerBuilder) => b.addAttribute("x", "int", "d", 1).addRegex("x", "a", { expected: "a" }),
      "already used",
    ],
    [
      "a Dict type",
      (b: AnswerBuilder) => b.addAttribute("x", "Dict[str, str]", "d", {}),
      "Dict types are not allowed",
    ],
    [
      "a ground truth of the wrong type",
      (b: AnswerBuilder) => b.addAttribute("x", "int", "d", "4"),
      "must be an integer",
    ],
    [
      "an invalid pattern",
      (b: AnswerBuilder) => b.addRegex("x", "(unclosed", { expected: "a" }),
      "Invalid regex pattern",
    ],
    [
      "an unknown match type",
      (b: AnswerBuilder) => b.addRegex("x", "a", { expected: "a", matchType: "some" as never }),
      "Invalid match_type 'some'",
    ],
    [
      "a count that is not an integer",
      (b: AnswerBuilder) => b.addRegex("x", "a", { expected: "2", matchType: "count" }),
      "an integer",
    ],
    ["an empty builder", (b: AnswerBuilder) => b.compile(), "Cannot compile empty AnswerBuilder"],
    ["removing what is not there", (b: AnswerBuilder) => b.removeAttribute("x"), "Attribute 'x' not found"],
  ])("%s", (_, act, message) => {
    const builder = new AnswerBuilder();
    expect(() => act(builder)).toThrow(AnswerBuilderError);
    expect(() => act(new AnswerBuilder())).toThrow(message);
  });

  test("removed attributes and checks are not compiled", () => {
    const code = new AnswerBuilder()
      .addAttribute("a", "int", "A", 1)
      .addAttribute("b", "int", "B", 2)
      .addRegex("r", "x", { expected: "x" })
      .removeAttribute("a")
      .removeRegex("r")
      .compile().code;
    expect(code).not.toContain("a: int");
    expect(code).toContain("b: int");
    expect(code).not.toContain("self.regex");
  });
});
