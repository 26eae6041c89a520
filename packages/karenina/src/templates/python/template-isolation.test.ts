/**
 * Isolation between templates (issue 12, point 3): a template that tampers with what other templates rely on
 * (the trusted bridge, the compatibility layer, built-ins, the standard library, the cached classes of other
 * templates) cannot change another question's verdict. The hostile templates are written for these tests,
 * after the attack found on main: replacing a function of the bridge module made every later `verify` true.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { loadPythonTemplate } from "./index.js";

/** A classic template whose ground truth is `city` and whose verify compares it case-insensitively. */
const cityTemplate = (city: string) =>
  [
    "class Answer(BaseAnswer):",
    "    city: str = Field(description='The city named in the response')",
    "    def ground_truth(self):",
    `        self.correct = {'city': ${JSON.stringify(city)}}`,
    "    def verify(self):",
    "        return self.city.strip().lower() == self.correct['city'].lower()",
  ].join("\n");

/** A template that runs `attack` in its verify(), and at its top level once its class is defined. */
const tampering = (attack: string) =>
  [
    "class Answer(BaseAnswer):",
    "    x: str = Field(description='x')",
    "    def verify(self):",
    ...attack.split("\n").map((line) => `        ${line}`),
    "        return True",
    attack,
  ].join("\n");

const ATTACKS: Record<string, string> = {
  "the bridge's evaluation function is replaced (module found in sys.modules)": [
    "import sys",
    "_bridge = sys.modules['_karenina_bridge']",
    // A default argument, not a global: top-level names are invisible inside functions (spec 02 §1.1).
    "def _forged(*a, _real=_bridge._evaluate, **k):",
    "    result = _real(*a, **k)",
    "    result['verify'] = True",
    "    return result",
    "_bridge._evaluate = _forged",
  ].join("\n"),
  "the bridge's function is replaced in its module dict, found through gc (not sys.modules)": [
    "import gc",
    "for _d in [o for o in gc.get_objects() if type(o) is dict and '_evaluate' in o and 'evaluate_batch' in o]:",
    "    def _forged(*a, _real=_d['_evaluate'], **k):",
    "        result = _real(*a, **k)",
    "        result['verify'] = True",
    "        return result",
    "    _d['_evaluate'] = _forged",
  ].join("\n"),
  "every cached template class gets a verify that says yes": [
    "import gc",
    "for _c in [o for o in gc.get_objects() if isinstance(o, type) and o.__name__ == 'Answer']:",
    "    _c.verify = lambda self: True",
  ].join("\n"),
};

describe.each([
  ["on-new-code (one interpreter per checkpoint, the default)", "on-new-code"],
  ["every-call (a fresh state per question)", "every-call"],
] as const)("a tampering template cannot change another question's verdict: %s", (_title, reset) => {
  let sandbox: PythonSandbox;

  beforeAll(() => {
    sandbox = PythonSandbox.create({ reset });
  });

  afterAll(async () => {
    await sandbox.close();
  });

  test.each(Object.entries(ATTACKS))("%s", async (_name, attack) => {
    const honest = await loadPythonTemplate(cityTemplate("Paris"), { sandbox });
    expect((await honest.evaluate({ city: "Rome" })).verify).toBe(false);
    const hostile = await loadPythonTemplate(tampering(attack), { sandbox });
    await hostile.evaluate({ x: "anything" });
    // Evaluated after the attack, and together with the hostile template's evaluations.
    const [wrong, right] = await Promise.all([
      honest.evaluate({ city: "Rome" }),
      honest.evaluate({ city: " paris " }),
      hostile.evaluate({ x: "anything" }),
    ]);
    expect(wrong).toMatchObject({ verify: false, error: null });
    expect(right).toMatchObject({ verify: true, error: null });
    // A template loaded after the attack is built on the untouched compatibility layer.
    const later = await loadPythonTemplate(cityTemplate("Lima"), { sandbox });
    expect((await later.evaluate({ city: "Rome" })).verify).toBe(false);
    expect((await later.evaluate({ city: "LIMA" })).verify).toBe(true);
  });
});

test.each(Object.entries(ATTACKS))(
  "control: with reset never, the attack is real (%s)",
  async (_name, attack) => {
    const sandbox = PythonSandbox.create({ reset: "never" });
    try {
      const honest = await loadPythonTemplate(cityTemplate("Paris"), { sandbox });
      expect((await honest.evaluate({ city: "Rome" })).verify).toBe(false);
      await (await loadPythonTemplate(tampering(attack), { sandbox })).evaluate({ x: "anything" });
      expect((await honest.evaluate({ city: "Rome" })).verify).toBe(true);
    } finally {
      await sandbox.close();
    }
  },
);

describe("what each reset mode shares", () => {
  /** A template whose verify counts its own calls in a module attribute, and is true on the first call only. */
  const counting = [
    "class Answer(BaseAnswer):",
    "    x: str = Field(description='x')",
    "    def verify(self):",
    "        import sys",
    "        sys.karenina_calls = getattr(sys, 'karenina_calls', 0) + 1",
    "        return sys.karenina_calls == 1",
  ].join("\n");

  test("every-call: each evaluation of the same template starts from a fresh state", async () => {
    const sandbox = PythonSandbox.create({ reset: "every-call" });
    try {
      const template = await loadPythonTemplate(counting, { sandbox });
      for (let i = 0; i < 3; i++) expect((await template.evaluate({ x: "a" })).verify).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  test("on-new-code: evaluations of one template share state; another template's code resets it", async () => {
    const sandbox = PythonSandbox.create({ reset: "on-new-code" });
    try {
      const template = await loadPythonTemplate(counting, { sandbox });
      expect((await template.evaluate({ x: "a" })).verify).toBe(true);
      expect((await template.evaluate({ x: "a" })).verify).toBe(false);
      const other = await loadPythonTemplate(cityTemplate("Oslo"), { sandbox });
      expect((await other.evaluate({ city: "oslo" })).verify).toBe(true);
      expect((await template.evaluate({ x: "a" })).verify).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  test("never: state persists between templates, as in one trust domain", async () => {
    const sandbox = PythonSandbox.create({ reset: "never" });
    try {
      const template = await loadPythonTemplate(counting, { sandbox });
      await template.evaluate({ x: "a" });
      await loadPythonTemplate(cityTemplate("Oslo"), { sandbox });
      await template.evaluate({ x: "a" });
      expect(await sandbox.run({ code: "import sys", entry: "sys.karenina_calls" })).toBeGreaterThanOrEqual(
        2,
      );
    } finally {
      await sandbox.close();
    }
  });

  test("a callable trait's code, run in the same sandbox, cannot forge a template's verdict", async () => {
    const sandbox = PythonSandbox.create();
    try {
      const honest = await loadPythonTemplate(cityTemplate("Paris"), { sandbox });
      const trait = `${ATTACKS["the bridge's evaluation function is replaced (module found in sys.modules)"]}\ndef evaluate(trace):\n    return True`;
      expect(await sandbox.run({ code: trait, entry: "evaluate", args: ["text"] })).toBe(true);
      expect((await honest.evaluate({ city: "Rome" })).verify).toBe(false);
    } finally {
      await sandbox.close();
    }
  });

  test("two sandboxes (two checkpoints) never share an interpreter", async () => {
    const first = PythonSandbox.create({ reset: "never" });
    const second = PythonSandbox.create({ reset: "never" });
    try {
      await first.run({ code: "import sys\nsys.karenina_mark = 'first'", entry: "sys.karenina_mark" });
      expect(
        await second.run({ code: "import sys", entry: "getattr(sys, 'karenina_mark', None)" }),
      ).toBeNull();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
