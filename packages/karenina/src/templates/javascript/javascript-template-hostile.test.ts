import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JavaScriptSandbox } from "../../sandbox/index.js";
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
