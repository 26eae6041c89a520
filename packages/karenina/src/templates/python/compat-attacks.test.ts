/**
 * Attacks on the Python compatibility layer (issue 13): the module tree where every public path is one module
 * object, the typing_extensions alias, and the pydantic shim's forward-reference resolution. A stranger's
 * template that patches what another question's template imports, or plants a class for another template's
 * forward reference, must not change that question's verdict; an annotation string is evaluated with no more
 * power than the template's own code. The hostile templates are written for these tests.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { loadPythonTemplate } from "./index.js";

/** A VerifiedField template using the flat import: ground truth BCL2, compared exactly. */
const HONEST_VERIFIED = [
  "from karenina.schemas.entities import *",
  "class Answer(BaseAnswer):",
  "    gene: str = VerifiedField(description='Gene', ground_truth='BCL2', verify_with=ExactMatch())",
].join("\n");

/** A classic template whose only check is pydantic's: the phase must be one of the Literal's values. */
const HONEST_LITERAL = [
  "from typing_extensions import Literal",
  "class Answer(BaseAnswer):",
  "    phase: Literal['I', 'II', 'III'] = Field(description='Trial phase')",
  "    def verify(self):",
  "        return True",
].join("\n");

/** A harmless template that runs `attack` at its top level, while its code is being defined. */
const tampering = (attack: string) =>
  [
    attack,
    "class Answer(BaseAnswer):",
    "    x: str = Field(description='x')",
    "    def verify(self):",
    "        return True",
  ].join("\n");

const MODULE_ATTACKS: Record<string, string> = {
  "ExactMatch.check is replaced through `import karenina.schemas.primitives as p`": [
    "import karenina.schemas.primitives as p",
    "p.ExactMatch.check = lambda self, extracted, expected: True",
  ].join("\n"),
  "VerifiedField is replaced in sys.modules['karenina.schemas.entities.verified_field'] (the flat import's module)":
    [
      "import sys",
      "_vf = sys.modules['karenina.schemas.entities.verified_field']",
      "_registry = sys.modules['karenina.schemas.primitives.registry']",
      "class _Yes(sys.modules['karenina.schemas.primitives'].ExactMatch):",
      "    def check(self, extracted, expected):",
      "        return True",
      "_registry._register_primitive(_Yes) if hasattr(_registry, '_register_primitive') else _registry.PRIMITIVES.__setitem__('_Yes', _Yes)",
      "def _forged(*a, _real=_vf.VerifiedField, _yes=_Yes, **k):",
      "    k['verify_with'] = _yes()",
      "    return _real(*a, **k)",
      "_real_vf = _vf.VerifiedField",
      "for _m in list(sys.modules.values()):",
      "    if getattr(_m, 'VerifiedField', None) is _real_vf:",
      "        _m.VerifiedField = _forged",
    ].join("\n"),
  "the primitive registry (karenina.schemas.primitives.registry) maps 'ExactMatch' to a forged class": [
    "import sys",
    "import karenina.schemas.primitives as p",
    "r = sys.modules['_karenina_primitives']",
    "class ExactMatch(p.ExactMatch):",
    "    def check(self, extracted, expected):",
    "        return True",
    "r.PRIMITIVES['ExactMatch'] = ExactMatch",
  ].join("\n"),
};

/** Literal made to accept any string, in typing_extensions and in typing (which it aliases). */
const LITERAL_ATTACK = [
  "import typing, typing_extensions",
  "class _AnyString:",
  "    def __class_getitem__(cls, item):",
  "        return str",
  "typing_extensions.Literal = _AnyString",
  "typing.Literal = _AnyString",
].join("\n");

/** A's Step, whose `name` reads 'bind' whatever the data, planted in builtins for B's "Step". */
const PLANTED_STEP = [
  "import builtins",
  "from pydantic import BaseModel",
  "class Step(BaseModel):",
  "    name: str",
  "    def __getattribute__(self, key):",
  "        return 'bind' if key == 'name' else object.__getattribute__(self, key)",
  "builtins.Step = Step",
].join("\n");

/** B names "Step" without defining it: Pydantic's answer is an error, never someone else's class. */
const UNDEFINED_STEP = [
  "class Answer(BaseAnswer):",
  "    steps: list['Step'] = Field(description='Steps')",
  "    def verify(self):",
  "        return self.steps[0].name == 'bind'",
].join("\n");

/** B defines its own Step after its Answer (a forward reference resolved at first use). */
const OWN_STEP = [
  "from pydantic import BaseModel",
  "class Answer(BaseAnswer):",
  "    steps: list['Step'] = Field(description='Steps')",
  "    def verify(self):",
  "        return self.steps[0].name == 'bind'",
  "class Step(BaseModel):",
  "    name: str",
].join("\n");

