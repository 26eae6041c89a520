/**
 * The template layer's Python, outside Pyodide: the setup built from the `.py` files beside compat-setup.ts runs
 * under the host's python3 as it does in the sandbox, so Python's own tools can test it. The template is written
 * for this test from the original's documented import paths.
 */
import { spawn } from "node:child_process";
import { expect, test } from "vitest";
import { pythonCompatSetup } from "./compat-setup.js";

const TEMPLATE = `
from karenina.schemas.primitives import ExactMatch
from karenina.schemas.entities import BaseAnswer, VerifiedField


class Answer(BaseAnswer):
    target: str = VerifiedField(description="The protein the drug inhibits", ground_truth="BCL2",
                                verify_with=ExactMatch(case_sensitive=False))
`;

/** Reads the setup on stdin, runs it as the sandbox does, then loads TEMPLATE and verifies two answers. */
const HOST_CHECK = `
import json, sys
exec(compile(sys.stdin.read(), "<setup>", "exec", dont_inherit=True), {"__name__": "__sandbox_setup__"})
bridge = sys.modules["_karenina_bridge"]
template = {"code": sys.argv[1], "lenient": False}
loaded = bridge.load_template("t", template["code"], False)
items = [{"key": "t", "parsed": {"target": answer}, "context": {}} for answer in ("bcl2", "MCL1")]
verdicts = [e["verify"] for e in bridge.evaluate_batch({"templates": {"t": template}, "items": items})]
print(json.dumps({"ok": loaded["ok"], "className": loaded.get("className"), "verdicts": verdicts}))
`;

/** Runs python3 with `input` on stdin; null when there is no python3. */
function python3(
  args: readonly string[],
  input: string,
): Promise<{ code: number; out: string; err: string } | null> {
  return new Promise((resolve) => {
    const child = spawn("python3", args, { env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", () => resolve(null));
    // Without python3 the pipe breaks; the spawn error above already tells.
    child.stdin.on("error", () => undefined);
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
    child.stdin.end(input);
  });
}

test("the template layer's setup runs under the host's python3: a template loads and tells right from wrong", async (context) => {
  const result = await python3(["-c", HOST_CHECK, TEMPLATE], pythonCompatSetup());
  if (result === null)
    context.skip("python3 is not installed on this machine: the layer is tested in Pyodide only");
  expect(result?.err).toBe("");
  expect(JSON.parse(result?.out ?? "null")).toEqual({
    ok: true,
    className: "Answer",
    verdicts: [true, false],
  });
});
