/**
 * Loading and validation of Python templates (spec 02 §1, §2.2, §8): the original's messages, class discovery,
 * the dummy-instance ground truth, and the two relaxations this port chooses. Templates are written for the tests.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { TemplateError } from "../answer-template.js";
import { type LoadPythonTemplateOptions, loadPythonTemplate } from "./index.js";

let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = PythonSandbox.create();
  await sandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

const load = (code: string, options: LoadPythonTemplateOptions = {}) =>
  loadPythonTemplate(code, { sandbox, ...options });

/** The message of the TemplateError a load fails with. */
async function invalid(code: string, options?: LoadPythonTemplateOptions): Promise<string> {
  const error = await load(code, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TemplateError);
  return (error as TemplateError).message;
}

const lines = (...text: string[]) => text.join("\n");

const VERIFY = "    def verify(self):\n        return True";

describe("the original's validation messages (spec 02 §8)", () => {
  test("a syntax error is reported as Python words it, for code compiled as <string>", async () => {
    expect(await invalid("class Answer(BaseAnswer)\n    x: int")).toBe(
      "Error executing template code: expected ':' (<string>, line 1)",
    );
  });

  test("an exception while executing the code", async () => {
    expect(await invalid("limit = undefined_name + 1")).toBe(
      "Error executing template code: name 'undefined_name' is not defined",
    );
  });

  test("no class deriving from BaseAnswer", async () => {
    expect(await invalid("class Answer:\n    pass")).toBe(
      "No BaseAnswer subclass found in template namespace",
    );
  });

  test("two leaf classes, neither named Answer", async () => {
    const code = lines("class A(BaseAnswer):", VERIFY, "class B(BaseAnswer):", VERIFY);
    expect(await invalid(code)).toBe(
      "Multiple BaseAnswer subclasses found at leaf level: ['A', 'B']. Templates must contain exactly one leaf BaseAnswer subclass.",
    );
  });

  test("a field named `correct` is refused when the class is created", async () => {
    const code = lines("class Answer(BaseAnswer):", "    correct: str = Field(description='x')", VERIFY);
    expect(await invalid(code)).toMatch(
      /^Error executing template code: Field name\(s\) \{'correct'\} reserved by BaseAnswer for internal use\./,
    );
  });

  test("fields but no verify(), or a verify that cannot be called", async () => {
    expect(await invalid(lines("class Answer(BaseAnswer):", "    x: str = Field(description='x')"))).toBe(
      "does not have a 'verify' method",
    );
    expect(await invalid(lines("class Answer(BaseAnswer):", "    x: str", "    verify = True"))).toBe(
      "verify must be a callable method",
    );
  });

  test("a ground truth that is not a dict", async () => {
    const code = lines(
      "class Answer(BaseAnswer):",
      "    x: str = Field(description='x')",
      "    def ground_truth(self):",
      "        self.correct = ['BCL2']",
      VERIFY,
    );
    expect(await invalid(code)).toBe(
      "ground_truth/model_post_init must assign 'self.correct' as a dictionary",
    );
  });

  test("a ground truth method that raises", async () => {
    const code = lines(
      "class Answer(BaseAnswer):",
      "    x: str = Field(description='x')",
      "    def model_post_init(self, __context):",
      "        self.correct = {'x': {}['missing']}",
      VERIFY,
    );
    expect(await invalid(code)).toBe("Error testing ground_truth/model_post_init: 'missing'");
  });

  test("a dummy value the class refuses: '' for `int | None`, 0 for `Field(ge=1)`", async () => {
    const optional = lines(
      "class Answer(BaseAnswer):",
      "    page: int | None = Field(default=None, description='Page')",
      "    def ground_truth(self):",
      "        self.correct = {'page': 42}",
      VERIFY,
    );
    expect(await invalid(optional)).toBe(
      lines(
        "Error testing ground_truth/model_post_init: 1 validation error for Answer",
        "page",
        "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='', input_type=str]",
      ),
    );
    const constrained = optional.replace("page: int | None = Field(default=None,", "page: int = Field(ge=1,");
    expect(await invalid(constrained)).toMatch(
      /Input should be greater than or equal to 1 \[type=greater_than_equal/,
    );
  });

  test("with lenientDummyCheck, a refused dummy is not an error and the ground truth is still read", async () => {
    const code = lines(
      "class Answer(BaseAnswer):",
      "    page: Optional[int] = Field(default=None, description='Page')",
      "    def ground_truth(self):",
      "        self.correct = {'page': 42}",
      "    def verify(self):",
      "        return self.page == self.correct['page']",
    );
    const template = await load(code, { lenientDummyCheck: true });
    expect(template.groundTruth).toEqual({ page: 42 });
    // Hand-written parsed answer.
    expect((await template.evaluate({ page: "42" })).verify).toBe(true);
  });

  test("without a ground truth method, the dummy instance is not checked", async () => {
    const code = lines(
      "class Answer(BaseAnswer):",
      "    page: int | None = Field(default=None, description='Page')",
      VERIFY,
    );
    expect((await load(code)).groundTruth).toBeNull();
  });
});

describe("class discovery and ground-truth hooks", () => {
  test("the class keeps its own name; an intermediate base class is fine", async () => {
    const code = lines(
      "class Base(BaseAnswer):",
      "    target: str = Field(description='Target')",
      "    def ground_truth(self):",
      "        self.correct = {'target': 'BCL2'}",
      "class VenetoclaxAnswer(Base):",
      "    def verify(self):",
      "        return self.target == self.correct['target']",
    );
    const template = await load(code);
    expect(template.className).toBe("VenetoclaxAnswer");
    expect(template.judgeSchema.title).toBe("VenetoclaxAnswer");
    expect(template.structuredOutputSchema.title).toBe("VenetoclaxAnswer__Relaxed");
    expect(template.groundTruth).toEqual({ target: "BCL2" });
  });

  test("quirk: a ground truth method beside a required field inherited from a base class is invalid", async () => {
    const code = lines(
      "class Base(BaseAnswer):",
      "    target: str = Field(description='Target')",
      "class Answer(Base):",
      "    def ground_truth(self):",
      "        self.correct = {'target': 'BCL2'}",
      VERIFY,
    );
    expect(await invalid(code)).toBe(
      lines(
        "Error testing ground_truth/model_post_init: 1 validation error for Answer",
        "target",
        "  Field required [type=missing, input_value={}, input_type=dict]",
      ),
    );
  });

  test("relaxation: among several leaf classes, the one named Answer is the answer class", async () => {
    const code = lines("class Helper(BaseAnswer):", VERIFY, "class Answer(BaseAnswer):", VERIFY);
    expect((await load(code)).className).toBe("Answer");
  });

  test("relaxation: a helper model defined at the top level, even after the class, serves as a field's type", async () => {
    const code = lines(
      "from pydantic import BaseModel",
      "class Answer(BaseAnswer):",
      "    target: str = Field(description='Target')",
      "    dose: Dose = Field(description='Dose')",
      "    def ground_truth(self):",
      "        self.correct = {'target': 'BCL2'}",
      "    def verify(self):",
      "        import re",
      "        return re.fullmatch(r'bcl-?2', self.target, re.I) is not None and self.dose.mg == 400",
      "class Dose(BaseModel):",
      "    mg: int",
    );
    const template = await load(code, { lenientDummyCheck: true });
    expect(template.judgeSchema.$defs).toEqual({
      Dose: {
        properties: { mg: { title: "Mg", type: "integer" } },
        required: ["mg"],
        title: "Dose",
        type: "object",
      },
    });
    expect((template.judgeSchema.properties as Record<string, unknown>).dose).toEqual({
      $ref: "#/$defs/Dose",
      description: "Dose",
    });
    // Hand-written parsed answers.
    expect((await template.evaluate({ target: "Bcl-2", dose: { mg: "400" } })).verify).toBe(true);
    expect((await template.evaluate({ target: "Bcl-2", dose: { mg: 300 } })).verify).toBe(false);
  });

  test("as in the original, a top-level import is not visible in verify(): NameError at verification", async () => {
    const code = lines(
      "import re",
      "class Answer(BaseAnswer):",
      "    target: str = Field(description='Target')",
      "    def verify(self):",
      "        return re.fullmatch(r'bcl-?2', self.target, re.I) is not None",
    );
    // Hand-written parsed answer: right, yet the verdict is false, as the original's.
    expect(await (await load(code)).evaluate({ target: "BCL2" })).toMatchObject({
      verify: false,
      verifyGranular: null,
      error: "Field verification failed: name 're' is not defined",
    });
  });

  test("as in the original, top-level constants are not visible in ground_truth() or the class body", async () => {
    const inMethod = lines(
      "EXPECTED = 'BCL2'",
      "class Answer(BaseAnswer):",
      "    target: str = Field(description='Target')",
      "    def ground_truth(self):",
      "        self.correct = {'target': EXPECTED}",
      VERIFY,
    );
    expect(await invalid(inMethod)).toBe(
      "Error testing ground_truth/model_post_init: name 'EXPECTED' is not defined",
    );
    const inBody = lines(
      "EXPECTED = 'BCL2'",
      "class Answer(BaseAnswer):",
      "    target: str = Field(default=EXPECTED, description='Target')",
      VERIFY,
    );
    expect(await invalid(inBody)).toBe("Error executing template code: name 'EXPECTED' is not defined");
  });

  test("with both ground_truth() and model_post_init() in the class, only model_post_init() runs", async () => {
    const code = lines(
      "class Answer(BaseAnswer):",
      "    x: str = Field(description='x')",
      "    def ground_truth(self):",
      "        self.correct = {'from': 'ground_truth'}",
      "    def model_post_init(self, __context):",
      "        self.correct = {'from': 'model_post_init'}",
      VERIFY,
    );
    expect((await load(code)).groundTruth).toEqual({ from: "model_post_init" });
  });

  test("a subclass's ground_truth() wins over its parent's", async () => {
    const code = lines(
      "class Base(BaseAnswer):",
      "    x: str = Field(default='', description='x')",
      "    def ground_truth(self):",
      "        self.correct = {'x': 'parent'}",
      VERIFY,
      "class Answer(Base):",
      "    def ground_truth(self):",
      "        self.correct = {'x': 'child'}",
    );
    expect((await load(code)).groundTruth).toEqual({ x: "child" });
  });

  test("dummy values follow the bare annotation: lists get [], Literals their first value, the rest ''", async () => {
    const code = lines(
      "from typing import List",
      "class Answer(BaseAnswer):",
      "    a: int = Field(description='a')",
      "    b: float = Field(description='b')",
      "    c: bool = Field(description='c')",
      "    d: List[str] = Field(description='d')",
      "    e: Literal['x', 'y'] = Field(description='e')",
      "    f: str = Field(default='kept?', description='f')",
      "    def ground_truth(self):",
      "        self.correct = {k: getattr(self, k) for k in 'abcdef'}",
      VERIFY,
    );
    expect((await load(code)).groundTruth).toEqual({ a: 0, b: 0, c: false, d: [], e: "x", f: "" });
  });

  test("import styles of the original all work, and no import is needed at all", async () => {
    const styles = [
      "from karenina.schemas.entities import BaseAnswer\nfrom pydantic import Field",
      "from karenina.schemas import BaseAnswer",
      "import karenina.schemas.entities as entities\nBaseAnswer = entities.BaseAnswer",
      "from __future__ import annotations",
      "",
    ];
    for (const header of styles) {
      const code = lines(
        header,
        "class Answer(BaseAnswer):",
        "    x: List[int] = Field(description='x')",
        VERIFY,
      );
      const template = await load(code);
      expect((template.judgeSchema.properties as Record<string, unknown>).x).toEqual({
        description: "x",
        items: { type: "integer" },
        title: "X",
        type: "array",
      });
    }
  });

  test("a field type the layer cannot describe is refused when the class is created", async () => {
    const code = lines("class Thing:", "    pass", "class Answer(BaseAnswer):", "    x: Thing", VERIFY);
    expect(await invalid(code)).toMatch(
      /^Error executing template code: Unable to generate pydantic-core schema for <class '__template__.Thing'>/,
    );
  });

  test("VerifiedField needs a description and a primitive", async () => {
    const field = (args: string) => lines("class Answer(BaseAnswer):", `    x: str = VerifiedField(${args})`);
    expect(await invalid(field("description=' ', ground_truth='a', verify_with=ExactMatch()"))).toMatch(
      /^Error executing template code: description is required for VerifiedField/,
    );
    expect(await invalid(field("description='x', ground_truth='a'"))).toMatch(
      /^Error executing template code: verify_with is required for VerifiedField/,
    );
    expect(await invalid(field("ground_truth='a', verify_with=ExactMatch()"))).toMatch(
      /^Error executing template code: VerifiedField\(\) missing 1 required positional argument: 'description'/,
    );
  });
});

describe("schema shapes", () => {
  test("annotations map to Pydantic's schemas, keys sorted, fields in declaration order", async () => {
    const code = lines(
      "import datetime",
      "class Answer(BaseAnswer):",
      "    gene_symbol: str = Field(description='Gene', min_length=2, max_length=10)",
      "    geneID: Optional[int] = None",
      "    x2y_z: float = Field(default=1.5, gt=0, lt=10)",
      "    kind: Literal['a', 'b']",
      "    level: Literal[1, 2] = 1",
      "    only: Literal['x'] = 'x'",
      "    scores: dict[str, int] = Field(default_factory=dict)",
      "    anything: Dict[str, Any] = {}",
      "    either: Union[int, str] = 0",
      "    tags: list[str] | None = None",
      "    when: datetime.date = Field(description='Date', json_schema_extra={'examples': ['2020-01-01']})",
      VERIFY,
    );
    const template = await load(code);
    expect(template.judgeSchema).toEqual({
      additionalProperties: true,
      properties: {
        id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
        gene_symbol: {
          description: "Gene",
          maxLength: 10,
          minLength: 2,
          title: "Gene Symbol",
          type: "string",
        },
        geneID: { anyOf: [{ type: "integer" }, { type: "null" }], default: null, title: "Geneid" },
        x2y_z: { default: 1.5, exclusiveMaximum: 10, exclusiveMinimum: 0, title: "X2Y Z", type: "number" },
        kind: { enum: ["a", "b"], title: "Kind", type: "string" },
        level: { default: 1, enum: [1, 2], title: "Level", type: "integer" },
        only: { const: "x", default: "x", title: "Only", type: "string" },
        scores: { additionalProperties: { type: "integer" }, title: "Scores", type: "object" },
        anything: { additionalProperties: true, default: {}, title: "Anything", type: "object" },
        either: { anyOf: [{ type: "integer" }, { type: "string" }], default: 0, title: "Either" },
        tags: {
          anyOf: [{ items: { type: "string" }, type: "array" }, { type: "null" }],
          default: null,
          title: "Tags",
        },
        when: {
          description: "Date",
          examples: ["2020-01-01"],
          format: "date",
          title: "When",
          type: "string",
        },
      },
      required: ["gene_symbol", "kind", "when"],
      title: "Answer",
      type: "object",
    });
  });

  test("a datetime.date field takes ISO dates and refuses other text", async () => {
    const code = lines(
      "import datetime",
      "class Answer(BaseAnswer):",
      "    day: datetime.date = Field(description='Day')",
      "    def verify(self):",
      "        import datetime",
      "        return self.day == datetime.date(2020, 3, 5)",
    );
    const template = await load(code);
    // Hand-written parsed answers.
    expect((await template.evaluate({ day: "2020-03-05" })).verify).toBe(true);
    expect((await template.evaluate({ day: "March 5, 2020" })).error).toBe(
      "Parsed answer does not match the template: day: Input should be a valid date in the format YYYY-MM-DD (got 'March 5, 2020')",
    );
  });

  test("lax coercion: the table of spec 02 §2.1", async () => {
    const code = lines(
      "class Answer(BaseAnswer):",
      "    n: int = 0",
      "    f: float = 0.0",
      "    b: bool = False",
      "    l: list[int] = []",
      "    k: Literal['x', 'y'] = 'x'",
      "    def verify(self):",
      "        return [self.n, self.f, self.b, self.l, self.k] == self.expected",
    );
    const template = await load(code);
    // Hand-written parsed answers, with the values the class should hold after coercion under `expected`.
    const accepted: [Record<string, unknown>, unknown[]][] = [
      [{ n: "3", f: "2.5", b: "YES", l: ["1", 2.0] }, [3, 2.5, true, [1, 2], "x"]],
      [{ n: 3.0, f: 2, b: 1, k: "y" }, [3, 2, true, [], "y"]],
      [{ n: true, f: "1e3", b: "off" }, [1, 1000, false, [], "x"]],
      [{ n: " 7 ", f: " -0.5 ", b: "f" }, [7, -0.5, false, [], "x"]],
    ];
    for (const [parsed, expected] of accepted) {
      expect(await template.evaluate({ ...parsed, expected })).toMatchObject({ verify: true, error: null });
    }
    const refused: [Record<string, unknown>, string][] = [
      [{ n: 3.5 }, "n: Input should be a valid integer, got a number with a fractional part (got 3.5)"],
      [
        { n: "three" },
        "n: Input should be a valid integer, unable to parse string as an integer (got 'three')",
      ],
      [{ f: "1,5" }, "f: Input should be a valid number, unable to parse string as a number (got '1,5')"],
      [{ b: 2 }, "b: Input should be a valid boolean, unable to interpret input (got 2)"],
      [{ b: "maybe" }, "b: Input should be a valid boolean, unable to interpret input (got 'maybe')"],
      [{ l: 1 }, "l: Input should be a valid list (got 1)"],
      [{ l: ["a"] }, "l.0: Input should be a valid integer, unable to parse string as an integer (got 'a')"],
      [{ k: "X" }, "k: Input should be 'x' or 'y' (got 'X')"],
    ];
    for (const [parsed, message] of refused) {
      expect((await template.evaluate(parsed)).error).toBe(
        `Parsed answer does not match the template: ${message}`,
      );
    }
  });
});
