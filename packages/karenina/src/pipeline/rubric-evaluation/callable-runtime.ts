import type { Rubric } from "../../model/index.js";
import {
  type CallableEvaluationOptions,
  type CallableRegistry,
  decodeCallableCode,
} from "../../rubrics/index.js";
import { JavaScriptSandbox, type PythonSandbox } from "../../sandbox/index.js";

let sharedJavaScript: Promise<JavaScriptSandbox> | null = null;

/** The QuickJS sandbox callable traits share, created at the first JavaScript callable. */
function javaScriptSandbox(): Promise<JavaScriptSandbox> {
  if (sharedJavaScript === null) {
    const created = JavaScriptSandbox.create();
    sharedJavaScript = created;
    created.catch(() => {
      if (sharedJavaScript === created) sharedJavaScript = null;
    });
  }
  return sharedJavaScript;
}

/**
 * Where a rubric's callable traits run: the registry's functions first, then the stored code — Python source in
 * the run's Pyodide sandbox (its trust domain's), JavaScript in a shared QuickJS sandbox (whose scripts
 * cannot reach one another). A sandbox is only started when some trait needs it.
 */
export async function callableRuntime(
  rubric: Rubric,
  pythonSandbox: PythonSandbox,
  registry?: CallableRegistry,
): Promise<CallableEvaluationOptions> {
  const forms = new Set(
    rubric.callable_traits
      .filter((trait) => registry?.has(trait.name) !== true)
      .map((trait) => decodeCallableCode(trait.callable_code).form),
  );
  // A sandbox that cannot start leaves its traits without a runtime: they evaluate to null with the reason.
  const javascript = forms.has("javascript") ? await javaScriptSandbox().catch(() => undefined) : undefined;
  return {
    ...(registry === undefined ? {} : { registry }),
    ...(forms.has("python") ? { pythonSandbox } : {}),
    ...(javascript === undefined ? {} : { javascriptSandbox: javascript }),
  };
}