describe.each([
  ["on-new-code (the default)", "on-new-code"],
  ["every-call", "every-call"],
] as const)(
  "a template patching the shared compatibility modules cannot change another verdict: %s",
  (_t, reset) => {
    let sandbox: PythonSandbox;

    beforeAll(() => {
      sandbox = PythonSandbox.create({ reset });
    });

    afterAll(async () => {
      await sandbox.close();
    });

    test.each(Object.entries(MODULE_ATTACKS))("%s", async (_name, attack) => {
      const honest = await loadPythonTemplate(HONEST_VERIFIED, { sandbox });
      expect((await honest.evaluate({ gene: "MCL1" })).verify).toBe(false);
      const hostile = await loadPythonTemplate(tampering(attack), { sandbox });
      await hostile.evaluate({ x: "a" });
      const [wrong, right] = await Promise.all([
        honest.evaluate({ gene: "MCL1" }),
        honest.evaluate({ gene: "BCL2" }),
        hostile.evaluate({ x: "a" }),
      ]);
      expect(wrong).toMatchObject({ verify: false, error: null });
      expect(right).toMatchObject({ verify: true, error: null });
      const later = await loadPythonTemplate(`${HONEST_VERIFIED}\n# loaded after the attack`, { sandbox });
      expect((await later.evaluate({ gene: "MCL1" })).verify).toBe(false);
    });

    test("typing_extensions.Literal (and typing.Literal) made to accept any string", async () => {
      const hostile = await loadPythonTemplate(tampering(LITERAL_ATTACK), { sandbox });
      await hostile.evaluate({ x: "a" });
      const honest = await loadPythonTemplate(HONEST_LITERAL, { sandbox });
      expect((await honest.evaluate({ phase: "IV" })).verify).not.toBe(true);
      expect((await honest.evaluate({ phase: "III" })).verify).toBe(true);
    });

    test("a Step planted in builtins does not answer another template's forward reference 'Step'", async () => {
      await (await loadPythonTemplate(tampering(PLANTED_STEP), { sandbox })).evaluate({ x: "a" });
      const undefinedStep = await loadPythonTemplate(UNDEFINED_STEP, { sandbox }).then(
        (t) => t.evaluate({ steps: [{ name: "inhibit" }] }),
        (error: unknown) => ({ verify: null, error: String(error) }),
      );
      expect(undefinedStep.verify).not.toBe(true);
      expect(String(undefinedStep.error)).toContain("Step");
    });
  },
);

const VERIFIED_FIELD_ATTACK = Object.keys(MODULE_ATTACKS)[1] as string;

