import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JavaScriptSandbox } from "../../sandbox/index.js";
import { whileTicking } from "../../test-support/while-ticking.js";
import { TemplateError } from "../answer-template.js";
import { type JavaScriptTemplate, loadJavaScriptTemplate } from "./javascript-template.js";

let sandbox: JavaScriptSandbox;
let wellBehaved: JavaScriptTemplate;
beforeAll(async () => {
  sandbox = await JavaScriptSandbox.create({ timeoutMs: 300, memoryLimitMb: 32 });
  wellBehaved = await loadJavaScriptTemplate(
    `({ fields: { properties: { a: { type: "string" } }, required: ["a"] }, verify: (answer) => answer.a === "ok" })`,
    { sandbox },
  );
});
afterAll(() => sandbox.close());

/** A template whose verify runs `body` when the answer is "attack" (so that loading it succeeds). */
const armed = (body: string) => `({
  fields: { properties: { a: { type: "string" } }, required: ["a"] },
  verify(answer) {
    if (answer.a !== "attack") return false;
    ${body}
  },
})`;

async function expectNextTemplateRuns(): Promise<void> {
  expect((await wellBehaved.evaluate({ a: "ok" })).verify).toBe(true);
}

describe("hostile template sources fail clearly and the next template runs", () => {
  test.each([
    ["reads the environment", "return process.env.HOME === '/root';", 'verify uses "process"'],
    ["requires fs", "return require('fs').existsSync('/etc/passwd');", 'verify uses "require"'],
    ["calls fetch", "fetch('http://127.0.0.1/'); return true;", 'verify uses "fetch"'],
    ["logs to the console", "console.log(answer); return true;", 'verify uses "console"'],
  ])("a template that %s is refused at load", async (_what, body, message) => {
    const source = `({ fields: { properties: { a: { type: "string" } } }, verify(answer) { ${body} } })`;
    const error = await loadJavaScriptTemplate(source, { sandbox }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toContain(message);
    await expectNextTemplateRuns();
  });

  test("a source importing a module does not load", async () => {
    await expect(loadJavaScriptTemplate('import fs from "fs"; ({})', { sandbox })).rejects.toThrow(
      "the template is not valid JavaScript: SyntaxError",
    );
    await expectNextTemplateRuns();
  });

  test.each([
    [
      "loops forever",
      "for (;;);",
      "Field verification failed: the sandboxed code ran longer than its limit of 300 ms and was stopped",
    ],
    [
      "allocates 2 GB",
      "return new Uint8Array(2 * 1024 ** 3).length > 0;",
      "Field verification failed: RangeError: invalid array buffer length",
    ],
    [
      "fills the memory",
      "const kept = []; for (;;) kept.push('x'.repeat(1e6) + kept.length);",
      "Field verification failed: the sandboxed code exceeded its memory limit of 32 MB (InternalError: out of memory)",
    ],
    [
      "recurses without end",
      "const down = (n) => down(n + 1) + 1; return down(0) > 0;",
      "Field verification failed: InternalError: stack overflow",
    ],
    [
      "imports dynamically",
      "return import('fs');",
      "Field verification failed: verify must return true or false, it returned a Promise",
    ],
    ["reaches for the host's global", "return Function('return typeof process')() !== 'undefined';", null],
  ])("a verify that %s fails its evaluation and the next template runs", async (_what, body, error) => {
    const template = await loadJavaScriptTemplate(armed(body), { sandbox });
    const result = await template.evaluate({ a: "attack" });
    expect(result.verify).toBe(false);
    if (error === null) expect(result.error).toBeNull();
    else expect(result.error).toContain(error);
    await expectNextTemplateRuns();
    expect((await template.evaluate({ a: "calm" })).error).toBeNull();
  });

  test("a source that never finishes evaluating is refused at load", async () => {
    await expect(loadJavaScriptTemplate("for (;;); ({})", { sandbox })).rejects.toThrow(
      "evaluating the template failed: the sandboxed code ran longer than its limit of 300 ms and was stopped",
    );
    await expectNextTemplateRuns();
  });

  test("a verify that loops on every answer is refused at load", async () => {
    await expect(loadJavaScriptTemplate("({ verify() { for (;;); } })", { sandbox })).rejects.toThrow(
      "running the template's functions on a dummy answer failed: the sandboxed code ran longer than its limit of 300 ms and was stopped",
    );
    await expectNextTemplateRuns();
  });

  test("one template cannot change the built-ins another template relies on", async () => {
    const vandal = await loadJavaScriptTemplate(
      armed("String.prototype.trim = function () { return 'ok'; }; return true;"),
      { sandbox },
    );
    expect((await vandal.evaluate({ a: "attack" })).error).toContain("TypeError");
    const trimming = await loadJavaScriptTemplate(
      `({ fields: { properties: { a: { type: "string" } } }, verify: (answer) => answer.a.trim() === "ok" })`,
      { sandbox },
    );
    expect((await trimming.evaluate({ a: "not ok" })).verify).toBe(false);
  });
});

/** One call of native code for about 20 s, which QuickJS's interrupt never sees. */
const LONG_NATIVE_CALL = '"a".repeat(1 << 21).indexOf("a".repeat(1 << 13) + "b")';

describe("a template's long native call cannot block the host (1 s limit)", () => {
  let oneSecond: JavaScriptSandbox;
  let calm: JavaScriptTemplate;
  beforeAll(async () => {
    oneSecond = await JavaScriptSandbox.create({ timeoutMs: 1000 });
    calm = await loadJavaScriptTemplate(
      `({ fields: { properties: { a: { type: "string" } }, required: ["a"] }, verify: (answer) => answer.a === "ok" })`,
      { sandbox: oneSecond },
    );
  });
  afterAll(() => oneSecond.close());

  test("a verify making one long native call fails its evaluation within seconds, and the next one is right", async () => {
    const template = await loadJavaScriptTemplate(armed(`return ${LONG_NATIVE_CALL} === 0;`), {
      sandbox: oneSecond,
    });
    const { outcome, ms, ticks } = await whileTicking(() => template.evaluate({ a: "attack" }));
    expect(outcome).toMatchObject({
      verify: false,
      error:
        "Field verification failed: the sandboxed code ran longer than its limit of 1000 ms and was stopped",
    });
    expect(ms).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(20);
    expect((await template.evaluate({ a: "calm" })).error).toBeNull();
    expect((await calm.evaluate({ a: "ok" })).verify).toBe(true);
  });

  test("a verify making the long native call on every answer is refused at load within seconds", async () => {
    const source = `({ fields: { properties: { a: { type: "string" } } }, verify() { return ${LONG_NATIVE_CALL} === 0; } })`;
    const { outcome, ms, ticks } = await whileTicking(() =>
      loadJavaScriptTemplate(source, { sandbox: oneSecond }),
    );
    expect(outcome).toBeInstanceOf(TemplateError);
    expect((outcome as Error).message).toBe(
      "running the template's functions on a dummy answer failed: the sandboxed code ran longer than its limit of 1000 ms and was stopped",
    );
    expect(ms).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(20);
    expect((await calm.evaluate({ a: "ok" })).verify).toBe(true);
  });
});

describe("a fields schema that would expand without bound is refused at load", () => {
  /** Source of a template whose `fields` are `fields` (JSON text). */
  const withFields = (fields: string) => `({ fields: ${fields}, verify: () => true })`;

  test("a billion laughs of $defs (30 levels) is refused naming the $refs, without exhausting memory", async () => {
    const $defs: Record<string, unknown> = { L0: { type: "string" } };
    for (let level = 1; level <= 30; level++) {
      const previous = { $ref: `#/$defs/L${level - 1}` };
      $defs[`L${level}`] = { type: "object", properties: { a: previous, b: previous }, required: ["a", "b"] };
    }
    const fields = { type: "object", properties: { x: { $ref: "#/$defs/L30" } }, required: ["x"], $defs };
    const before = process.memoryUsage().heapUsed;
    const error = await loadJavaScriptTemplate(withFields(JSON.stringify(fields)), { sandbox }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(
      /^fields\.properties\.x\..+: the fields schema expands to more than 10000 nodes through \$ref \(#\/\$defs\/L30 → .+\): refused$/,
    );
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
    await expectNextTemplateRuns();
  });

  test("a cyclic $ref is refused as recursive", async () => {
    const fields = `{ properties: { head: { $ref: "#/$defs/Node" } }, required: ["head"],
      $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } }, required: ["next"] } } }`;
    await expect(loadJavaScriptTemplate(withFields(fields), { sandbox })).rejects.toThrow(
      "fields.properties.head.properties.next: the fields schema refers to itself through $ref (#/$defs/Node → #/$defs/Node); a recursive schema cannot be expanded for the judge: refused",
    );
    await expectNextTemplateRuns();
  });

  test.each([
    [1000, /^fields\.properties\.a\..+: the fields schema nests deeper than 64 levels: refused$/],
    // Rendered to JSON in the sandbox, 10,000 levels overflow QuickJS's own stack before reaching the host.
    [
      10_000,
      /^evaluating the template failed: InternalError: stack overflow$|nests deeper than 64 levels: refused$/,
    ],
  ])("%i levels of nested properties are refused", async (depth, message) => {
    const source = `(() => {
      let schema = { type: "string" };
      for (let i = 0; i < ${depth}; i++) schema = { type: "object", properties: { a: schema }, required: ["a"] };
      return { fields: schema, verify: () => true };
    })()`;
    // A time limit roomy enough for building and rendering 10,000 levels on a busy machine.
    const roomy = await JavaScriptSandbox.create({ timeoutMs: 10_000 });
    try {
      const error = await loadJavaScriptTemplate(source, { sandbox: roomy }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TemplateError);
      expect((error as Error).message).toMatch(message);
      const next = await loadJavaScriptTemplate(
        `({ fields: { properties: { a: { type: "string" } } }, verify: () => true })`,
        {
          sandbox: roomy,
        },
      );
      expect((await next.evaluate({ a: "x" })).verify).toBe(true);
    } finally {
      roomy.close();
    }
  });

  test("fields sharing one object at every level (a billion laughs built in the sandbox) stop at a limit", async () => {
    const source = `(() => {
      let schema = { type: "string" };
      for (let i = 0; i < 30; i++) schema = { type: "object", properties: { a: schema, b: schema } };
      return { fields: schema, verify: () => true };
    })()`;
    const error = await loadJavaScriptTemplate(source, { sandbox }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(
      /^evaluating the template failed: the sandboxed code (ran longer|exceeded)/,
    );
    await expectNextTemplateRuns();
  });
});
