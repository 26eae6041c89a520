/**
 * Answer templates that try to get out of their sandbox, written for the containment tests (hand-written, not
 * the output of any model). Each one that could reach something puts it in an error message (`LEAK:` …), the
 * channel a template has into a stored result, so a test sees a leak in the rows, exports and events. Every
 * template has the one field `x` (a judge replying `{"x": "a"}` parses any answer for it).
 */

/** A Python template whose `verify()` runs `body` (lines indented for a method). */
export function pythonVerifying(...body: string[]): string {
  return [
    "class Answer(BaseAnswer):",
    "    x: str = Field(description='Anything the response says')",
    "    def verify(self):",
    ...body.map((line) => `        ${line}`),
  ].join("\n");
}

/** Python: reads a host file and raises with its content. */
export const pythonReadingFile = (path: string): string =>
  pythonVerifying(`raise ValueError('LEAK:' + open(${JSON.stringify(path)}).read())`);

/** Python: raises with the whole environment it sees (`os.environ`). */
export const PYTHON_READING_ENVIRONMENT = pythonVerifying(
  "import os",
  "raise ValueError('LEAK:' + repr(dict(os.environ)))",
);

/** Python: opens a TCP connection to `port` on 127.0.0.1 and sends `LEAK`. */
export const pythonOpeningSocket = (port: number): string =>
  pythonVerifying(
    "import socket",
    `connection = socket.create_connection(('127.0.0.1', ${port}))`,
    "connection.sendall(b'LEAK')",
    "return True",
  );

/** Python: loops forever. */
export const PYTHON_SPINNING = pythonVerifying("while True:", "    pass");

/** Python: honest; every answer passes. */
export const PYTHON_ACCEPTING = pythonVerifying("return True");

/** A JavaScript template (the form `defineAnswerTemplate` stores) whose `verify` has the given body. */
export function javascriptVerifying(body: string): string {
  return [
    "({",
    '  className: "Answer",',
    '  fields: { type: "object", properties: { x: { type: "string", description: "Anything" } }, required: ["x"] },',
    "  groundTruth: {},",
    `  verify: (answer, correct) => { ${body} },`,
    "})",
  ].join("\n");
}

/**
 * JavaScript: raises with the environment (`process.env`) and a host file (`require("fs")`) when it finds
 * them, and with what it found of the host's globals otherwise.
 */
export const javascriptReadingHost = (path: string): string =>
  javascriptVerifying(
    [
      "const env = typeof process === 'object' ? JSON.stringify(process.env) : 'no process';",
      `const file = typeof require === 'function' ? require('fs').readFileSync(${JSON.stringify(path)}, 'utf8') : 'no require';`,
      "const net = typeof fetch === 'function' ? 'fetch' : 'no fetch';",
      "throw new Error('LEAK:' + [env, file, net].join(' | '));",
    ].join(" "),
  );

/** JavaScript: loops forever. */
export const JAVASCRIPT_SPINNING = javascriptVerifying("for (;;) {}");

/** A text on which `(a+)+$` backtracks 2^40 ways (40 `a` then a character it cannot end on). */
export const CATASTROPHIC_TEXT = `${"a".repeat(40)}!`;

/** A pattern that backtracks catastrophically on {@link CATASTROPHIC_TEXT}. */
export const CATASTROPHIC_PATTERN = "(a+)+$";