describe("controls: with reset never, the attacks are real", () => {
  test.each(Object.entries(MODULE_ATTACKS).filter(([name]) => name !== VERIFIED_FIELD_ATTACK))(
    "%s",
    async (_name, attack) => {
      const sandbox = PythonSandbox.create({ reset: "never" });
      try {
        await (await loadPythonTemplate(tampering(attack), { sandbox })).evaluate({ x: "a" });
        const honest = await loadPythonTemplate(HONEST_VERIFIED, { sandbox });
        expect((await honest.evaluate({ gene: "MCL1" })).verify).toBe(true);
      } finally {
        await sandbox.close();
      }
    },
  );

  test("except VerifiedField: replaced in every module, the flat import still gives B the layer's own", async () => {
    const sandbox = PythonSandbox.create({ reset: "never" });
    try {
      await (
        await loadPythonTemplate(tampering(MODULE_ATTACKS[VERIFIED_FIELD_ATTACK] as string), { sandbox })
      ).evaluate({
        x: "a",
      });
      const forged = await sandbox.run({
        code: "import sys",
        entry: "sys.modules['karenina.schemas.entities'].VerifiedField.__name__",
      });
      expect(forged).toBe("_forged");
      const honest = await loadPythonTemplate(HONEST_VERIFIED, { sandbox });
      expect((await honest.evaluate({ gene: "MCL1" })).verify).toBe(false);
    } finally {
      await sandbox.close();
    }
  });

  test("typing.Literal replaced: the shim no longer knows B's Literal, and B loses its verdict", async () => {
    const sandbox = PythonSandbox.create({ reset: "never" });
    try {
      await (await loadPythonTemplate(tampering(LITERAL_ATTACK), { sandbox })).evaluate({ x: "a" });
      await expect(loadPythonTemplate(HONEST_LITERAL, { sandbox })).rejects.toThrow(/Unable to generate/);
    } finally {
      await sandbox.close();
    }
  });

  test("a Step planted in builtins answers another template's forward reference", async () => {
    const sandbox = PythonSandbox.create({ reset: "never" });
    try {
      await (await loadPythonTemplate(tampering(PLANTED_STEP), { sandbox })).evaluate({ x: "a" });
      const victim = await loadPythonTemplate(UNDEFINED_STEP, { sandbox });
      expect((await victim.evaluate({ steps: [{ name: "inhibit" }] })).verify).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});

describe("forward references", () => {
  let sandbox: PythonSandbox;

  beforeAll(() => {
    sandbox = PythonSandbox.create({ reset: "never", timeoutMs: 3000 });
  });

  afterAll(async () => {
    await sandbox.close();
  });

  const loadError = (code: string) =>
    loadPythonTemplate(code, { sandbox }).then(
      () => "loaded",
      (error: unknown) => String(error instanceof Error ? error.message : error),
    );

  test("no registry by name: even sharing one interpreter, B's 'Step' is never A's Step class", async () => {
    const attacker = [
      "from pydantic import BaseModel",
      "class Step(BaseModel):",
      "    name: str",
      "    def __getattribute__(self, key):",
      "        return 'bind' if key == 'name' else object.__getattribute__(self, key)",
      "class Answer(BaseAnswer):",
      "    steps: list[Step] = Field(description='Steps')",
      "    def verify(self):",
      "        return True",
    ].join("\n");
    await (await loadPythonTemplate(attacker, { sandbox })).evaluate({ steps: [{ name: "x" }] });
    const own = await loadPythonTemplate(OWN_STEP, { sandbox });
    expect((await own.evaluate({ steps: [{ name: "inhibit" }] })).verify).toBe(false);
    expect((await own.evaluate({ steps: [{ name: "bind" }] })).verify).toBe(true);
    const undefinedStep = await loadPythonTemplate(`${UNDEFINED_STEP}\n# after A`, { sandbox }).then(
      (t) => t.evaluate({ steps: [{ name: "inhibit" }] }),
      (error: unknown) => ({ verify: null, error: String(error) }),
    );
    expect(undefinedStep.verify).not.toBe(true);
    expect(String(undefinedStep.error)).toMatch(/Step/);
  });

  test.each([
    ["`import js`", "__import__('js')", "import of 'js' is blocked"],
    ["`import pyodide`", "__import__('pyodide').code", "import of 'pyodide' is blocked"],
  ])(
    "an annotation string that imports %s is stopped by the import gate",
    async (_n, expression, message) => {
      const code = [
        "class Answer(BaseAnswer):",
        `    x: ${JSON.stringify(expression)} = Field(description='x')`,
      ].join("\n");
      expect(await loadError(code)).toContain(message);
    },
  );

  test("an annotation string that names a not-yet-defined class, then runs the gate-denied import at first use", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    x: 'Later' = Field(description='x')",
      "    def verify(self):",
      "        return True",
      "Later = \"__import__('js')\"",
    ].join("\n");
    const result = await loadPythonTemplate(code, { sandbox }).then(
      (t) => t.evaluate({ x: "a" }),
      (error: unknown) => ({ verify: null, error: String(error) }),
    );
    expect(result.verify).not.toBe(true);
    expect(String(result.error)).toContain("import of 'js' is blocked");
  });

  test("a self-referencing chain of strings fails (RecursionError), and the sandbox still serves", async () => {
    const code = [
      "X = 'Y'",
      "Y = 'X'",
      "class Answer(BaseAnswer):",
      "    x: 'X' = Field(description='x')",
      "    def verify(self):",
      "        return True",
    ].join("\n");
    expect(await loadError(code)).not.toBe("loaded");
    const honest = await loadPythonTemplate(HONEST_VERIFIED, { sandbox });
    expect((await honest.evaluate({ gene: "BCL2" })).verify).toBe(true);
  });

  test("a self-referencing chain met at first use fails, and the sandbox still serves", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    x: 'Loop' = Field(description='x')",
      "    def verify(self):",
      "        return True",
      "Loop = 'Loop'",
    ].join("\n");
    const result = await loadPythonTemplate(code, { sandbox }).then(
      (t) => t.evaluate({ x: "a" }),
      (error: unknown) => ({ verify: null, error: String(error) }),
    );
    expect(result.verify).not.toBe(true);
    const honest = await loadPythonTemplate(`${HONEST_VERIFIED}\n# after the loop`, { sandbox });
    expect((await honest.evaluate({ gene: "BCL2" })).verify).toBe(true);
  });

  test("an annotation string that never finishes is stopped by the deadline, and the sandbox still serves", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    x: 'next(i for i in iter(int, 1) if i)' = Field(description='x')",
    ].join("\n");
    expect(await loadError(code)).not.toBe("loaded");
    const honest = await loadPythonTemplate(`${HONEST_VERIFIED}\n# after the deadline`, { sandbox });
    expect((await honest.evaluate({ gene: "MCL1" })).verify).toBe(false);
  }, 30_000);
});
