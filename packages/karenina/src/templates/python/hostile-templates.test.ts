/**
 * Hostile templates: each load or evaluation fails with a clear message, nothing leaves the sandbox, and the
 * next template still runs in the same process. The templates are written for these tests.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { TemplateError } from "../answer-template.js";
import { loadPythonTemplate, type PythonTemplate } from "./index.js";

const SECRET = "KARENINA_TEMPLATE_SECRET";
let sandbox: PythonSandbox;
let healthy: PythonTemplate;

const load = (code: string) => loadPythonTemplate(code, { sandbox });

/** A template whose verify() runs `body` (indented for a method). */
const verifying = (body: string) =>
  ["class Answer(BaseAnswer):", "    x: str = Field(description='x')", "    def verify(self):", body].join(
    "\n",
  );

/** A template whose top level runs `statement`. */
const executing = (statement: string) => `${statement}\n${verifying("        return True")}`;

async function loadError(code: string): Promise<string> {
  const error = await load(code).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TemplateError);
  return (error as TemplateError).message;
}

async function evaluationError(body: string): Promise<string | null> {
  const evaluation = await (await load(verifying(body))).evaluate({ x: "a" });
  expect(evaluation.verify).toBe(false);
  return evaluation.error;
}

/** The healthy template still gives its verdict (hand-written parsed answer). */
async function stillWorks(): Promise<void> {
  expect(await healthy.evaluate({ x: "a" })).toMatchObject({ verify: true, error: null });
}

beforeAll(async () => {
  process.env[SECRET] = "host-secret-value";
  sandbox = PythonSandbox.create({ timeoutMs: 500, memoryLimitMb: 64 });
  healthy = await load(verifying("        return self.x == 'a'"));
});

afterAll(async () => {
  delete process.env[SECRET];
  await sandbox.close();
});

describe("host resources are out of reach", () => {
  test("reading /etc/passwd finds no host file", async () => {
    expect(await evaluationError("        return 'root:' in open('/etc/passwd').read()")).toMatch(
      /^Field verification failed: \[Errno \d+\] No such file or directory: '\/etc\/passwd'$/,
    );
    expect(await loadError(executing("open('/etc/passwd').read()"))).toMatch(
      /^Error executing template code: \[Errno \d+\] No such file or directory/,
    );
    await stillWorks();
  });

  test("the host's environment variables are not visible", async () => {
    expect(await evaluationError(`        import os\n        return os.environ['${SECRET}'] == 'x'`)).toBe(
      `Field verification failed: '${SECRET}'`,
    );
    const leak = [
      "class Answer(BaseAnswer):",
      "    def ground_truth(self):",
      "        import os",
      "        self.correct = {'environment': dict(os.environ)}",
    ].join("\n");
    const environment = JSON.stringify((await load(leak)).groundTruth);
    expect(environment).not.toContain("host-secret-value");
    expect(environment).not.toContain(process.env.PATH ?? "no PATH on the host");
    await stillWorks();
  });

  test("sockets cannot be opened", async () => {
    expect(await loadError(executing("import socket"))).toBe(
      "Error executing template code: import of 'socket' is blocked in the sandbox",
    );
    expect(await evaluationError("        import socket\n        return True")).toBe(
      "Field verification failed: import of 'socket' is blocked in the sandbox",
    );
    await stillWorks();
  });

  test("JavaScript is not reachable: `import js` and `import pyodide` fail", async () => {
    expect(await loadError(executing("import js"))).toBe(
      "Error executing template code: import of 'js' is blocked in the sandbox",
    );
    expect(await evaluationError("        import pyodide\n        return True")).toBe(
      "Field verification failed: import of 'pyodide' is blocked in the sandbox",
    );
    await stillWorks();
  });
});

describe("runaway templates are stopped", () => {
  test("an endless loop at the top level times out the load", async () => {
    expect(await loadError(executing("while True:\n    pass"))).toBe("Template timed out after 500 ms");
    await stillWorks();
  });

  test("an endless loop in verify() times out alone: evaluations batched with it get their verdicts", async () => {
    const looping = await load(verifying("        while True:\n            pass"));
    // Hand-written parsed answers.
    const [first, stuck, last] = await Promise.all([
      healthy.evaluate({ x: "a" }),
      looping.evaluate({ x: "a" }),
      healthy.evaluate({ x: "b" }),
    ]);
    expect(first).toMatchObject({ verify: true, error: null });
    expect(stuck).toMatchObject({ verify: false, error: "Template timed out after 500 ms" });
    expect(last).toMatchObject({ verify: false, error: null });
    await stillWorks();
  });

  test("allocating 2 GB exceeds the memory limit; the next evaluation works", async () => {
    expect(
      await evaluationError(
        "        chunks = [bytearray(1024 * 1024) for _ in range(2048)]\n        return len(chunks) > 0",
      ),
    ).toMatch(/^Template exceeded the memory limit of 64 MB \(MemoryError/);
    await stillWorks();
  });

  test("endless recursion is an ordinary error", async () => {
    expect(await evaluationError("        return self.verify()")).toBe(
      "Field verification failed: maximum recursion depth exceeded",
    );
    await stillWorks();
  });

  test("exiting the interpreter is reported, then a fresh one takes over", async () => {
    expect(await evaluationError("        raise SystemExit(3)")).toBe("Template failed: SystemExit: 3");
    expect(await evaluationError("        import os\n        os._exit(1)")).toMatch(
      /^Python sandbox failed: /,
    );
    await stillWorks();
  });
});
